import LumenPlatform

/// What an image item's boxes say about the size libheif's decode delivers (ISO/IEC
/// 23008-12: `meta` → `iprp` → `ipco` properties, `ipma` associations): its `ispe` and an
/// essential `irot`. libheif applies the transformations when decoding, but the size its
/// handle reports is, in Debian's libheif 1.15, the `ispe`, before the rotation (Canon's
/// `guitar_cw90.hif`: a handle of 7008×4672 that decodes to 4672×7008); newer versions report
/// it after. `decodedSize(handle:)` tells the two apart: a handle still at the `ispe` of an
/// item turned a quarter is turned. A rotation not marked essential is left as libheif
/// reports it (an old pillow-heif wrote one beside an `ispe` already turned).
struct HEIFItemGeometry: Sendable, Equatable {
    /// The `ispe` size.
    let width: Int, height: Int
    /// Anticlockwise quarter turns of the essential `irot`, if any.
    let quarterTurns: Int

    /// The size libheif's decode delivers, given the size its handle reports.
    func decodedSize(handle: (Int, Int)) -> (Int, Int) {
        quarterTurns % 2 == 1 && handle == (width, height) ? (handle.1, handle.0) : handle
    }

    /// The geometry of `item` (nil: the primary item, `pitm`) in `data`, or nil when the
    /// boxes cannot be read.
    init?(_ data: Data, item wanted: UInt32?) {
        // `meta` comes first in HEIF files; 1 MB is plenty. Read in place: decoders are made
        // several times per file, and a copy of the megabyte each time added up.
        guard let found = data.prefix(1 << 20).withUnsafeBytes({ Self.parse($0, item: wanted) }) else { return nil }
        (width, height, quarterTurns) = found
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer, item wanted: UInt32?) -> (Int, Int, Int)? {
        func u32(_ at: Int) -> Int? { at >= 0 && at + 4 <= bytes.count ? Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) : nil }
        func u16(_ at: Int) -> Int? { at >= 0 && at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil }
        /// The child boxes of bytes[start..<end]: (type, body start, box end).
        func boxes(_ start: Int, _ end: Int) -> [(String, Int, Int)] {
            var found: [(String, Int, Int)] = [], at = start
            while at + 8 <= end, let size = u32(at) {
                var header = 8, length = size
                if size == 1, let high = u32(at + 8), let low = u32(at + 12) { length = high << 32 | low; header = 16 }
                if size == 0 { length = end - at }
                guard length >= header, at + length <= end else { break }
                found.append((String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), at + header, at + length))
                at += length
            }
            return found
        }
        guard let meta = boxes(0, bytes.count).first(where: { $0.0 == "meta" }) else { return nil }
        let inMeta = boxes(meta.1 + 4, meta.2)
        var item = wanted.map(Int.init)
        if item == nil, let pitm = inMeta.first(where: { $0.0 == "pitm" }), pitm.1 < bytes.count {
            item = bytes[pitm.1] == 0 ? u16(pitm.1 + 4) : u32(pitm.1 + 4)
        }
        guard let item, let iprp = inMeta.first(where: { $0.0 == "iprp" }) else { return nil }
        let children = boxes(iprp.1, iprp.2)
        guard let ipco = children.first(where: { $0.0 == "ipco" }) else { return nil }
        let properties = boxes(ipco.1, ipco.2)
        var indices: [(index: Int, essential: Bool)] = []
        for ipma in children where ipma.0 == "ipma" {
            guard ipma.1 + 8 <= ipma.2 else { return nil }
            let version = Int(bytes[ipma.1]), wide = bytes[ipma.1 + 3] & 1 == 1
            guard let count = u32(ipma.1 + 4) else { return nil }
            var at = ipma.1 + 8
            for _ in 0..<min(count, 1 << 16) {
                guard let id = version < 1 ? u16(at) : u32(at) else { return nil }
                at += version < 1 ? 2 : 4
                guard at < ipma.2 else { return nil }
                let associations = Int(bytes[at])
                at += 1
                for _ in 0..<associations {
                    guard let raw = wide ? u16(at) : (at < ipma.2 ? Int(bytes[at]) : nil) else { return nil }
                    let index = wide ? raw & 0x7FFF : raw & 0x7F, essential = raw >> (wide ? 15 : 7) == 1
                    at += wide ? 2 : 1
                    if id == item, index > 0 { indices.append((index, essential)) }
                }
            }
        }
        var size: (Int, Int)?, turns = 0
        for (index, essential) in indices where index <= properties.count {
            let (type, body, end) = properties[index - 1]
            if type == "ispe", body + 12 <= end, let w = u32(body + 4), let h = u32(body + 8) { size = (w, h) }
            if type == "irot", essential, body < end { turns = Int(bytes[body] & 3) }
        }
        guard let size, size.0 > 0, size.1 > 0 else { return nil }
        return (size.0, size.1, turns)
    }
}
