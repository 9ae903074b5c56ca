import CWebP
import LumenPlatform
import LibWebP

extension ImageFileFormat {
    /// WebP (libwebp): lossy, lossless, alpha and animation; read and written.
    public static let webp = ImageFileFormat(rawValue: "webp")
}

/// WebP through libwebp: lossy, lossless and alpha, still or animated (every frame
/// composited on the canvas as browsers show it), with the ICC, EXIF and XMP chunks of
/// the extended format. Writes still WebP (quality as `cwebp -q`, or lossless) and,
/// through `RenderContext.writeAnimation`, animated WebP.
struct WebPCodec: ImageCodec {
    var format: ImageFileFormat { .webp }
    var extensions: [String] { ["webp"] }
    var displayName: String { "WebP" }
    let capabilities = CodecCapabilities(depths: [8], animation: true, writesAnimation: true, metadata: [.exif, .xmp, .icc],
                                         options: [.quality, .lossless], defaultQuality: 0.75)
    /// cwebp's and libvips's default.

    func recognizes(_ prefix: Data) -> Bool {
        prefix.count >= 12 && prefix.starts(with: Array("RIFF".utf8)) && prefix.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    // libwebp and its demuxer and muxer are opened on first use (`CWebP`); every way into
    // the codec opens them first.
    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder {
        try openOnFirstUse(for: name, CWebP_open)
        return try WebPDecoder(data: data, path: name, frame: frame)
    }

    func animationEncoder(sink: EncodeSink, format: OutputFormat, width: Int, height: Int, loopCount: Int) throws -> any AnimationEncoder {
        try openOnFirstUse(for: sink.name, CWebP_open)
        return try WebPAnimationEncoder(sink: sink, width: width, height: height, format: format, loopCount: loopCount)
    }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        try openOnFirstUse(for: sink.name, CWebP_open)
        return try WebPEncoder(sink: sink, format: format, layout: layout)
    }
}

/// The container of a WebP file: its canvas, frames and metadata chunks, read with libwebp's demuxer.
private struct WebPContainer {
    var width = 0, height = 0
    var frameCount = 1
    var durations: [Double] = []
    var loopCount = 0
    var hasAlpha = false
    var animated = false
    var metadata = ImageMetadata()

    init(_ bytes: UnsafeRawBufferPointer, path: String) throws {
        var data = WebPData(bytes: bytes.bindMemory(to: UInt8.self).baseAddress, size: bytes.count)
        guard let demux = WebPDemux(&data) else {
            throw LumenError.corrupt(file: path, reason: "not a complete WebP container")
        }
        defer { WebPDemuxDelete(demux) }
        width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        animated = flags & ANIMATION_FLAG.rawValue != 0
        hasAlpha = flags & ALPHA_FLAG.rawValue != 0
        frameCount = max(1, Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)))
        loopCount = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
        var iterator = WebPIterator()
        if WebPDemuxGetFrame(demux, 1, &iterator) != 0 {
            repeat {
                if animated { durations.append(Double(iterator.duration) / 1000) }
                if iterator.has_alpha != 0 { hasAlpha = true }
            } while WebPDemuxNextFrame(&iterator) != 0
            WebPDemuxReleaseIterator(&iterator)
        }
        func chunk(_ fourcc: String) -> Data? {
            var chunk = WebPChunkIterator()
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard WebPDemuxGetChunk(demux, fourcc, 1, &chunk) != 0, let base = chunk.chunk.bytes else { return nil }
            return Data(bytes: base, count: chunk.chunk.size)
        }
        metadata.iccProfile = chunk("ICCP")
        metadata.exif = chunk("EXIF")?.exifWithoutPrefix
        metadata.xmp = chunk("XMP ")
    }
}

/// One frame of a WebP, decoded whole by libwebp (its lossy and lossless bitstreams are
/// not split into bands a reader can start in the middle of).
final class WebPDecoder: ImageDecoder {
    /// The library decodes the whole picture (or frame) before bands are handed out.
    var decodesWhole: Bool { true }
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String
    private let animated: Bool

    init(data: Data, path: String, frame: Int) throws {
        self.data = data
        self.path = path
        let (container, features) = try data.withUnsafeBytes { bytes -> (WebPContainer, WebPBitstreamFeatures) in
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeatures(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &features)
            guard status == VP8_STATUS_OK else {
                throw LumenError.corrupt(file: path, reason: Self.describe(status))
            }
            return (try WebPContainer(bytes, path: path), features)
        }
        animated = container.animated
        metadata = container.metadata
        var details = [["mixed", "lossy", "lossless"][Int(max(0, min(2, features.format)))]]
        if container.animated {
            details.append("\(container.frameCount) frames")
            details.append(container.loopCount == 0 ? "loops forever" : "loops \(container.loopCount)×")
        }
        let exifOrientation = container.metadata.exif.map { exif in
            exif.withUnsafeBytes { Lumen.exifOrientation(in: $0.bindMemory(to: UInt8.self)) }
        } ?? 1
        header = ImageHeader(format: .webp, width: container.width, height: container.height,
                             channels: container.hasAlpha ? 4 : 3, bitDepth: 8, hasAlpha: container.hasAlpha,
                             orientation: exifOrientation, hasICCProfile: container.metadata.iccProfile != nil,
                             iccDescription: ColorProfile(container.metadata.iccProfile)?.description, details: details,
                             frameCount: container.frameCount, frameDurations: container.durations, frame: frame)
    }

    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "the file is truncated"
        default: return "decoding failed (status \(status.rawValue))"
        }
    }

    func layout(reduction: Int) -> DecodedLayout {
        DecodedLayout(width: header.width, height: header.height, channels: header.channels, depth: 8)
    }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let (width, height) = (header.width, header.height)
        let path = self.path, frame = header.frame, animated = self.animated
        try RowBand.decodeWhole(width: width, height: height, channels: header.channels, rows: rows, fill: { canvas in
            try data.withUnsafeBytes { bytes in
                let base = bytes.bindMemory(to: UInt8.self).baseAddress
                if !animated {
                    guard WebPDecodeRGBAInto(base, bytes.count, canvas, width * height * 4, Int32(width * 4)) != nil else {
                        var features = WebPBitstreamFeatures()
                        let status = WebPGetFeatures(base, bytes.count, &features)
                        throw LumenError.corrupt(file: path, reason: status == VP8_STATUS_OK ? "the file is truncated or damaged" : Self.describe(status))
                    }
                    return
                }
                var options = WebPAnimDecoderOptions()
                guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw LumenError.corrupt(file: path, reason: "libwebp version mismatch") }
                options.color_mode = MODE_RGBA
                options.use_threads = 0
                var webp = WebPData(bytes: base, size: bytes.count)
                guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
                    throw LumenError.corrupt(file: path, reason: "cannot decode the animation")
                }
                defer { WebPAnimDecoderDelete(decoder) }
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                for index in 0...frame {
                    guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
                        throw LumenError.corrupt(file: path, reason: "frame \(index) cannot be decoded")
                    }
                    if index == frame { canvas.update(from: pixels, count: width * height * 4) }
                }
            }
        }, body)
    }
}

/// Writes a still WebP: the rows are gathered (libwebp encodes whole pictures), then
/// encoded with `cwebp`'s settings for the quality, or losslessly.
final class WebPEncoder: ImageEncoder {
    private let sink: EncodeSink
    private let format: OutputFormat
    private let picture: PictureBuffer

    init(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws {
        guard layout.depth == 8, layout.channels == 3 || layout.channels == 4 else {
            throw LumenError.unwritable(file: sink.name, reason: "WebP takes 8-bit RGB or RGBA rows")
        }
        guard layout.width <= WebPEncoder.maximumSide, layout.height <= WebPEncoder.maximumSide else {
            throw LumenError.unwritable(file: sink.name, reason: "WebP images are at most \(WebPEncoder.maximumSide) pixels a side, not \(layout.width)×\(layout.height)")
        }
        self.sink = sink
        self.format = format
        picture = PictureBuffer(layout)
    }

    static let maximumSide = 16383

    func write(_ band: RowBand) throws { picture.write(band) }

    func finish() throws -> Data? {
        let layout = picture.layout
        let still = try WebPEncoder.encode(picture.pixels, layout: layout, format: format, name: sink.name)
        return try sink.write(try WebPEncoder.attach(layout.metadata, to: still, name: sink.name))
    }

    /// A `WebPConfig` for the output's quality (0…1, as cwebp's -q / 100) or lossless mode.
    static func config(for format: OutputFormat, name: String) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw LumenError.unwritable(file: name, reason: "libwebp version mismatch") }
        config.quality = Float(max(0, min(100, format.quality * 100)))
        config.lossless = format.lossless ? 1 : 0
        config.method = 4
        guard WebPValidateConfig(&config) != 0 else { throw LumenError.unwritable(file: name, reason: "invalid WebP settings") }
        return config
    }

    /// Fills `picture` with rows of RGB(A) 8-bit pixels.
    static func importPixels(_ pixels: UnsafeRawPointer, layout: EncodeLayout, into picture: inout WebPPicture,
                             lossless: Bool, name: String) throws {
        guard WebPPictureInit(&picture) != 0 else { throw LumenError.unwritable(file: name, reason: "libwebp version mismatch") }
        picture.width = Int32(layout.width)
        picture.height = Int32(layout.height)
        picture.use_argb = lossless ? 1 : 0
        let rows = pixels.assumingMemoryBound(to: UInt8.self)
        let ok = layout.channels == 4
            ? WebPPictureImportRGBA(&picture, rows, Int32(layout.bytesPerRow))
            : WebPPictureImportRGB(&picture, rows, Int32(layout.bytesPerRow))
        guard ok != 0 else { throw LumenError.unwritable(file: name, reason: "out of memory importing \(layout.width)×\(layout.height) pixels") }
    }

    static func encode(_ pixels: UnsafeRawPointer, layout: EncodeLayout, format: OutputFormat, name: String) throws -> Data {
        var config = try config(for: format, name: name)
        var picture = WebPPicture()
        try importPixels(pixels, layout: layout, into: &picture, lossless: format.lossless, name: name)
        defer { WebPPictureFree(&picture) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let ok = withUnsafeMutablePointer(to: &writer) { writerPointer -> Int32 in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0, let memory = writer.mem else {
            throw LumenError.unwritable(file: name, reason: "WebP encoding failed (error \(picture.error_code.rawValue))")
        }
        return Data(bytes: memory, count: writer.size)
    }

    /// The file with ICC, EXIF and XMP chunks added (the extended format), when there are any.
    static func attach(_ metadata: ImageMetadata, to bitstream: Data, name: String) throws -> Data {
        let chunks = [("ICCP", metadata.iccProfile), ("EXIF", metadata.exif), ("XMP ", metadata.xmp)]
            .compactMap { fourcc, data in data.map { (fourcc, $0) } }
        guard !chunks.isEmpty else { return bitstream }
        return try bitstream.withUnsafeBytes { bytes -> Data in
            var input = WebPData(bytes: bytes.bindMemory(to: UInt8.self).baseAddress, size: bytes.count)
            guard let mux = WebPMuxCreate(&input, 1) else { throw LumenError.unwritable(file: name, reason: "cannot add metadata to the WebP") }
            defer { WebPMuxDelete(mux) }
            for (fourcc, data) in chunks {
                let status = data.withUnsafeBytes { raw -> WebPMuxError in
                    var chunk = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
                    return WebPMuxSetChunk(mux, fourcc, &chunk, 1)
                }
                guard status == WEBP_MUX_OK else { throw LumenError.unwritable(file: name, reason: "cannot add the \(fourcc) chunk") }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let base = output.bytes else {
                throw LumenError.unwritable(file: name, reason: "cannot assemble the WebP container")
            }
            defer { WebPDataClear(&output) }
            return Data(bytes: base, count: output.size)
        }
    }
}

/// Writes an animated WebP: frames of one canvas size added with their durations
/// (libwebp's animation encoder keeps only what changes between frames). Each frame's
/// rows arrive through a sink of their own (`frame(layout:milliseconds:)`), gathered
/// into one picture, since libwebp encodes whole pictures.
final class WebPAnimationEncoder: AnimationEncoder {
    private let encoder: OpaquePointer
    private let width: Int, height: Int
    private let format: OutputFormat
    private let sink: EncodeSink
    private var name: String { sink.name }
    private var timestamp = 0

    init(sink: EncodeSink, width: Int, height: Int, format: OutputFormat, loopCount: Int) throws {
        let name = sink.name
        guard width <= WebPEncoder.maximumSide, height <= WebPEncoder.maximumSide else {
            throw LumenError.unwritable(file: name, reason: "WebP images are at most \(WebPEncoder.maximumSide) pixels a side, not \(width)×\(height)")
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw LumenError.unwritable(file: name, reason: "libwebp version mismatch") }
        options.anim_params.loop_count = Int32(max(0, min(65535, loopCount)))
        options.allow_mixed = 0
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw LumenError.unwritable(file: name, reason: "cannot start a \(width)×\(height) WebP animation")
        }
        self.encoder = encoder
        self.width = width
        self.height = height
        self.format = format
        self.sink = sink
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    func frame(layout: EncodeLayout, milliseconds: Int) throws -> any ImageEncoder {
        guard layout.width == width, layout.height == height else {
            throw LumenError.unwritable(file: name, reason: "frame is \(layout.width)×\(layout.height), the animation \(width)×\(height)")
        }
        return BufferedFrame(layout) { [unowned self] picture in
            try add(picture.pixels, layout: picture.layout, milliseconds: milliseconds)
        }
    }

    /// Adds a frame of RGB(A) 8-bit rows shown for `milliseconds`.
    private func add(_ pixels: UnsafeRawPointer, layout: EncodeLayout, milliseconds: Int) throws {
        var config = try WebPEncoder.config(for: format, name: name)
        var picture = WebPPicture()
        try WebPEncoder.importPixels(pixels, layout: layout, into: &picture, lossless: format.lossless, name: name)
        defer { WebPPictureFree(&picture) }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
            throw LumenError.unwritable(file: name, reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        timestamp += max(1, milliseconds)
    }

    /// The finished file, with `metadata`'s chunks, written to the sink.
    func finish(metadata: ImageMetadata) throws -> Data? {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw LumenError.unwritable(file: name, reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var output = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let base = output.bytes else {
            throw LumenError.unwritable(file: name, reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPDataClear(&output) }
        return try sink.write(try WebPEncoder.attach(metadata, to: Data(bytes: base, count: output.size), name: name))
    }
}
