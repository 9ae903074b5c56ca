import CPNG
import LumenPlatform

extension ImageFileFormat {
    /// PNG (libpng): 8 or 16 bits, alpha, interlaced; read and written.
    public static let png = ImageFileFormat(rawValue: "png")
}

/// PNG through libpng: every color type and depth in (palette, tRNS, Adam7); 8- or
/// 16-bit gray, gray+alpha, RGB or RGBA out, tagged sRGB.
struct PNGCodec: ImageCodec {
    var format: ImageFileFormat { .png }
    var extensions: [String] { ["png"] }
    let capabilities = CodecCapabilities(depths: [8, 16], metadata: [.exif, .xmp, .icc, .resolution],
                                         options: [.compressionLevel, .rowFilter])

    func recognizes(_ prefix: Data) -> Bool { prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }

    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder { try PNGDecoder(data: data, path: name) }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        try PNGEncoder(sink: sink, format: format, layout: layout)
    }
}

final class PNGEncoder: ImageEncoder {
    private let encoder: OpaquePointer
    private let sink: StdioSink
    private let name: String

    init(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws {
        name = sink.name
        self.sink = try StdioSink(sink)
        var message = [CChar](repeating: 0, count: 256)
        let metadata = layout.metadata
        let file = self.sink.file
        // An sRGB profile is written as PNG's own sRGB chunk, which says the same in 13 bytes.
        let srgb = ColorProfile(metadata.iccProfile)?.isSRGB ?? false
        let created: OpaquePointer? = Data.withOptionalBytes(metadata.iccProfile) { icc in
            Data.withOptionalBytes(metadata.exif) { exif in
                Data.withOptionalBytes(metadata.xmp) { xmp in
                    // A TIFF's resolution is any rational: one pHYs cannot hold is left out (Int() would trap).
                    func perMeter(_ perInch: Double) -> UInt32 {
                        let v = (perInch / 0.0254).rounded()
                        return v.isFinite && v >= 0 && v <= Double(UInt32.max) ? UInt32(v) : 0
                    }
                    var chunks = CPNG_Metadata(icc: icc.baseAddress, iccLength: icc.count, srgb: srgb ? 1 : 0, filters: format.pngFilter.mask, exif: exif.baseAddress, exifLength: exif.count,
                                               xmp: xmp.baseAddress, xmpLength: xmp.count,
                                               xPixelsPerMeter: metadata.resolution.map { perMeter($0.x) } ?? 0,
                                               yPixelsPerMeter: metadata.resolution.map { perMeter($0.y) } ?? 0,
                                               cicpTransfer: Int32(layout.transfer.cicp ?? 0))
                    return CPNG_encoder_create(file, Int32(layout.width), Int32(layout.height), Int32(layout.channels),
                                               Int32(layout.depth), Int32(max(0, min(9, format.compressionLevel))), &chunks,
                                               &message, message.count)
                }
            }
        }
        guard let encoder = created else {
            throw LumenError.unwritable(file: sink.name, reason: String(nulTerminated: message))
        }
        self.encoder = encoder
    }

    deinit { CPNG_encoder_destroy(encoder) }

    func write(_ band: RowBand) throws {
        guard CPNG_write_rows(encoder, band.base.assumingMemoryBound(to: UInt8.self), band.bytesPerRow, Int32(band.rowCount)) == 0 else {
            throw LumenError.unwritable(file: name, reason: String(cString: CPNG_encoder_message(encoder)))
        }
    }

    func finish() throws -> Data? {
        guard CPNG_encoder_finish(encoder) == 0 else {
            throw LumenError.unwritable(file: name, reason: String(cString: CPNG_encoder_message(encoder)))
        }
        return sink.takeBytes()
    }
}
