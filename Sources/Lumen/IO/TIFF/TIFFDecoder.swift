import CTIFF
import Foundation

/// Reads the first page of a TIFF through libtiff, in bands of strips or tile rows: 8/16-bit
/// gray, gray+alpha, RGB and RGBA in contiguous planes, uncompressed or in any compression
/// libtiff has (LZW, Deflate, PackBits, JPEG — JPEG's YCbCr at any subsampling comes out
/// as RGB from libtiff's JPEG codec). A pyramid's reduced levels (SubIFDs, or later pages
/// marked reduced) are offered as shrink-on-load (`ImageHeader.reductions`). Everything
/// else libtiff's RGBA interface understands (palette, bilevel, separate planes, CMYK,
/// uncompressed YCbCr) reads whole as 8-bit RGBA. Old-style JPEG (compression 6) is refused.
final class TIFFDecoder: ImageDecoder {
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String
    private let info: CTIFF_Info
    /// The RGBA route reads the whole page into one buffer.
    var decodesWhole: Bool { Self.directLayout(info) == nil }
    /// Reduced levels by factor: the level to read for a reduction of r.
    private let levels: [Int: CTIFF_Level]

    init(data: Data, path: String) throws {
        self.data = data
        self.path = path
        let (info, metadata, levels) = try data.withUnsafeBytes { bytes -> (CTIFF_Info, ImageMetadata, [Int: CTIFF_Level]) in
            let tiff = try TIFFMemoryFile(reading: bytes, name: path)
            var info = CTIFF_Info()
            guard CTIFF_info(tiff.file, &info) == 0 else {
                throw LumenError.corrupt(file: path, reason: "missing width or height")
            }
            var length = 0
            var metadata = ImageMetadata()
            metadata.iccProfile = CTIFF_icc(tiff.file, &length).map { Data(bytes: $0, count: length) }
            metadata.xmp = CTIFF_xmp(tiff.file, &length).map { Data(bytes: $0, count: length) }
            metadata.iptc = CTIFF_iptc(tiff.file, &length).map { Data(bytes: $0, count: length) }
            metadata.exif = TIFFExif.block(fromTIFF: data)
            var x: Float = 0, y: Float = 0
            if CTIFF_resolution(tiff.file, &x, &y) != 0 { metadata.resolution = (Double(x), Double(y)) }
            return (info, metadata, Self.pyramid(tiff.file, info))
        }
        self.info = info
        self.metadata = metadata
        self.levels = levels
        let icc = metadata.iccProfile
        let compressions = [1: "uncompressed", 5: "LZW", 6: "old-style JPEG", 7: "JPEG", 8: "Deflate", 32773: "PackBits", 32946: "Deflate",
                            34925: "LZMA", 50000: "Zstandard", 50001: "WebP"]
        let photometrics = [0: "min-is-white", 1: "gray", 2: "RGB", 3: "palette", 5: "CMYK", 6: "YCbCr"]
        var details = [photometrics[Int(info.photometric)] ?? "photometric \(info.photometric)",
                       compressions[Int(info.compression)] ?? "compression \(info.compression)"]
        if info.tiled != 0 { details.append("tiled") }
        if info.planarConfig == 2 { details.append("separate planes") }
        if !levels.isEmpty { details.append("pyramid of \(levels.count + 1) levels") }
        let layout = Self.directLayout(info)
        let hasAlpha = layout.map { $0.channels == 2 || $0.channels == 4 } ?? (info.extraSamples > 0)
        var header = ImageHeader(format: .tiff, width: Int(info.width), height: Int(info.height),
                                 channels: Int(info.samplesPerPixel), bitDepth: Int(info.bitsPerSample),
                                 hasAlpha: hasAlpha, orientation: (1...8).contains(Int(info.orientation)) ? Int(info.orientation) : 1,
                                 hasICCProfile: info.hasICC != 0, iccDescription: ColorProfile(icc)?.description, details: details)
        header.reductions = levels.keys.sorted()
        header.reductionMargin = 1
        self.header = header
        if info.sampleFormat == 3 {
            throw LumenError.unsupported(file: path, reason: "floating-point samples")
        }
        if info.compression == 6 {
            throw LumenError.unsupported(file: path, reason: "old-style JPEG compression (TIFF 6.0's compression 6, withdrawn in 1995): rewrite it with tiffcp -c jpeg")
        }
    }

    /// The layout when the file can be read as stored, in bands, or nil for the RGBA route.
    private static func directLayout(_ info: CTIFF_Info) -> DecodedLayout? {
        let gray = info.photometric == 1 && (info.samplesPerPixel == 1 || info.samplesPerPixel == 2)
        let rgb = info.photometric == 2 && (info.samplesPerPixel == 3 || info.samplesPerPixel == 4)
        // JPEG's YCbCr reads as RGB (CTIFF_prepare sets libtiff's JPEG colour mode).
        let jpegYCbCr = info.photometric == 6 && info.compression == 7 && info.samplesPerPixel == 3 && info.bitsPerSample == 8
        guard gray || rgb || jpegYCbCr, info.bitsPerSample == 8 || info.bitsPerSample == 16, info.planarConfig == 1 else { return nil }
        return DecodedLayout(width: Int(info.width), height: Int(info.height), channels: Int(info.samplesPerPixel),
                             depth: Int(info.bitsPerSample), alphaPremultiplied: info.alphaAssociated != 0)
    }

    /// The reduced levels usable as shrink-on-load: each read as stored with page 0's layout,
    /// within a pixel of ⌈size / r⌉ for a power of two r.
    private static func pyramid(_ file: OpaquePointer, _ info: CTIFF_Info) -> [Int: CTIFF_Level] {
        guard let full = directLayout(info) else { return [:] }
        var found = [CTIFF_Level](repeating: CTIFF_Level(), count: 32)
        let count = Int(CTIFF_levels(file, &found, Int32(found.count)))
        var levels: [Int: CTIFF_Level] = [:]
        for var level in found.prefix(count) {
            let r = 1 << Int(log2(Double(info.width) / Double(level.width)).rounded())
            guard r >= 2, r <= 1 << 16, abs((Int(info.width) + r - 1) / r - Int(level.width)) <= 1,
                  abs((Int(info.height) + r - 1) / r - Int(level.height)) <= 1, levels[r] == nil,
                  CTIFF_select(file, &level) == 0 else { continue }
            var levelInfo = CTIFF_Info()
            guard CTIFF_info(file, &levelInfo) == 0, let layout = directLayout(levelInfo),
                  layout.channels == full.channels, layout.depth == full.depth, layout.alphaPremultiplied == full.alphaPremultiplied
            else { continue }
            levels[r] = level
        }
        _ = CTIFF_select(file, nil)
        return levels
    }

    func layout(reduction: Int) -> DecodedLayout {
        guard let full = Self.directLayout(info) else {
            return DecodedLayout(width: Int(info.width), height: Int(info.height), channels: 4, depth: 8,
                                 alphaPremultiplied: true)  // libtiff's RGBA interface premultiplies
        }
        guard levels[reduction] != nil else { return full }
        return DecodedLayout(width: (full.width + reduction - 1) / reduction, height: (full.height + reduction - 1) / reduction,
                             channels: full.channels, depth: full.depth, alphaPremultiplied: full.alphaPremultiplied)
    }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        var stale = [CChar](repeating: 0, count: 8)
        _ = CTIFF_take_warning(&stale, stale.count)  // raised by earlier reads on this thread
        try data.withUnsafeBytes { bytes in
            let tiff = try TIFFMemoryFile(reading: bytes, name: path)
            try withExtendedLifetime(tiff) {
                if var level = levels[reduction] {
                    guard CTIFF_select(tiff.file, &level) == 0 else { throw failure() }
                    try decodeLevel(tiff.file, level: level, target: layout(reduction: reduction), rows: rows, body)
                } else {
                    try decode(tiff.file, rows: rows, body)
                }
            }
        }
        var warning = [CChar](repeating: 0, count: 512)
        if CTIFF_take_warning(&warning, warning.count) != 0 {
            try DecodeWarnings.report(file: path, "libtiff: " + String(nulTerminated: warning))
        }
    }

    private func decode(_ file: OpaquePointer, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let layout = self.layout(reduction: 1)
        let stride = layout.width * layout.channels * layout.depth / 8
        guard Self.directLayout(info) != nil else {
            // Palette, bilevel, CMYK, separate planes…: libtiff's RGBA interface, whole image at once.
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * layout.height, alignment: 16)
            defer { buffer.deallocate() }
            guard CTIFF_read_rgba(file, buffer.assumingMemoryBound(to: UInt32.self)) == 0 else { throw failure() }
            try body(RowBand(firstRow: 0, rowCount: layout.height, bytesPerRow: stride, base: UnsafeRawPointer(buffer)))
            return
        }
        try readBands(file, width: layout.width, height: layout.height, stride: stride, rows: rows, body)
    }

    /// Bands of whole strips or tile rows (at least 64 rows) of the current directory, read once each.
    private func readBands(_ file: OpaquePointer, width: Int, height: Int, stride: Int, rows: Range<Int>,
                           _ body: (RowBand) throws -> Void) throws {
        let unit = Int(CTIFF_row_unit(file))
        let bandRows = max(unit, (64 + unit - 1) / unit * unit)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * min(bandRows, height), alignment: 16)
        defer { buffer.deallocate() }
        var first = rows.lowerBound / unit * unit
        while first < min(rows.upperBound, height) {
            let count = min(bandRows, height - first)
            guard CTIFF_read_rows(file, buffer.assumingMemoryBound(to: UInt8.self), stride, UInt32(first), UInt32(count)) == 0 else {
                throw failure()
            }
            try body(RowBand(firstRow: first, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(buffer)))
            first += count
        }
    }

    /// A reduced level as ⌈size / r⌉ pixels: a level a pixel narrower or shorter repeats
    /// its last column or row, one a pixel larger is cut.
    private func decodeLevel(_ file: OpaquePointer, level: CTIFF_Level, target: DecodedLayout, rows: Range<Int>,
                             _ body: (RowBand) throws -> Void) throws {
        let pixelBytes = target.channels * target.depth / 8
        let levelWidth = Int(level.width), levelHeight = Int(level.height)
        let levelStride = levelWidth * pixelBytes, stride = target.width * pixelBytes
        var widened: UnsafeMutableRawPointer?
        var capacity = 0
        defer { widened?.deallocate() }
        var lastRow = [UInt8](repeating: 0, count: stride)
        let levelRows = rows.lowerBound.clamped(0, levelHeight - 1)..<min(rows.upperBound, levelHeight)
        try readBands(file, width: levelWidth, height: levelHeight, stride: levelStride, rows: levelRows) { band in
            let count = min(band.rowCount, target.height - band.firstRow)
            guard count > 0 else { return }
            if count * stride > capacity {
                widened?.deallocate()
                widened = .allocate(byteCount: count * stride, alignment: 16)
                capacity = count * stride
            }
            for r in 0..<count {
                let source = band.base + r * band.bytesPerRow, destination = widened! + r * stride
                let copied = min(levelStride, stride)
                destination.copyMemory(from: source, byteCount: copied)
                for x in Swift.stride(from: copied, to: stride, by: pixelBytes) {
                    destination.advanced(by: x).copyMemory(from: source + copied - pixelBytes, byteCount: pixelBytes)
                }
            }
            lastRow.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: widened! + (count - 1) * stride, byteCount: stride) }
            try body(RowBand(firstRow: band.firstRow, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(widened!)))
        }
        // Rows the level lacks (it is a pixel short): its last row again.
        if target.height > levelHeight, rows.upperBound > levelHeight {
            try lastRow.withUnsafeBytes { last in
                for row in max(levelHeight, rows.lowerBound)..<min(rows.upperBound, target.height) {
                    try body(RowBand(firstRow: row, rowCount: 1, bytesPerRow: stride, base: last.baseAddress!))
                }
            }
        }
    }

    private func failure() -> LumenError {
        let message = String(cString: CTIFF_last_error())
        return LumenError.corrupt(file: path, reason: message.isEmpty ? "cannot decode pixels" : message)
    }
}

private extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), Swift.max(low, high)) }
}
