import LumenPlatform

/// The ISO base media file format's boxes, as far as Lumen reads HEIF files itself (what
/// Debian's libheif 1.15 does not expose: ISO 21496-1 gain-map items, auxiliary-image links
/// to write): box headers, and the `meta` box's item table — item types (`iinf`), the primary
/// item (`pitm`), references (`iref`) and where each item's bytes are (`iloc`, `idat`).
/// Everything is bounds-checked: a malformed file throws `Malformed`, never traps.
enum HEIFBoxes {
    struct Box {
        let type: String
        let start: Int
        let payload: Int
        let end: Int
    }

    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "malformed HEIF boxes: \(reason)" }
    }

    /// A `meta` box's items.
    struct ItemTable {
        /// The meta box and its children, in order.
        let meta: Box
        let children: [Box]
        let primary: Int
        /// Item id → four-character type.
        let types: [Int: String]
        /// (type, from, to) for every reference of `iref`.
        let references: [(type: String, from: Int, to: [Int])]
        /// Whether `iref` holds 32-bit ids (version 1).
        let wideReferences: Bool
        /// Item id → its `infe` box (version 2 or 3).
        let entries: [Int: Box]
        private let bytes: [UInt8]

        init(_ bytes: [UInt8]) throws {
            self.bytes = bytes
            guard let meta = try boxes(bytes, 0..<bytes.count).first(where: { $0.type == "meta" }) else { throw Malformed(reason: "no meta box") }
            self.meta = meta
            children = try boxes(bytes, try span(meta.payload + 4, meta.end))
            let children = children
            func child(_ type: String) -> Box? { children.first { $0.type == type } }
            guard let pitm = child("pitm"), let iinf = child("iinf") else { throw Malformed(reason: "no pitm or iinf") }
            primary = try byte(bytes, pitm.payload) == 0 ? try u16(bytes, pitm.payload + 4) : try u32(bytes, pitm.payload + 4)
            var types: [Int: String] = [:], entries: [Int: Box] = [:]
            let iinfEntries = try byte(bytes, iinf.payload) == 0 ? 6 : 8
            for infe in try boxes(bytes, try span(iinf.payload + iinfEntries, iinf.end)) where infe.type == "infe" {
                let version = try byte(bytes, infe.payload)
                guard version >= 2 else { continue }
                let id = version == 2 ? try u16(bytes, infe.payload + 4) : try u32(bytes, infe.payload + 4)
                let typeAt = infe.payload + (version == 2 ? 8 : 10)
                guard typeAt + 4 <= infe.end else { throw Malformed(reason: "a short infe box") }
                // libheif keeps an id's first entry; two entries for one id are refused here.
                guard entries[id] == nil else { throw Malformed(reason: "two entries for item \(id)") }
                types[id] = String(decoding: bytes[typeAt..<(typeAt + 4)], as: UTF8.self)
                entries[id] = infe
            }
            self.types = types
            self.entries = entries
            var references: [(type: String, from: Int, to: [Int])] = []
            let iref = child("iref")
            wideReferences = try iref.map { try byte(bytes, $0.payload) == 1 } ?? false
            if let iref {
                let width = wideReferences ? 4 : 2
                func id(_ at: Int, within end: Int) throws -> Int {
                    guard at + width <= end else { throw Malformed(reason: "a short iref box") }
                    return width == 4 ? try u32(bytes, at) : try u16(bytes, at)
                }
                for reference in try boxes(bytes, try span(iref.payload + 4, iref.end)) {
                    let from = try id(reference.payload, within: reference.end)
                    var at = reference.payload + width
                    guard at + 2 <= reference.end else { throw Malformed(reason: "a short iref box") }
                    let count = try u16(bytes, at)
                    at += 2
                    var to: [Int] = []
                    for _ in 0..<count {
                        to.append(try id(at, within: reference.end))
                        at += width
                    }
                    references.append((reference.type, from, to))
                }
            }
            self.references = references
        }

        /// The child box of `meta` of `type`.
        func child(_ type: String) -> Box? { children.first { $0.type == type } }

        /// The file's bytes with item `id` made the primary picture and shown (its `pitm`
        /// value and `infe` hidden flag changed in place: nothing moves), so a reader that
        /// decodes only primary pictures decodes it.
        func withPrimary(_ id: Int) throws -> [UInt8] {
            guard let pitm = child("pitm"), let entry = entries[id] else { throw Malformed(reason: "no pitm or no item \(id)") }
            var patched = bytes
            let wide = try byte(bytes, pitm.payload) != 0
            guard wide || id <= 0xFFFF, pitm.payload + (wide ? 8 : 6) <= pitm.end, entry.payload + 4 <= entry.end else {
                throw Malformed(reason: "item \(id) does not fit pitm")
            }
            let value = wide ? be32(id) : be16(id)
            patched.replaceSubrange((pitm.payload + 4)..<(pitm.payload + 4 + value.count), with: value)
            patched[entry.payload + 3] &= 0xFE
            return patched
        }

        /// The bytes of item `id`, from the file (iloc construction method 0) or from `idat`
        /// (method 1), at most `limit` of them; nil when the item has no location. One walk
        /// of `iloc`, which stops at the item; every entry reads at least 4 bytes of the box,
        /// so a hostile count ends with the box.
        func data(of id: Int, limit: Int = 1 << 20) throws -> [UInt8]? {
            guard let iloc = child("iloc") else { throw Malformed(reason: "no iloc") }
            var at = iloc.payload
            let version = try byte(bytes, at)
            guard version <= 2 else { throw Malformed(reason: "iloc version \(version)") }
            func read(_ n: Int) throws -> Int {
                guard n == 0 || (at >= 0 && at + n <= iloc.end) else { throw Malformed(reason: "a short iloc box") }
                defer { at += n }
                return bytes[at..<(at + n)].reduce(0) { $0 << 8 | Int($1) }
            }
            at += 4
            let sizes = try read(2)
            let (offsetSize, lengthSize, baseSize) = (sizes >> 12, sizes >> 8 & 15, sizes >> 4 & 15)
            let indexSize = version == 0 ? 0 : sizes & 15
            guard [offsetSize, lengthSize, baseSize, indexSize].allSatisfy({ [0, 4, 8].contains($0) }) else {
                throw Malformed(reason: "iloc field sizes \(sizes)")
            }
            let count = try read(version < 2 ? 2 : 4)
            for _ in 0..<count {
                let item = try read(version < 2 ? 2 : 4)
                let method = version == 0 ? 0 : try read(2) & 15
                let reference = try read(2)
                let base = try read(baseSize)
                let extents = try read(2)
                let extentBytes = indexSize + offsetSize + lengthSize
                guard extentBytes == 0 || extents <= (iloc.end - at) / extentBytes else { throw Malformed(reason: "iloc extents past the box") }
                guard item == id else {
                    at += extents * extentBytes
                    continue
                }
                guard method <= 1, reference == 0 else { throw Malformed(reason: "item \(id) is in another file or item") }
                let idat = child("idat")
                guard method == 0 || idat != nil else { throw Malformed(reason: "no idat") }
                let (origin, limitEnd) = method == 0 ? (0, bytes.count) : (idat!.payload, idat!.end)
                var found: [UInt8] = []
                for _ in 0..<extents {
                    _ = try read(indexSize)
                    let offset = try read(offsetSize), length = try read(lengthSize)
                    let start = try sum(origin, try sum(base, offset))
                    let end = length == 0 ? limitEnd : try sum(start, length)
                    guard start >= origin, start <= end, end <= limitEnd, found.count + (end - start) <= limit else {
                        throw Malformed(reason: "item \(id)'s bytes are outside the file or too many")
                    }
                    found += bytes[start..<end]
                }
                return found
            }
            return nil
        }
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

    /// A box of `type` around `payload`; a full box when `version` is given.
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
