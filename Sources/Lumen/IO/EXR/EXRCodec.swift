import LumenPlatform
import CEXR

extension ImageFileFormat {
    /// OpenEXR: half and float, linear light, values above 1; read and written.
    public static let exr = ImageFileFormat(rawValue: "exr")
}

/// OpenEXR through OpenEXRCore (opened on first use, `Sources/CEXR`): scanline and tiled
/// files of half, float or uint RGB(A) or luminance (Y) channels, read as linear-light
/// Float32 into the working space without clipping (values above 1 stay, alpha as
/// stored, premultiplied); written from the working space as half (`depth` 16, the
/// default) or float (32) RGB(A), ZIP-compressed. The data window is the image.
struct EXRCodec: ImageCodec {
    var format: ImageFileFormat { .exr }
    var extensions: [String] { ["exr"] }
    var displayName: String { "OpenEXR" }
    let capabilities: CodecCapabilities = {
        var capabilities = CodecCapabilities(depths: [32, 16])
        capabilities.linearFloat = true
        return capabilities
    }()

    func recognizes(_ prefix: Data) -> Bool { prefix.starts(with: [0x76, 0x2F, 0x31, 0x01]) }

    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder {
        try EXRDecoder(data: data, path: name)
    }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        try EXREncoder(sink: sink, format: format, layout: layout)
    }
}

/// The first part of an OpenEXR file, decoded whole.
final class EXRDecoder: ImageDecoder {
    var decodesWhole: Bool { true }
    let header: ImageHeader
    var metadata: ImageMetadata { ImageMetadata() }
    var iccProfile: Data? { nil }
    private let data: Data
    private let path: String
    private let decodedLayout: DecodedLayout

    init(data: Data, path: String) throws {
        self.data = data
        self.path = path
        var info = CEXR_Info()
        var error = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes { CEXR_read_info($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &info, &error, error.count) }
        guard ok != 0 else {
            let reason = String(nulTerminated: error)
            throw reason.hasPrefix("OpenEXR is not") || reason.contains("not supported") ? LumenError.unsupported(file: path, reason: reason)
                                                                                        : LumenError.corrupt(file: path, reason: reason)
        }
        let channels = info.has_alpha != 0 ? 4 : 3
        decodedLayout = DecodedLayout(width: Int(info.width), height: Int(info.height), channels: channels, depth: 32,
                                      alphaPremultiplied: info.has_alpha != 0)
        let compressions = ["uncompressed", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB"]
        var details = [info.bits == 16 ? "half" : "float", info.tiled != 0 ? "tiled" : "scanline"]
        if (0..<compressions.count).contains(Int(info.compression)) { details.append(compressions[Int(info.compression)]) }
        if info.gray != 0 { details.append("luminance") }
        if info.parts > 1 { details.append("\(info.parts) parts (the first is read)") }
        header = ImageHeader(format: .exr, width: Int(info.width), height: Int(info.height), channels: info.gray != 0 ? (channels - 2) : channels,
                             bitDepth: Int(info.bits), hasAlpha: info.has_alpha != 0, details: details)
    }

    func layout(reduction: Int) -> DecodedLayout { decodedLayout }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let layout = decodedLayout
        let count = layout.width * layout.height * layout.channels
        let pixels = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count))
        defer { pixels.deallocate() }
        var error = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes {
            CEXR_decode($0.bindMemory(to: UInt8.self).baseAddress, $0.count, Int32(layout.channels), pixels, count, &error, error.count)
        }
        guard ok != 0 else { throw LumenError.corrupt(file: path, reason: String(nulTerminated: error)) }
        try RowBand.deliver(whole: pixels, bytesPerRow: layout.width * layout.channels * 4, height: layout.height, rows: rows, body)
    }
}

/// Writes an OpenEXR from linear-light Float32 rows, gathered whole.
final class EXREncoder: ImageEncoder {
    private let sink: EncodeSink
    private let format: OutputFormat
    private let picture: PictureBuffer

    init(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws {
        guard layout.depth == 32, layout.channels == 3 || layout.channels == 4 else {
            throw LumenError.unwritable(file: sink.name, reason: "OpenEXR takes linear Float32 RGB or RGBA rows")
        }
        guard layout.width < 1 << 30, layout.height < 1 << 30 else {
            throw LumenError.unwritable(file: sink.name, reason: "OpenEXR images are under 2^30 pixels a side")
        }
        self.sink = sink
        self.format = format
        picture = PictureBuffer(layout)
    }

    func write(_ band: RowBand) throws { picture.write(band) }

    func finish() throws -> Data? {
        let layout = picture.layout
        var out = CEXR_Buffer()
        var error = [CChar](repeating: 0, count: 256)
        let ok = CEXR_encode(picture.pixels.assumingMemoryBound(to: Float.self), Int32(layout.width), Int32(layout.height),
                             Int32(layout.channels), format.depth == 32 ? 32 : 16, 0, &out, &error, error.count)
        defer { CEXR_free(&out) }
        guard ok != 0, let base = out.data else { throw LumenError.unwritable(file: sink.name, reason: String(nulTerminated: error)) }
        return try sink.write(Data(bytes: base, count: out.size))
    }
}
