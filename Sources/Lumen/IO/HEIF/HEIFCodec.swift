import LumenPlatform
import CHEIF

extension ImageFileFormat {
    /// HEIC, HEVC in HEIF (libheif with libde265 and x265): 8 or 10 bits, alpha, read and written.
    public static let heic = ImageFileFormat(rawValue: "heic")
    /// AVIF, AV1 in HEIF (libheif with dav1d and libaom): 8 or 10 bits, alpha, read and written.
    public static let avif = ImageFileFormat(rawValue: "avif")
}

/// HEIC (HEVC) and AVIF (AV1) through libheif, one codec for each compression: 8-, 10-
/// and 12-bit, alpha, grids of tiles as phones write them, the rotation and mirroring
/// boxes (applied by libheif, so the EXIF orientation of a HEIF is informational and
/// reads as 1), ICC profiles, EXIF and XMP. Writes with x265 / aom at 8 or 10 bits, the
/// quality meaning what `heif-enc -q` means.
struct HEIFCodec: ImageCodec {
    let format: ImageFileFormat
    let extensions: [String]
    let compression: heif_compression_format
    /// The ISO-BMFF brands (major or compatible) that announce this format.
    let brands: Set<String>

    static let heic = HEIFCodec(format: .heic, extensions: ["heic", "heif", "hif"], compression: heif_compression_HEVC,
                                brands: ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"])
    static let avif = HEIFCodec(format: .avif, extensions: ["avif"], compression: heif_compression_AV1, brands: ["avif", "avis"])

    /// Image sequences and previews read; 8 or 10 bits written, quality 0.5 by default (heif-enc's).
    let capabilities = CodecCapabilities(depths: [8, 10], animation: true, embeddedThumbnails: true, metadata: [.exif, .xmp, .icc],
                                         options: [.quality, .lossless], defaultQuality: 0.5)

    func recognizes(_ prefix: Data) -> Bool {
        let bytes = [UInt8](prefix)
        guard bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) else { return false }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var at = 16
        while at + 4 <= min(bytes.count, boxSize) {
            brands.append(String(decoding: bytes[at..<(at + 4)], as: UTF8.self))
            at += 4
        }
        // AVIF files list mif1 too: an AV1 brand anywhere makes it AVIF.
        let isAVIF = brands.contains { HEIFCodec.avif.brands.contains($0) }
        return format == .avif ? isAVIF : !isAVIF && brands.contains { self.brands.contains($0) }
    }

    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder {
        try HEIFDecoder(data: data, path: name, format: format)
    }

    func thumbnailDecoder(data: Data, name: String) throws -> any ImageDecoder {
        try HEIFDecoder(data: data, path: name, format: format, thumbnail: true)
    }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        try HEIFEncoder(sink: sink, format: format, layout: layout, compression: compression)
    }
}

/// libheif's functions, loaded on first use (`CHEIF`); throws naming `file` when libheif
/// cannot be loaded.
func libheif(file: String) throws -> CHEIF_Functions {
    guard let functions = CHEIF_functions() else {
        throw LumenError.unsupported(file: file, reason: String(cString: CHEIF_error()))
    }
    return functions.pointee
}

extension heif_error {
    /// libheif's message, or nil when the call succeeded.
    var failure: String? {
        guard code != heif_error_Ok else { return nil }
        return message.map { String(cString: $0) } ?? "libheif error \(code.rawValue)"
    }
}
