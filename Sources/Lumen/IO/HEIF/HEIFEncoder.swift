import LumenPlatform
import CHEIF

/// Writes HEIC or AVIF: rows go straight into a libheif picture (8-bit, or 16-bit
/// samples narrowed to 10 bits), encoded whole when the last row is in.
final class HEIFEncoder: ImageEncoder {
    private let sink: EncodeSink
    private let format: OutputFormat
    private let layout: EncodeLayout
    private let compression: heif_compression_format
    private let image: OpaquePointer
    private let plane: UnsafeMutablePointer<UInt8>
    private let stride: Int
    private let bits: Int
    private let heif: CHEIF_Functions
    /// An Apple HDR gain map written beside the picture as its auxiliary image (HEIC only).
    private let gainMap: AppleGainMap.Written?

    init(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout, compression: heif_compression_format,
         gainMap: AppleGainMap.Written? = nil) throws {
        let heif = try libheif(file: sink.name)
        self.heif = heif
        guard layout.channels == 3 || layout.channels == 4 else {
            throw LumenError.unwritable(file: sink.name, reason: "\(format.fileFormat.displayName) takes RGB or RGBA rows")
        }
        guard heif.heif_have_encoder_for_format!(compression) != 0 else {
            throw LumenError.unwritable(file: sink.name, reason: "this libheif has no \(format.fileFormat.displayName) encoder")
        }
        self.sink = sink
        self.format = format
        self.layout = layout
        self.compression = compression
        self.gainMap = compression == heif_compression_HEVC ? gainMap : nil
        bits = layout.depth == 8 ? 8 : (format.depth >= 12 ? 12 : 10)
        let chroma: heif_chroma = bits == 8
            ? (layout.channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
            : (layout.channels == 4 ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
        var image: OpaquePointer?
        if let failure = heif.heif_image_create!(Int32(layout.width), Int32(layout.height), heif_colorspace_RGB, chroma, &image).failure {
            throw LumenError.unwritable(file: sink.name, reason: failure)
        }
        guard let image else { throw LumenError.unwritable(file: sink.name, reason: "out of memory") }
        if let failure = heif.heif_image_add_plane!(image, heif_channel_interleaved, Int32(layout.width), Int32(layout.height), Int32(bits)).failure {
            heif.heif_image_release!(image)
            throw LumenError.unwritable(file: sink.name, reason: failure)
        }
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane!(image, heif_channel_interleaved, &stride) else {
            heif.heif_image_release!(image)
            throw LumenError.unwritable(file: sink.name, reason: "out of memory for \(layout.width)×\(layout.height) pixels")
        }
        self.image = image
        self.plane = plane
        self.stride = Int(stride)
        if let icc = layout.metadata.iccProfile {
            _ = icc.withUnsafeBytes { heif.heif_image_set_raw_color_profile!(image, "prof", $0.baseAddress, $0.count) }
        }
    }

    deinit { heif.heif_image_release!(image) }

    /// A HEIC writer whose picture gets `gainMap` as its Apple HDR gain map.
    static func heic(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout, gainMap: AppleGainMap.Written) throws -> HEIFEncoder {
        try HEIFEncoder(sink: sink, format: format, layout: layout, compression: heif_compression_HEVC, gainMap: gainMap)
    }

    func write(_ band: RowBand) throws {
        let rowBytes = layout.bytesPerRow
        for r in 0..<band.rowCount where band.firstRow + r < layout.height {
            let source = band.base + r * band.bytesPerRow, target = plane + (band.firstRow + r) * stride
            if bits == 8 {
                UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: rowBytes)
            } else {
                let input = source.assumingMemoryBound(to: UInt16.self)
                let output = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt16.self)
                let maximum = Float((1 << bits) - 1)
                for i in 0..<(layout.width * layout.channels) {
                    output[i] = UInt16((Float(input[i]) * maximum / 65535).rounded()).littleEndian
                }
            }
        }
    }

    /// The file, with the gain map (if any) linked as the picture's auxiliary image: a map
    /// that cannot be linked throws `HEIFAuxiliaryLink.Malformed`, before anything is
    /// written, so the caller can write the picture without it.
    func finish() throws -> Data? {
        let bytes = try encoded()
        guard gainMap != nil else { return try sink.write(bytes) }
        return try sink.write(try HEIFAuxiliaryLink.link(bytes, auxiliaryType: AppleGainMap.auxiliaryType))
    }

    /// The file libheif writes: the picture, and the gain map as a second picture, not yet linked.
    func encoded() throws -> Data {
        let name = sink.name
        guard let context = heif.heif_context_alloc!() else { throw LumenError.unwritable(file: name, reason: "out of memory") }
        defer { heif.heif_context_free!(context) }
        var encoder: OpaquePointer?
        if let failure = heif.heif_context_get_encoder_for_format!(context, compression, &encoder).failure {
            throw LumenError.unwritable(file: name, reason: failure)
        }
        guard let encoder else { throw LumenError.unwritable(file: name, reason: "no encoder") }
        defer { heif.heif_encoder_release!(encoder) }
        // Debian's libheif 1.15 with libaom 3.6 aborts the process on 10-bit AV1 at 4:2:0 or
        // 4:4:4 (an assertion in aom's bitstream writer) and crashes on 10-bit lossless:
        // 10-bit AVIF is written 4:2:2, which that pair encodes correctly.
        let tenBitAV1 = compression == heif_compression_AV1 && bits > 8
        if tenBitAV1 && layout.channels == 4 {
            throw LumenError.unwritable(file: name, reason: "10-bit AVIF with alpha cannot be encoded by this libheif and libaom; write 8-bit AVIF, 10-bit HEIC, or flatten with --background")
        }
        if tenBitAV1 && format.lossless {
            throw LumenError.unwritable(file: name, reason: "10-bit lossless AVIF is not available with this libaom (it crashes); write 8-bit lossless AVIF or 10-bit HEIC")
        }
        if format.lossless {
            _ = heif.heif_encoder_set_lossless!(encoder, 1)
            _ = heif.heif_encoder_set_parameter_string!(encoder, "chroma", "444")
        } else if tenBitAV1 {
            _ = heif.heif_encoder_set_parameter_string!(encoder, "chroma", "422")
        }
        if !format.lossless, let failure = heif.heif_encoder_set_lossy_quality!(encoder, Int32(max(0, min(100, (format.quality * 100).rounded())))).failure {
            throw LumenError.unwritable(file: name, reason: failure)
        }
        let options = heif.heif_encoding_options_alloc!()
        defer { heif.heif_encoding_options_free!(options) }
        // Lossless needs RGB stored as is (identity matrix, full range), not as YCbCr.
        let identity = format.lossless ? heif.heif_nclx_color_profile_alloc!() : nil
        defer { identity.map { heif.heif_nclx_color_profile_free!($0) } }
        if let identity, let options {
            identity.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
            identity.pointee.full_range_flag = 1
            options.pointee.output_nclx_profile = identity
        }
        var handle: OpaquePointer?
        if let failure = heif.heif_context_encode_image!(context, image, encoder, options, &handle).failure {
            throw LumenError.unwritable(file: name, reason: failure)
        }
        if let handle {
            defer { heif.heif_image_handle_release!(handle) }
            if let exif = layout.metadata.exif {
                _ = exif.withUnsafeBytes { heif.heif_context_add_exif_metadata!(context, handle, $0.baseAddress, Int32($0.count)) }
            }
            if let xmp = layout.metadata.xmp {
                _ = xmp.withUnsafeBytes { heif.heif_context_add_XMP_metadata!(context, handle, $0.baseAddress, Int32($0.count)) }
            }
        }
        if let gainMap {
            try encodeGainMap(gainMap, into: context, encoder: encoder)
        }
        let output = ByteCollector()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
            let collector = Unmanaged<ByteCollector>.fromOpaque(userdata!).takeUnretainedValue()
            if let data { collector.bytes.append(data.assumingMemoryBound(to: UInt8.self), count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        if let failure = heif.heif_context_write!(context, &writer, Unmanaged.passUnretained(output).toOpaque()).failure {
            throw LumenError.unwritable(file: name, reason: failure)
        }
        return output.bytes
    }

    /// The gain map as a second, monochrome picture of `context` (made the primary's
    /// auxiliary image once the file is written: `HEIFAuxiliaryLink`).
    private func encodeGainMap(_ map: AppleGainMap.Written, into context: OpaquePointer, encoder: OpaquePointer) throws {
        let name = sink.name
        var image: OpaquePointer?
        if let failure = heif.heif_image_create!(Int32(map.width), Int32(map.height), heif_colorspace_monochrome, heif_chroma_monochrome, &image).failure {
            throw LumenError.unwritable(file: name, reason: "its HDR gain map: \(failure)")
        }
        guard let image else { throw LumenError.unwritable(file: name, reason: "out of memory") }
        defer { heif.heif_image_release!(image) }
        if let failure = heif.heif_image_add_plane!(image, heif_channel_Y, Int32(map.width), Int32(map.height), 8).failure {
            throw LumenError.unwritable(file: name, reason: "its HDR gain map: \(failure)")
        }
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane!(image, heif_channel_Y, &stride), map.samples.count == map.width * map.height else {
            throw LumenError.unwritable(file: name, reason: "its HDR gain map: no plane")
        }
        map.samples.withUnsafeBytes { samples in
            for row in 0..<map.height {
                (plane + row * Int(stride)).update(from: samples.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * map.width, count: map.width)
            }
        }
        var handle: OpaquePointer?
        if let failure = heif.heif_context_encode_image!(context, image, encoder, nil, &handle).failure {
            throw LumenError.unwritable(file: name, reason: "its HDR gain map: \(failure)")
        }
        handle.map { heif.heif_image_handle_release!($0) }
    }
}

/// Bytes a C callback appends to.
private final class ByteCollector {
    var bytes = Data()
}
