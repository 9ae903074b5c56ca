import CTIFF
import Foundation

/// Reads the first page of a TIFF through libtiff. 8/16-bit gray, gray+alpha, RGB and
/// RGBA in contiguous planes are read as stored (strips or tiles, any compression
/// libtiff has: none, LZW, Deflate, PackBits, JPEG); everything else libtiff's RGBA
/// interface understands (palette, bilevel, separate planes, YCbCr, CMYK) reads as 8-bit RGBA.
final class TIFFDecoder: ImageDecoder {
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String
    private let info: CTIFF_Info

    init(data: Data, path: String) throws {
        self.data = data
        self.path = path
        let (info, metadata) = try data.withUnsafeBytes { bytes -> (CTIFF_Info, ImageMetadata) in
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
            return (info, metadata)
        }
        self.info = info
        self.metadata = metadata
        let icc = metadata.iccProfile
        let compressions = [1: "uncompressed", 5: "LZW", 7: "JPEG", 8: "Deflate", 32773: "PackBits", 32946: "Deflate"]
        let photometrics = [0: "min-is-white", 1: "gray", 2: "RGB", 3: "palette", 5: "CMYK", 6: "YCbCr"]
        var details = [photometrics[Int(info.photometric)] ?? "photometric \(info.photometric)",
                       compressions[Int(info.compression)] ?? "compression \(info.compression)"]
        if info.tiled != 0 { details.append("tiled") }
        let layout = Self.directLayout(info)
        let hasAlpha = layout.map { $0.channels == 2 || $0.channels == 4 } ?? (info.extraSamples > 0)
        header = ImageHeader(format: .tiff, width: Int(info.width), height: Int(info.height),
                             channels: Int(info.samplesPerPixel), bitDepth: Int(info.bitsPerSample),
                             hasAlpha: hasAlpha, orientation: (1...8).contains(Int(info.orientation)) ? Int(info.orientation) : 1,
                             hasICCProfile: info.hasICC != 0, iccDescription: ColorProfile(icc)?.description, details: details)
        if info.sampleFormat == 3 {
            throw LumenError.unsupported(file: path, reason: "floating-point samples")
        }
    }

    /// The layout when the file can be copied as stored, or nil for the RGBA route.
    private static func directLayout(_ info: CTIFF_Info) -> DecodedLayout? {
        let gray = info.photometric == 1 && (info.samplesPerPixel == 1 || info.samplesPerPixel == 2)
        let rgb = info.photometric == 2 && (info.samplesPerPixel == 3 || info.samplesPerPixel == 4)
        guard gray || rgb, info.bitsPerSample == 8 || info.bitsPerSample == 16,
              info.planarConfig == 1, info.compression != 7 else { return nil }
        return DecodedLayout(width: Int(info.width), height: Int(info.height), channels: Int(info.samplesPerPixel),
                             depth: Int(info.bitsPerSample), alphaPremultiplied: info.alphaAssociated != 0)
    }

    func layout(reduction: Int) -> DecodedLayout {
        Self.directLayout(info) ?? DecodedLayout(width: Int(info.width), height: Int(info.height), channels: 4, depth: 8,
                                                 alphaPremultiplied: true)  // libtiff's RGBA interface premultiplies
    }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        var stale = [CChar](repeating: 0, count: 8)
        _ = CTIFF_take_warning(&stale, stale.count)  // raised by earlier reads on this thread
        try data.withUnsafeBytes { bytes in
            let tiff = try TIFFMemoryFile(reading: bytes, name: path)
            try withExtendedLifetime(tiff) { try decode(tiff.file, rows: rows, body) }
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
            // Palette, bilevel, CMYK, YCbCr…: libtiff's RGBA interface, whole image at once.
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * layout.height, alignment: 16)
            defer { buffer.deallocate() }
            guard CTIFF_read_rgba(file, buffer.assumingMemoryBound(to: UInt32.self)) == 0 else { throw failure() }
            try body(RowBand(firstRow: 0, rowCount: layout.height, bytesPerRow: stride, base: UnsafeRawPointer(buffer)))
            return
        }
        // Bands of whole strips or tile rows (at least 64 rows), read once each.
        let unit = Int(CTIFF_row_unit(file))
        let bandRows = max(unit, (64 + unit - 1) / unit * unit)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * min(bandRows, layout.height), alignment: 16)
        defer { buffer.deallocate() }
        var first = rows.lowerBound / unit * unit
        while first < rows.upperBound {
            let count = min(bandRows, layout.height - first)
            guard CTIFF_read_rows(file, buffer.assumingMemoryBound(to: UInt8.self), stride, UInt32(first), UInt32(count)) == 0 else {
                throw failure()
            }
            try body(RowBand(firstRow: first, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(buffer)))
            first += count
        }
    }

    private func failure() -> LumenError {
        let message = String(cString: CTIFF_last_error())
        return LumenError.corrupt(file: path, reason: message.isEmpty ? "cannot decode pixels" : message)
    }
}
