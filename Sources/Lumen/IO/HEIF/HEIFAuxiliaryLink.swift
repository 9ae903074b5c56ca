import LumenPlatform

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
    typealias Malformed = HEIFBoxes.Malformed

    /// `file` with its one picture besides the primary (and the primary's tiles) linked to
    /// the primary as an auxiliary image of `type`.
    static func link(_ file: Data, auxiliaryType type: String) throws -> Data {
        let bytes = [UInt8](file)
        let table = try HEIFBoxes.ItemTable(bytes)
        let (meta, children, primary) = (table.meta, table.children, table.primary)
        guard let iprp = table.child("iprp"), table.child("iloc") != nil else { throw Malformed(reason: "no iprp or iloc") }
        // The one picture that is not the primary nor a part or companion of another: not a
        // tile (dimg target), nor the source of an auxl (an alpha plane libheif wrote) or thmb.
        let images = table.types.filter { ["hvc1", "grid", "iden", "iovl", "av01"].contains($0.value) }.keys
        var notPictures: Set<Int> = []
        for reference in table.references {
            if ["auxl", "thmb"].contains(reference.type) { notPictures.insert(reference.from) }
            if reference.type == "dimg" { notPictures.formUnion(reference.to) }
        }
        let candidates = images.filter { $0 != primary && !notPictures.contains($0) }
        guard candidates.count == 1, let map = candidates.first else {
            throw Malformed(reason: "\(candidates.count) pictures besides the primary, not 1")
        }
        let iref = table.child("iref"), wideReferences = table.wideReferences

        // iprp: auxC appended to ipco, and associated with the map in ipma.
        let properties = try HEIFBoxes.boxes(bytes, iprp.payload..<iprp.end)
        guard let ipco = properties.first(where: { $0.type == "ipco" }), let ipma = properties.first(where: { $0.type == "ipma" }) else {
            throw Malformed(reason: "no ipco or ipma")
        }
        let index = try HEIFBoxes.boxes(bytes, ipco.payload..<ipco.end).count + 1
        let auxC = HEIFBoxes.box("auxC", fullBox: 0, Array(type.utf8) + [0])
        let newIPCO = Array(bytes[ipco.payload..<ipco.end])
        let (ipmaVersion, ipmaFlags) = (try HEIFBoxes.byte(bytes, ipma.payload), try HEIFBoxes.u32(bytes, ipma.payload) & 0xFFFFFF)
        guard index <= (ipmaFlags & 1 == 1 ? 32767 : 127) else { throw Malformed(reason: "property index \(index) does not fit ipma") }
        guard ipma.payload + 8 <= ipma.end else { throw Malformed(reason: "a short ipma box") }
        var newIPMA = Array(bytes[ipma.payload..<(ipma.payload + 8)])
        var at = ipma.payload + 8, found = false
        for _ in 0..<(try HEIFBoxes.u32(bytes, ipma.payload + 4)) {
            let idSize = ipmaVersion == 0 ? 2 : 4
            let id = idSize == 2 ? try HEIFBoxes.u16(bytes, at) : try HEIFBoxes.u32(bytes, at)
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
            case "ipco": newIPRP += HEIFBoxes.box("ipco", newIPCO + auxC)
            case "ipma": newIPRP += HEIFBoxes.box("ipma", newIPMA)
            default: newIPRP += bytes[property.start..<property.end]
            }
        }
        // iref: auxl from the map to the primary, in the box's id width.
        // A new iref takes 32-bit ids when an id needs them.
        let wide = iref == nil ? max(map, primary) > 0xFFFF : wideReferences
        guard wide || max(map, primary) <= 0xFFFF else { throw Malformed(reason: "an item id does not fit iref") }
        func id(_ value: Int) -> [UInt8] { wide ? HEIFBoxes.be32(value) : HEIFBoxes.be16(value) }
        let auxl = HEIFBoxes.box("auxl", id(map) + HEIFBoxes.be16(1) + id(primary))
        let newIREF = iref.map { HEIFBoxes.box("iref", Array(bytes[$0.payload..<$0.end]) + auxl) } ?? HEIFBoxes.box("iref", fullBox: wide ? 1 : 0, auxl)

        var newChildren: [[UInt8]] = []
        for child in children {
            switch child.type {
            case "iprp": newChildren.append(HEIFBoxes.box("iprp", newIPRP))
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
        let newMeta = HEIFBoxes.box("meta", fullBox: 0, newChildren.flatMap { $0 })
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
            if inFile && baseSize > 0 && base >= boundary { try write(try HEIFBoxes.sum(base, delta), baseSize, at: baseAt) }
            for _ in 0..<extents {
                _ = try read(indexSize)
                let offsetAt = at
                let offset = try read(offsetSize)
                _ = try read(lengthSize)
                if inFile && offsetSize > 0 && !(baseSize > 0 && base >= boundary), try HEIFBoxes.sum(base, offset) >= boundary {
                    try write(try HEIFBoxes.sum(offset, delta), offsetSize, at: offsetAt)
                }
            }
        }
        return box
    }
}
