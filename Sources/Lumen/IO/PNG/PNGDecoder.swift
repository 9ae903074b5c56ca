import CPNG
import LumenPlatform

/// Reads PNG through libpng: every color type and bit depth, tRNS, Adam7 interlacing.
/// Palette and low-bit gray expand to 8 bits; 16-bit stays 16-bit. A 16-bit file whose
/// cICP chunk says PQ or HLG (BT.709 primaries) is delivered as linear-light floats, values
/// above SDR white kept (`OutputFormat.Transfer`).
final class PNGDecoder: ImageDecoder {
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String
    private let outputLayout: DecodedLayout
    private let interlaced: Bool
    /// PQ or HLG from the cICP chunk: 16-bit codes become linear floats.
    private let transfer: OutputFormat.Transfer?
    /// Adam7 rows are read whole (libpng needs every pass before any row is complete).
    var decodesWhole: Bool { interlaced }

    init(data: Data, path: String) throws {
        self.data = data
        self.path = path
        var raw = CPNG_Header()
        var orientation = 1
        var channels: Int32 = 0, depth: Int32 = 0
        var icc: Data?
        var metadata = ImageMetadata()
        var cicp: (primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: UInt8)?
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let decoder = CPNG_decoder_create(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            defer { CPNG_decoder_destroy(decoder) }
            guard let decoder else { throw LumenError.unreadable(file: path, reason: "out of memory") }
            guard CPNG_read_header(decoder, &raw) == 0, CPNG_start(decoder, &channels, &depth) == 0 else {
                throw LumenError.corrupt(file: path, reason: String(cString: CPNG_decoder_message(decoder)))
            }
            var length = 0
            if let bytes = CPNG_icc(decoder, &length) {
                icc = Data(bytes: bytes, count: length)
            } else if raw.hasICC == 0, let bytes = CPNG_raw_icc(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &length) {
                icc = Data(bytes: bytes, count: length)  // a profile libpng's checks refused: Little CMS decides
                free(bytes)
            }
            // eXIf may follow the pixels (libpng's own pngtest.png has it after IDAT, as PNG
            // allows): libpng hands over only what precedes them, so look there too.
            let base = bytes.bindMemory(to: UInt8.self).baseAddress
            if let exif = CPNG_exif(decoder, &length) ?? CPNG_raw_chunk(base, bytes.count, "eXIf", &length) {
                orientation = exifOrientation(in: UnsafeBufferPointer(start: exif, count: length))
                metadata.exif = Data(bytes: exif, count: length).exifWithoutPrefix
            }
            if let xmp = CPNG_xmp(decoder, &length) { metadata.xmp = Data(bytes: xmp, count: length) }
            if let chunk = CPNG_raw_chunk(base, bytes.count, "cICP", &length), length == 4 {
                cicp = (chunk[0], chunk[1], chunk[2], chunk[3])
            }
            var x: UInt32 = 0, y: UInt32 = 0
            if CPNG_resolution(decoder, &x, &y) != 0, x > 0, y > 0 {
                metadata.resolution = (Double(x) * 0.0254, Double(y) * 0.0254)
            }
        }
        let typeNames = [0: "gray", 2: "RGB", 3: "palette", 4: "gray+alpha", 6: "RGBA"]
        var details = [typeNames[Int(raw.colorType)] ?? "type \(raw.colorType)"]
        if raw.hasTransparency != 0 { details.append("tRNS") }
        if raw.interlaced != 0 { details.append("Adam7") }
        interlaced = raw.interlaced != 0
        // HDR signal Lumen reads: BT.709 primaries, RGB, full range, 16 bits.
        if let cicp, let hdr = OutputFormat.Transfer(cicp: cicp.transfer), cicp.primaries == 1, cicp.matrix == 0,
           cicp.fullRange == 1, depth == 16 {
            transfer = hdr
            details.append("\(hdr == .pq ? "PQ" : "HLG") (cICP)")
        } else {
            transfer = nil
            if let cicp { details.append("cICP \(cicp.primaries)/\(cicp.transfer)/\(cicp.matrix)/\(cicp.fullRange) (read as sRGB)") }
        }
        outputLayout = DecodedLayout(width: Int(raw.width), height: Int(raw.height),
                                     channels: Int(channels), depth: transfer == nil ? Int(depth) : 32)
        header = ImageHeader(format: .png, width: Int(raw.width), height: Int(raw.height),
                             channels: Int(channels), bitDepth: Int(raw.bitDepth),
                             hasAlpha: channels == 2 || channels == 4, orientation: orientation,
                             hasICCProfile: icc != nil, iccDescription: ColorProfile(icc)?.description, details: details)
        metadata.iccProfile = icc
        self.metadata = metadata
    }

    func layout(reduction: Int) -> DecodedLayout { outputLayout }

    func forEachBand(reduction: Int, rows wanted: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let path = self.path
        let layout = outputLayout
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let decoder = CPNG_decoder_create(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            defer { CPNG_decoder_destroy(decoder) }
            guard let decoder else { throw LumenError.unreadable(file: path, reason: "out of memory") }
            func fail() -> LumenError { .corrupt(file: path, reason: String(cString: CPNG_decoder_message(decoder))) }
            var raw = CPNG_Header()
            var channels: Int32 = 0, depth: Int32 = 0
            guard CPNG_read_header(decoder, &raw) == 0, CPNG_start(decoder, &channels, &depth) == 0 else { throw fail() }
            // libpng's rows: 16-bit codes for an HDR file, whose floats are made from them.
            let stride = layout.width * layout.channels * (transfer == nil ? layout.depth : 16) / 8
            // Adam7 needs the whole image in memory; progressive rows otherwise.
            let bandRows = interlaced ? layout.height : min(16, layout.height)
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * bandRows)
            defer { buffer.deallocate() }
            let floats = transfer.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: layout.width * layout.channels * bandRows) }
            defer { floats?.deallocate() }
            let table = transfer == .pq ? HDRCurve.pqFrom16 : transfer == .hlg ? HDRCurve.hlgFrom16 : []
            let alpha = layout.channels == 2 || layout.channels == 4
            var row = 0
            let end = interlaced ? layout.height : min(layout.height, wanted.upperBound)
            while row < end {
                let count = min(bandRows, end - row)
                guard CPNG_read_rows(decoder, buffer, stride, Int32(count)) == Int32(count) else { throw fail() }
                if let floats {
                    let codes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt16.self)
                    for i in 0..<(count * layout.width * layout.channels) {
                        let isAlpha = alpha && i % layout.channels == layout.channels - 1
                        floats[i] = isAlpha ? Float(codes[i]) / 65535 : table[Int(codes[i])]
                    }
                    try body(RowBand(firstRow: row, rowCount: count, bytesPerRow: layout.width * layout.channels * 4, base: UnsafeRawPointer(floats)))
                } else {
                    try body(RowBand(firstRow: row, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(buffer)))
                }
                row += count
            }
            if end == layout.height { guard CPNG_finish(decoder) == 0 else { throw fail() } }
            if let warning = CPNG_warning(decoder) { try DecodeWarnings.report(file: path, "libpng: " + String(cString: warning)) }
        }
    }
}
