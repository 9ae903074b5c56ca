import LumenPlatform

/// What a file carries beside its pixels, kept from input to output by default (as
/// libvips and ImageMagick do): the ICC profile, EXIF, XMP, IPTC and the resolution.
public struct ImageMetadata: Sendable, Hashable {
    /// The embedded ICC profile.
    public var iccProfile: Data?
    /// EXIF as a TIFF-structured block (starting `II*\0` or `MM\0*`, without JPEG's `Exif\0\0`).
    public var exif: Data?
    /// The XMP packet (XML).
    public var xmp: Data?
    /// IPTC-IIM records (as in JPEG's Photoshop APP13 block or TIFF tag 33723).
    public var iptc: Data?
    /// Pixels per inch, horizontally and vertically, when the file says.
    public var resolution: (x: Double, y: Double)? {
        get { resolutionX.map { ($0, resolutionY ?? $0) } }
        set { resolutionX = newValue?.x; resolutionY = newValue?.y }
    }
    private var resolutionX: Double?
    private var resolutionY: Double?

    /// Metadata from its blocks (no resolution; set `resolution` for one).
    public init(iccProfile: Data? = nil, exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil) {
        self.iccProfile = iccProfile
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { iccProfile == nil && exif == nil && xmp == nil && iptc == nil && resolutionX == nil }

    /// What is present, for `lumen info --json`: sizes in bytes, the resolution, and the
    /// EXIF orientation.
    public var summary: [String: Any] {
        var summary: [String: Any] = [:]
        if let iccProfile { summary["icc"] = iccProfile.count }
        if let exif {
            summary["exif"] = exif.count
            summary["exifOrientation"] = exif.withUnsafeBytes { exifOrientation(in: $0.bindMemory(to: UInt8.self)) }
        }
        if let xmp { summary["xmp"] = xmp.count }
        if let iptc { summary["iptc"] = iptc.count }
        if let resolution { summary["resolution"] = [resolution.x, resolution.y] }
        return summary
    }

    /// The names of the blocks present ("icc", "exif", "xmp", "iptc", "resolution").
    public var blockNames: [String] {
        [("icc", iccProfile != nil), ("exif", exif != nil), ("xmp", xmp != nil), ("iptc", iptc != nil),
         ("resolution", resolutionX != nil)].filter(\.1).map(\.0)
    }
}

extension Data {
    /// Calls `body` with the bytes of `data`, or an empty buffer (nil base) when there is none.
    static func withOptionalBytes<T>(_ data: Data?, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        guard let data else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try data.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
    }

    /// EXIF as stored in JPEG APP1, WebP and HEIF may start with `Exif\0\0`; the block
    /// Lumen keeps starts at the TIFF header.
    var exifWithoutPrefix: Data {
        let prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        return starts(with: prefix) ? Data(dropFirst(6)) : self
    }
}

/// IPTC-IIM records and the Photoshop image resources JPEG carries them in (APP13:
/// "8BIM" blocks; resource 0x0404 holds the IPTC records).
enum IPTC {
    /// The IPTC records inside Photoshop image resources, if any.
    static func records(inPhotoshopResources data: Data) -> Data? {
        let bytes = [UInt8](data)
        var at = 0
        func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        while at + 12 <= bytes.count, bytes[at..<(at + 4)].elementsEqual("8BIM".utf8) {
            let id = u16(at + 4)
            let nameLength = Int(bytes[at + 6])
            var cursor = at + 6 + ((nameLength + 2) & ~1)  // Pascal name padded to an even length
            guard cursor + 4 <= bytes.count else { return nil }
            let size = Int(bytes[cursor]) << 24 | Int(bytes[cursor + 1]) << 16 | u16(cursor + 2)
            cursor += 4
            guard size >= 0, cursor + size <= bytes.count else { return nil }
            if id == 0x0404 { return size > 0 ? Data(bytes[cursor..<(cursor + size)]) : nil }
            at = cursor + ((size + 1) & ~1)
        }
        return nil
    }

    /// Photoshop image resources holding one IPTC block.
    static func photoshopResources(records: Data) -> Data {
        var block = Data("8BIM".utf8) + Data([0x04, 0x04, 0, 0])
        let size = records.count
        block += Data([UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        block += records
        if size % 2 == 1 { block.append(0) }
        return block
    }
}

/// Edits values of existing EXIF tags in place (the block keeps its size and layout):
/// what a writer must change when the pixels it writes differ from the file's.
struct ExifEditor {
    private(set) var data: Data
    private let little: Bool

    init?(_ exif: Data) {
        let bytes = [UInt8](exif.prefix(2))
        guard exif.count >= 8, bytes == [0x49, 0x49] || bytes == [0x4D, 0x4D] else { return nil }
        data = exif
        little = bytes[0] == 0x49
    }

    private func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= data.count else { return nil }
        let a = Int(data[data.startIndex + at]), b = Int(data[data.startIndex + at + 1])
        return little ? a | b << 8 : a << 8 | b
    }

    private func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    private mutating func put(_ value: Int, at: Int, bytes: Int) {
        for i in 0..<bytes {
            let shift = little ? 8 * i : 8 * (bytes - 1 - i)
            data[data.startIndex + at + i] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }

    /// The offset of the entry for `tag` in the IFD at `ifd`, if present.
    private func entry(_ tag: Int, inIFD ifd: Int) -> Int? {
        guard let count = u16(ifd), count < 1000 else { return nil }
        for i in 0..<count {
            let at = ifd + 2 + 12 * i
            guard let t = u16(at) else { return nil }
            if t == tag { return at }
        }
        return nil
    }

    /// Empties the GPS sub-IFD: every value it holds (inline or pointed to) is zeroed and
    /// its entry count set to 0, so no coordinate stays in the block.
    mutating func removeGPS() {
        guard let ifd0 = u32(4), let pointer = entry(0x8825, inIFD: ifd0), let gps = u32(pointer + 8),
              let count = u16(gps), count < 1000, gps + 2 + 12 * count + 4 <= data.count else { return }
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        for i in 0..<count {
            let at = gps + 2 + 12 * i
            guard let type = u16(at + 2), let n = u32(at + 4) else { continue }
            let bytes = (sizes[type] ?? 1).multipliedReportingOverflow(by: n)
            if !bytes.overflow, bytes.partialValue > 4, let offset = u32(at + 8), offset >= 0,
               offset + bytes.partialValue <= data.count {
                for k in 0..<bytes.partialValue { data[data.startIndex + offset + k] = 0 }
            }
            for k in 0..<12 { data[data.startIndex + at + k] = 0 }
        }
        put(0, at: gps, bytes: 2)
    }

    /// Sets an existing SHORT or LONG tag of IFD0 (or, with `exifIFD`, of the Exif
    /// sub-IFD) to `value` (clamped to what the stored type holds); tags that are absent stay absent.
    mutating func set(_ tag: Int, to value: Int, exifIFD: Bool = false) {
        guard var ifd = u32(4) else { return }
        if exifIFD {
            guard let pointer = entry(0x8769, inIFD: ifd), let sub = u32(pointer + 8) else { return }
            ifd = sub
        }
        guard let at = entry(tag, inIFD: ifd), let type = u16(at + 2), let count = u32(at + 4), count == 1 else { return }
        switch type {
        case 3: put(max(0, min(65535, value)), at: at + 8, bytes: 2)
        case 4: put(max(0, min(Int(UInt32.max), value)), at: at + 8, bytes: 4)
        default: return
        }
    }
}

extension ImageMetadata {
    /// What a writer keeps of the source's metadata under `policy`, for an output of
    /// `width`×`height` whose pixels were turned upright when `oriented`: the EXIF
    /// orientation becomes 1 and the EXIF pixel dimensions follow the output.
    func forOutput(policy: OutputFormat.MetadataPolicy, width: Int, height: Int, oriented: Bool) -> ImageMetadata {
        var kept = self
        switch policy {
        case .strip: return ImageMetadata()
        case .iccOnly: return ImageMetadata(iccProfile: iccProfile)
        case .all: break
        case let .kinds(kinds, gps):
            if !kinds.contains(.exif) { kept.exif = nil }
            if !kinds.contains(.xmp) { kept.xmp = nil }
            if !kinds.contains(.iptc) { kept.iptc = nil }
            if !kinds.contains(.icc) { kept.iccProfile = nil }
            if !kinds.contains(.resolution) { kept.resolution = nil }
            if !gps {
                if let exif = kept.exif, var editor = ExifEditor(exif) {
                    editor.removeGPS()
                    kept.exif = editor.data
                }
                kept.xmp = kept.xmp.map(Self.removingGPS(fromXMP:))
            }
        }
        if let exif = kept.exif, var editor = ExifEditor(exif) {
            if oriented { editor.set(0x0112, to: 1) }
            editor.set(0xA002, to: width, exifIFD: true)
            editor.set(0xA003, to: height, exifIFD: true)
            kept.exif = editor.data
        }
        return kept
    }

    /// The XMP packet without its location: every `exif:GPS…` property, written as an
    /// attribute or as an element.
    static func removingGPS(fromXMP xmp: Data) -> Data { Data(XMPBytes.removingGPS(Array(xmp))) }
}
