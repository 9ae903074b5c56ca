import CJPEG
import LumenPlatform

extension ImageFileFormat {
    /// JPEG (libjpeg-turbo): read and written, 8 bits, EXIF/XMP/IPTC/ICC kept.
    public static let jpeg = ImageFileFormat(rawValue: "jpeg")
}

/// JPEG through libjpeg-turbo: baseline and progressive, gray, YCbCr, CMYK/YCCK in;
/// 8-bit gray or RGB out (4:2:0 or 4:4:4, optionally progressive).
struct JPEGCodec: ImageCodec {
    var format: ImageFileFormat { .jpeg }
    var extensions: [String] { ["jpg", "jpeg", "jpe"] }
    let capabilities = CodecCapabilities(depths: [8], alpha: false, shrinkOnLoad: [2, 4, 8],
                                         metadata: [.exif, .xmp, .iptc, .icc, .resolution],
                                         options: [.quality, .chromaSubsampling, .progressive])

    func recognizes(_ prefix: Data) -> Bool { prefix.starts(with: [0xFF, 0xD8, 0xFF]) }

    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder { try JPEGDecoder(data: data, path: name) }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        try JPEGEncoder(sink: sink, format: format, layout: layout)
    }
}

/// The signatures that open JPEG's metadata markers (each followed by a NUL).
enum JPEGMarkers {
    static let xmpPrefix = "http://ns.adobe.com/xap/1.0/"
    static let photoshopPrefix = "Photoshop 3.0"
}

final class JPEGEncoder: ImageEncoder {
    private let encoder: OpaquePointer
    private let sink: StdioSink
    private let name: String

    init(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws {
        guard layout.channels == 1 || layout.channels == 3 else {
            throw LumenError.unwritable(file: sink.name, reason: "JPEG takes gray or RGB rows, not \(layout.channels) channels")
        }
        name = sink.name
        self.sink = try StdioSink(sink)
        var message = [CChar](repeating: 0, count: 256)
        let quality = Int32(max(1, min(100, (format.quality * 100).rounded())))
        let metadata = layout.metadata
        let dpi = metadata.resolution.map { (Int32(clamping: Int(min(65535, max(0, $0.x.rounded())))), Int32(clamping: Int(min(65535, max(0, $0.y.rounded()))))) }
        guard let encoder = CJPEG_encoder_create(self.sink.file, Int32(layout.width), Int32(layout.height), Int32(layout.channels),
                                                 quality, format.chroma444 ? 1 : 0, format.progressive ? 1 : 0,
                                                 dpi == nil ? 0 : 1, dpi?.0 ?? 0, dpi?.1 ?? 0, &message, message.count) else {
            throw LumenError.unwritable(file: sink.name, reason: String(nulTerminated: message))
        }
        self.encoder = encoder
        // Markers in the usual order: EXIF, XMP, ICC, IPTC.
        func write(_ marker: Int32, _ prefix: String, _ data: Data) throws {
            let status = data.withUnsafeBytes { bytes in
                CJPEG_write_marker(encoder, marker, prefix, prefix.utf8.count + 1, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            }
            guard status == 0 else { throw LumenError.unwritable(file: sink.name, reason: String(cString: CJPEG_encoder_message(encoder))) }
        }
        if let exif = metadata.exif { try write(1, "Exif\0", exif) }
        if let xmp = metadata.xmp, xmp.count + 29 <= 65533 { try write(1, JPEGMarkers.xmpPrefix, xmp) }
        if let icc = metadata.iccProfile {
            let status = icc.withUnsafeBytes { CJPEG_write_icc(encoder, $0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
            guard status == 0 else { throw LumenError.unwritable(file: sink.name, reason: String(cString: CJPEG_encoder_message(encoder))) }
        }
        if let iptc = metadata.iptc { try write(13, JPEGMarkers.photoshopPrefix, IPTC.photoshopResources(records: iptc)) }
    }

    deinit { CJPEG_encoder_destroy(encoder) }

    func write(_ band: RowBand) throws {
        guard CJPEG_write_rows(encoder, band.base.assumingMemoryBound(to: UInt8.self), band.bytesPerRow, Int32(band.rowCount)) == 0 else {
            throw LumenError.unwritable(file: name, reason: String(cString: CJPEG_encoder_message(encoder)))
        }
    }

    func finish() throws -> Data? {
        guard CJPEG_encoder_finish(encoder) == 0 else {
            throw LumenError.unwritable(file: name, reason: String(cString: CJPEG_encoder_message(encoder)))
        }
        return sink.takeBytes()
    }
}
