import Foundation

/// Makes the second picture of a HEIF file the primary picture's auxiliary image, by editing
/// the file's boxes: libheif 1.15 encodes any number of pictures into one file but writes
/// no auxiliary images (its API for that came in 1.19), so Lumen encodes the gain map as
/// a second top-level picture and links it here, as ISO/IEC 23008-12 describes: an `auxC`
/// property naming its type, associated (essential) with the map's item, and an `auxl`
/// reference from the map to the primary picture. The `meta` box grows, so every `iloc`
/// extent stored after it moves by as much.
///
/// The file is libheif's own output, so anything unexpected in it is a Lumen defect, thrown
/// as an error (never a trap).
enum HEIFAuxiliaryLink {
    struct Box {
        let type: String
        let start: Int
        let payload: Int
        let end: Int
    }

    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "the HEIF written by libheif cannot take its auxiliary image: \(reason)" }
    }

    /// `file` with its one picture besides the primary (and the primary's tiles) linked to
    /// the primary as an auxiliary image of `type`.
    static func link(_ file: Data, auxiliaryType type: String) throws -> Data {
        let bytes = [UInt8](file)
        guard let meta = try boxes(bytes, 0..<bytes.count).first(where: { $0.type == "meta" }) else { throw Malformed(reason: "no meta box") }
        let children = try boxes(bytes, try span(meta.payload + 4, meta.end))
        func child(_ type: String) -> Box? { children.first { $0.type == type } }
        guard let pitm = child("pitm"), let iinf = child("iinf"), let iprp = child("iprp"), child("iloc") != nil else {
            throw Malformed(reason: "pitm, iinf, iprp or iloc missing")
        }
        let primary = try byte(bytes, pitm.payload) == 0 ? try u16(bytes, pitm.payload + 4) : try u32(bytes, pitm.payload + 4)

        // The image items, and the tiles (dimg targets) that are parts of another picture.
        var images: [Int] = []
        let iinfEntries = try byte(bytes, iinf.payload) == 0 ? 6 : 8
        for infe in try boxes(bytes, try span(iinf.payload + iinfEntries, iinf.end)) where infe.type == "infe" {
            let version = try byte(bytes, infe.payload)
            guard version >= 2 else { continue }
            let id = version == 2 ? try u16(bytes, infe.payload + 4) : try u32(bytes, infe.payload + 4)
            let typeAt = infe.payload + (version == 2 ? 8 : 10)
            guard typeAt + 4 <= infe.end else { throw Malformed(reason: "a short infe box") }
            let itemType = String(decoding: bytes[typeAt..<(typeAt + 4)], as: UTF8.self)
            if ["hvc1", "grid", "iden", "iovl", "av01"].contains(itemType) { images.append(id) }
        }
        // Items that are parts or companions of another: tiles (dimg targets), and the sources
        // of auxl (an alpha plane libheif wrote), thmb (a thumbnail) references.
        let iref = child("iref")
        var notPictures: Set<Int> = []
        let wideReferences = try iref.map { try byte(bytes, $0.payload) == 1 } ?? false
        if let iref {
            let width = wideReferences ? 4 : 2
            func id(_ at: Int, within end: Int) throws -> Int {
                guard at + width <= end else { throw Malformed(reason: "a short iref box") }
                return width == 4 ? try u32(bytes, at) : try u16(bytes, at)
            }
            for reference in try boxes(bytes, try span(iref.payload + 4, iref.end)) {
                let from = try id(reference.payload, within: reference.end)
                if ["auxl", "thmb"].contains(reference.type) { notPictures.insert(from) }
                guard reference.type == "dimg" else { continue }
                var at = reference.payload + width
                guard at + 2 <= reference.end else { throw Malformed(reason: "a short iref box") }
                let count = try u16(bytes, at)
                at += 2
                for _ in 0..<count {
                    notPictures.insert(try id(at, within: reference.end))
                    at += width
                }
            }
        }
        let candidates = images.filter { $0 != primary && !notPictures.contains($0) }
        guard candidates.count == 1, let map = candidates.first else {
            throw Malformed(reason: "\(candidates.count) pictures besides the primary, not 1")
        }

        // iprp: auxC appended to ipco, and associated with the map in ipma.
        let properties = try boxes(bytes, iprp.payload..<iprp.end)
        guard let ipco = properties.first(where: { $0.type == "ipco" }), let ipma = properties.first(where: { $0.type == "ipma" }) else {
            throw Malformed(reason: "no ipco or ipma")
        }
        let index = try boxes(bytes, ipco.payload..<ipco.end).count + 1
        let auxC = box("auxC", fullBox: 0, Array(type.utf8) + [0])
        let newIPCO = Array(bytes[ipco.payload..<ipco.end])
        let (ipmaVersion, ipmaFlags) = (try byte(bytes, ipma.payload), try u32(bytes, ipma.payload) & 0xFFFFFF)
        guard index <= (ipmaFlags & 1 == 1 ? 32767 : 127) else { throw Malformed(reason: "property index \(index) does not fit ipma") }
        guard ipma.payload + 8 <= ipma.end else { throw Malformed(reason: "a short ipma box") }
        var newIPMA = Array(bytes[ipma.payload..<(ipma.payload + 8)])
        var at = ipma.payload + 8, found = false
        for _ in 0..<(try u32(bytes, ipma.payload + 4)) {
            let idSize = ipmaVersion == 0 ? 2 : 4
            let id = idSize == 2 ? try u16(bytes, at) : try u32(bytes, at)
            guard at + idSize < ipma.end else { throw Malformed(reason: "a short ipma box") }
            let count = Int(bytes[at + idSize]), size = ipmaFlags & 1 == 1 ? 2 : 1
            let end = at + idSize + 1 + count * size
            guard end <= ipma.end else { throw Malformed(reason: "a short ipma box") }
            if id == map {
                guard count < 255 else { throw Malformed(reason: "too many properties") }
                newIPMA += bytes[at..<(at + idSize)] + [UInt8(count + 1)] + bytes[(at + idSize + 1)..<end]
                newIPMA += size == 2 ? [UInt8(0x80 | index >> 8), UInt8(index & 0xFF)] : [UInt8(0x80 | index)]
                found = true
            } else {
                newIPMA += bytes[at..<end]
            }
            at = end
        }
        guard found else { throw Malformed(reason: "the map's item has no properties") }
        var newIPRP: [UInt8] = []
        for property in properties {
            switch property.type {
            case "ipco": newIPRP += box("ipco", newIPCO + auxC)
            case "ipma": newIPRP += box("ipma", newIPMA)
            default: newIPRP += bytes[property.start..<property.end]
            }
        }
        // iref: auxl from the map to the primary, in the box's id width.
        // A new iref takes 32-bit ids when an id needs them.
        let wide = iref == nil ? max(map, primary) > 0xFFFF : wideReferences
        guard wide || max(map, primary) <= 0xFFFF else { throw Malformed(reason: "an item id does not fit iref") }
        func id(_ value: Int) -> [UInt8] { wide ? be32(value) : be16(value) }
        let auxl = box("auxl", id(map) + be16(1) + id(primary))
        let newIREF = iref.map { box("iref", Array(bytes[$0.payload..<$0.end]) + auxl) } ?? box("iref", fullBox: wide ? 1 : 0, auxl)

        var newChildren: [[UInt8]] = []
        for child in children {
            switch child.type {
            case "iprp": newChildren.append(box("iprp", newIPRP))
            case "iref": newChildren.append(newIREF)
            case "iinf":
                newChildren.append(Array(bytes[child.start..<child.end]))
                if iref == nil { newChildren.append(newIREF) }
            default: newChildren.append(Array(bytes[child.start..<child.end]))
            }
        }
        let newMetaLength = 12 + newChildren.reduce(0) { $0 + $1.count }
        let delta = newMetaLength - (meta.end - meta.start)
        // iloc: extents after the meta box move by delta.
        guard let ilocIndex = children.firstIndex(where: { $0.type == "iloc" }) else { throw Malformed(reason: "no iloc") }
        newChildren[ilocIndex] = try shifted(iloc: newChildren[ilocIndex], after: meta.end, by: delta)
        let newMeta = box("meta", fullBox: 0, newChildren.flatMap { $0 })
        return Data(bytes[..<meta.start] + newMeta + bytes[meta.end...])
    }

    /// The iloc box (whole, as bytes) with every file offset at or after `boundary` moved by `delta`.
    static func shifted(iloc: [UInt8], after boundary: Int, by delta: Int) throws -> [UInt8] {
        var box = iloc
        guard box.count >= 16, box[8] <= 2 else { throw Malformed(reason: "an iloc box of another version or too short") }
        let version = box[8]
        let offsetSize = Int(box[12] >> 4), lengthSize = Int(box[12] & 15), baseSize = Int(box[13] >> 4)
        let indexSize = version == 0 ? 0 : Int(box[13] & 15)
        var at = 14
        func read(_ n: Int) throws -> Int {
            guard at + n <= box.count else { throw Malformed(reason: "a short iloc box") }
            defer { at += n }
            return box[at..<(at + n)].reduce(0) { $0 << 8 | Int($1) }
        }
        func write(_ value: Int, _ n: Int, at place: Int) throws {
            guard value >= 0, n == 8 || value < 1 << (8 * n) else { throw Malformed(reason: "an offset no longer fits iloc") }
            for i in 0..<n { box[place + i] = UInt8(truncatingIfNeeded: value >> (8 * (n - 1 - i))) }
        }
        let items = try read(version < 2 ? 2 : 4)
        for _ in 0..<items {
            _ = try read(version < 2 ? 2 : 4)
            let method = version == 0 ? 0 : try read(2) & 15
            let reference = try read(2)
            let baseAt = at
            let base = try read(baseSize)
            let extents = try read(2)
            let inFile = method == 0 && reference == 0
            if inFile && baseSize > 0 && base >= boundary { try write(try sum(base, delta), baseSize, at: baseAt) }
            for _ in 0..<extents {
                _ = try read(indexSize)
                let offsetAt = at
                let offset = try read(offsetSize)
                _ = try read(lengthSize)
                if inFile && offsetSize > 0 && !(baseSize > 0 && base >= boundary), try sum(base, offset) >= boundary {
                    try write(try sum(offset, delta), offsetSize, at: offsetAt)
                }
            }
        }
        return box
    }

    /// The boxes in `range` of `bytes` (sizes checked against the range).
    static func boxes(_ bytes: [UInt8], _ range: Range<Int>) throws -> [Box] {
        var found: [Box] = [], at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = try u32(bytes, at), header = 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { throw Malformed(reason: "a short box header") }
                size = bytes[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { throw Malformed(reason: "a box overruns its parent") }
            found.append(Box(type: String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), start: at, payload: at + header, end: at + size))
            at += size
        }
        return found
    }

    static func box(_ type: String, fullBox version: UInt8? = nil, _ payload: [UInt8]) -> [UInt8] {
        let head: [UInt8] = version.map { [$0, 0, 0, 0] } ?? []
        return be32(8 + head.count + payload.count) + Array(type.utf8) + head + payload
    }

    /// `from..<to`, or an error when a box is shorter than its fields.
    static func span(_ from: Int, _ to: Int) throws -> Range<Int> {
        guard from <= to else { throw Malformed(reason: "a box shorter than its header") }
        return from..<to
    }

    /// a + b, or an error where 8-byte fields would overflow.
    static func sum(_ a: Int, _ b: Int) throws -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw Malformed(reason: "an offset overflows") }
        return value
    }

    static func byte(_ bytes: [UInt8], _ at: Int) throws -> UInt8 {
        guard at >= 0, at < bytes.count else { throw Malformed(reason: "a short box") }
        return bytes[at]
    }

    static func u16(_ bytes: [UInt8], _ at: Int) throws -> Int {
        guard at >= 0, at + 2 <= bytes.count else { throw Malformed(reason: "a short box") }
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    static func u32(_ bytes: [UInt8], _ at: Int) throws -> Int {
        try u16(bytes, at) << 16 | u16(bytes, at + 2)
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
    static func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v) }
}
