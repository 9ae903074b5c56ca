import LumenPlatform

/// The EXIF of a TIFF file as a stand-alone EXIF block, so that a TIFF's camera data
/// reaches JPEG, PNG, WebP and HEIF outputs as a JPEG's does.
///
/// In a TIFF the EXIF is not one block: the camera tags sit in the file's first IFD
/// (Make, Model, Orientation, DateTime…) beside the image's own structure, and point to an
/// Exif sub-IFD (tag 0x8769) and a GPS sub-IFD (0x8825) elsewhere in the file. This copies
/// the descriptive tags of IFD0 and both sub-IFDs, entry by entry, into a new TIFF-structured
/// block in the file's byte order, re-basing every offset; the image's strips, tiles,
/// compression and colour tags stay behind. Values are copied as bytes (their byte order is
/// the file's, which the block keeps). Malformed structures (offsets past the end, loops,
/// absurd counts) give nil, never a trap.
enum TIFFExif {
    /// IFD0 tags that describe the photo rather than the file's layout.
    static let descriptiveTags: Set<Int> = [
        0x010E, 0x010F, 0x0110, 0x0112,  // ImageDescription, Make, Model, Orientation
        0x011A, 0x011B, 0x0128,          // XResolution, YResolution, ResolutionUnit
        0x0131, 0x0132, 0x013B,          // Software, DateTime, Artist
        0x8298,                          // Copyright
    ]
    static let exifPointer = 0x8769, gpsPointer = 0x8825, interoperabilityPointer = 0xA005

    /// Bytes per value of each TIFF field type (1…13), 0 for unknown types.
    static func size(ofType type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    /// One IFD entry with its value bytes (inline or out of line, as stored).
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        var value: [UInt8]
    }

    /// The EXIF block of a TIFF file, or nil when it has no camera data (or is malformed).
    static func block(fromTIFF file: Data) -> Data? {
        let bytes = [UInt8](file.prefix(8))
        guard bytes.count == 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else { return nil }
        let reader = Reader(data: file, little: bytes[0] == 0x49)
        guard reader.u16(2) == 42, let first = reader.u32(4) else { return nil }  // classic TIFF (BigTIFF has no EXIF here)
        guard let ifd0 = reader.entries(at: first) else { return nil }
        let main = ifd0.filter { descriptiveTags.contains($0.tag) }
        var exif: [Entry] = [], gps: [Entry] = []
        if let pointer = ifd0.first(where: { $0.tag == exifPointer }), let offset = reader.pointer(pointer),
           let entries = reader.entries(at: offset) {
            // The interoperability sub-IFD is dropped: its one useful tag restates the colour space.
            exif = entries.filter { $0.tag != interoperabilityPointer }
        }
        if let pointer = ifd0.first(where: { $0.tag == gpsPointer }), let offset = reader.pointer(pointer),
           let entries = reader.entries(at: offset) {
            gps = entries
        }
        guard !exif.isEmpty || !gps.isEmpty || main.contains(where: { [0x010F, 0x0110, 0x0132].contains($0.tag) }) else { return nil }
        return assemble(little: reader.little, ifd0: main, exif: exif, gps: gps)
    }

    /// A TIFF-structured block of IFD0's `ifd0` entries (without sub-IFD pointers) and, each
    /// pointed to from IFD0 when not empty, the Exif and GPS sub-IFDs.
    static func assemble(little: Bool, ifd0: [Entry], exif: [Entry], gps: [Entry]) -> Data {
        var main = ifd0
        if !exif.isEmpty { main.append(Entry(tag: exifPointer, type: 4, count: 1, value: [0, 0, 0, 0])) }
        if !gps.isEmpty { main.append(Entry(tag: gpsPointer, type: 4, count: 1, value: [0, 0, 0, 0])) }
        main.sort { $0.tag < $1.tag }
        var writer = Writer(little: little)
        writer.header()
        let slots = writer.ifd(main, pointerTags: [exifPointer, gpsPointer])
        for (tag, entries) in [(exifPointer, exif), (gpsPointer, gps)] where !entries.isEmpty {
            guard let slot = slots[tag] else { continue }
            writer.patch(slot, to: writer.count)
            _ = writer.ifd(entries.sorted { $0.tag < $1.tag }, pointerTags: [])
        }
        return Data(writer.bytes)
    }

    /// An EXIF block (TIFF-structured, as `ImageMetadata.exif` holds it) with its MakerNote
    /// replaced by `note` (added when it had none; a new block of the note alone when
    /// `exif` is nil or unreadable). The block is rebuilt: IFD0's tags, the Exif and GPS
    /// sub-IFDs are kept, the interoperability sub-IFD and the embedded thumbnail (IFD1) are
    /// left out, and values are re-based (the old maker note, whose offsets may count from
    /// the block's start, is the one value that could not move and it is the one replaced).
    static func replacingMakerNote(in exif: Data?, with note: [UInt8]) -> Data {
        let makerNote = 0x927C
        var little = false, ifd0: [Entry] = [], exifEntries: [Entry] = [], gps: [Entry] = []
        if let exif, exif.count >= 8, exif[exif.startIndex] == exif[exif.startIndex + 1],
           exif[exif.startIndex] == 0x49 || exif[exif.startIndex] == 0x4D {
            let reader = Reader(data: exif, little: exif[exif.startIndex] == 0x49)
            // Tolerant: an entry pointing outside the block (often the old maker note) is left
            // out, not the whole IFD with it.
            if reader.u16(2) == 42, let first = reader.u32(4), let entries = reader.entries(at: first, tolerant: true) {
                little = reader.little
                ifd0 = entries.filter { $0.tag != exifPointer && $0.tag != gpsPointer }
                if let pointer = entries.first(where: { $0.tag == exifPointer }), let offset = reader.pointer(pointer),
                   let sub = reader.entries(at: offset, tolerant: true) {
                    exifEntries = sub.filter { $0.tag != interoperabilityPointer && $0.tag != makerNote }
                }
                if let pointer = entries.first(where: { $0.tag == gpsPointer }), let offset = reader.pointer(pointer),
                   let sub = reader.entries(at: offset, tolerant: true) {
                    gps = sub
                }
            }
        }
        exifEntries.append(Entry(tag: makerNote, type: 7, count: note.count, value: note))
        return assemble(little: little, ifd0: ifd0, exif: exifEntries, gps: gps)
    }

    /// Reads IFDs of a classic TIFF held in memory, bounds-checked.
    struct Reader {
        let data: Data
        let little: Bool

        func u16(_ at: Int) -> Int? {
            guard at >= 0, at <= data.count - 2 else { return nil }
            let a = Int(data[data.startIndex + at]), b = Int(data[data.startIndex + at + 1])
            return little ? a | b << 8 : a << 8 | b
        }

        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }

        /// The offset a LONG or IFD entry holds.
        func pointer(_ entry: Entry) -> Int? {
            guard entry.count == 1, entry.value.count == 4, entry.type == 4 || entry.type == 13 else { return nil }
            let v = entry.value.map(Int.init)
            return little ? v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24 : v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]
        }

        /// The entries of the IFD at `offset` with their values, or nil when it does not fit
        /// the file; `tolerant`, an entry whose value does not fit is left out instead.
        func entries(at offset: Int, tolerant: Bool = false) -> [Entry]? {
            guard let count = u16(offset), count <= 4096 else { return nil }
            var entries: [Entry] = []
            for i in 0..<count {
                let at = offset + 2 + 12 * i
                guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { return nil }
                let unit = TIFFExif.size(ofType: type)
                guard unit > 0 else { continue }  // an unknown type: its size is unknown, leave it out
                let (length, overflow) = n.multipliedReportingOverflow(by: unit)
                guard !overflow, length <= 16 << 20 else { if tolerant { continue } else { return nil } }
                let start: Int
                if length <= 4 {
                    start = at + 8
                } else {
                    guard let pointed = u32(at + 8) else { return nil }
                    start = pointed
                }
                guard start >= 0, start <= data.count - length else { if tolerant { continue } else { return nil } }
                let value = [UInt8](data[(data.startIndex + start)..<(data.startIndex + start + length)])
                entries.append(Entry(tag: tag, type: type, count: n, value: value))
            }
            return entries
        }
    }

    /// Writes a TIFF-structured block: header, then IFDs each followed by their values.
    struct Writer {
        let little: Bool
        private(set) var bytes: [UInt8] = []
        var count: Int { bytes.count }

        init(little: Bool) { self.little = little }

        mutating func put(_ value: Int, bytes n: Int) {
            for i in 0..<n {
                let shift = little ? 8 * i : 8 * (n - 1 - i)
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }

        mutating func patch(_ at: Int, to value: Int) {
            for i in 0..<4 {
                let shift = little ? 8 * i : 8 * (3 - i)
                bytes[at + i] = UInt8(truncatingIfNeeded: value >> shift)
            }
        }

        mutating func header() {
            bytes += little ? [0x49, 0x49] : [0x4D, 0x4D]
            put(42, bytes: 2)
            put(8, bytes: 4)
        }

        /// Writes an IFD (entries in tag order) and its out-of-line values; returns where
        /// the value of each of `pointerTags` sits, to be patched with its sub-IFD's offset.
        mutating func ifd(_ entries: [Entry], pointerTags: Set<Int>) -> [Int: Int] {
            if count % 2 == 1 { bytes.append(0) }
            let start = count
            var valuesAt = start + 2 + 12 * entries.count + 4
            var slots: [Int: Int] = [:]
            put(entries.count, bytes: 2)
            var outOfLine: [[UInt8]] = []
            for entry in entries {
                put(entry.tag, bytes: 2)
                put(entry.type, bytes: 2)
                put(entry.count, bytes: 4)
                if pointerTags.contains(entry.tag) { slots[entry.tag] = count }
                if entry.value.count <= 4 {
                    bytes += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    put(valuesAt, bytes: 4)
                    outOfLine.append(entry.value)
                    valuesAt += entry.value.count + entry.value.count % 2
                }
            }
            put(0, bytes: 4)  // no next IFD
            for value in outOfLine {
                bytes += value
                if value.count % 2 == 1 { bytes.append(0) }
            }
            return slots
        }
    }
}
