import LumenPlatform

/// A look at a TIFF's first IFDs, enough to tell a camera's RAW file from a TIFF image.
enum TIFFStructure {
    static let photometric = 0x0106, subIFDs = 0x014A, dngVersion = 0xC612
    /// Photometric interpretations of sensor data: a colour filter array, or DNG's linear raw.
    static let sensorPhotometrics: Set<Int> = [32803, 34892]

    /// Whether `data` is a classic TIFF holding a DNG version tag, or a colour-filter-array
    /// or linear-raw image in IFD0, one of its SubIFDs or the next IFDs (at most 8 IFDs read).
    static func looksLikeRAW(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(8))
        guard bytes.count == 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else { return false }
        let reader = TIFFExif.Reader(data: data, little: bytes[0] == 0x49)
        guard reader.u16(2) == 42, let first = reader.u32(4) else { return false }
        var queue = [first], seen = Set<Int>()
        while let offset = queue.first, seen.count < 8 {
            queue.removeFirst()
            guard offset > 0, seen.insert(offset).inserted, let entries = reader.entries(at: offset) else { continue }
            if entries.contains(where: { $0.tag == dngVersion }) { return true }
            if let entry = entries.first(where: { $0.tag == photometric }), let value = value(entry, reader.little),
               sensorPhotometrics.contains(value) { return true }
            if let entry = entries.first(where: { $0.tag == subIFDs }), entry.type == 4 || entry.type == 13 {
                queue += stride(from: 0, to: entry.value.count - 3, by: 4).map { word(Array(entry.value[$0..<($0 + 4)]), reader.little) }
            }
            if let count = reader.u16(offset), let next = reader.u32(offset + 2 + 12 * count) { queue.append(next) }
        }
        return false
    }

    /// The first value of a SHORT or LONG entry.
    static func value(_ entry: TIFFExif.Entry, _ little: Bool) -> Int? {
        switch entry.type {
        case 3 where entry.value.count >= 2:
            return little ? Int(entry.value[0]) | Int(entry.value[1]) << 8 : Int(entry.value[0]) << 8 | Int(entry.value[1])
        case 4 where entry.value.count >= 4: return word(Array(entry.value.prefix(4)), little)
        default: return nil
        }
    }

    static func word(_ b: [UInt8], _ little: Bool) -> Int {
        let v = b.map(Int.init)
        return little ? v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24 : v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]
    }
}
