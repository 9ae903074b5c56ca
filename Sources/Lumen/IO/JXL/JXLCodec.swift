import LumenPlatform
import CJXL

extension ImageFileFormat {
    /// JPEG XL (libjxl): 8 and 16 bits, alpha, animation, ICC, EXIF and XMP; read and written.
    public static let jxl = ImageFileFormat(rawValue: "jxl")
}

/// JPEG XL through libjxl (opened on first use, `Sources/CJXL`): 8- to 16-bit and float
/// files (delivered as 16-bit), gray or RGB, alpha, animations (each frame composited as
/// shown), the orientation field, the colour profile the pixels are in, and the Exif and
/// XMP boxes. Writes lossy files with `cjxl`'s quality scale (or a butteraugli distance)
/// and effort, or mathematically lossless ones; `JXLCodec.recompress(jpeg:)` turns a JPEG
/// into a JPEG XL that gives the same JPEG back bit for bit (`cjxl`'s default for JPEG input).
struct JXLCodec: ImageCodec {
    var format: ImageFileFormat { .jxl }
    var extensions: [String] { ["jxl"] }
    var displayName: String { "JPEG XL" }
    /// cjxl's default is distance 1, which its quality scale calls 90.
    let capabilities = CodecCapabilities(depths: [8, 16], animation: true, writesAnimation: true, metadata: [.exif, .xmp, .icc],
                                         options: [.quality, .lossless, .effort, .distance, .losslessJPEG], defaultQuality: 0.9)

    func recognizes(_ prefix: Data) -> Bool {
        let bytes = [UInt8](prefix.prefix(12))
        let container: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        return bytes.starts(with: [0xFF, 0x0A]) || bytes == container
    }

    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder {
        try JXLDecoder(data: data, path: name, frame: frame)
    }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        try JXLEncoder(sink: sink, format: format, layout: layout)
    }

    func animationEncoder(sink: EncodeSink, format: OutputFormat, width: Int, height: Int, loopCount: Int) throws -> any AnimationEncoder {
        try JXLAnimationEncoder(sink: sink, format: format, width: width, height: height, loopCount: loopCount)
    }

    /// The butteraugli distance `cjxl -q quality` uses (quality 0…100): 0.1 + (100 − q) × 0.09
    /// from 30 up, a parabola below it; 100 is lossless (distance 0).
    static func distance(quality: Double) -> Double {
        let q = max(0, min(100, quality))
        if q >= 100 { return 0 }
        return q >= 30 ? 0.1 + (100 - q) * 0.09 : 53.0 / 3000.0 * q * q - 23.0 / 20.0 * q + 25.0
    }

    /// Threads libjxl may use for one picture.
    static var threads: Int32 { Int32(min(8, max(1, ProcessInfo.processInfo.activeProcessorCount))) }

    /// Recompresses a JPEG's bytes into JPEG XL without decoding them to pixels (about 20 %
    /// smaller); `djxl` or `reconstructJPEG(from:)` gives the original JPEG back bit for bit.
    /// `name` names the input in errors.
    static func recompress(jpeg: Data, effort: Int = 7, name: String) throws -> Data {
        var out = CJXL_Buffer()
        var error = [CChar](repeating: 0, count: 256)
        let ok = jpeg.withUnsafeBytes { bytes in
            CJXL_recompress_jpeg(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(effort), threads, &out, &error, error.count)
        }
        defer { CJXL_free(&out) }
        guard ok != 0, let base = out.data else { throw LumenError.unwritable(file: name, reason: String(nulTerminated: error)) }
        return Data(bytes: base, count: out.size)
    }

    /// The JPEG a recompressed JPEG XL came from, byte for byte.
    static func reconstructJPEG(from jxl: Data, name: String) throws -> Data {
        var out = CJXL_Buffer()
        var error = [CChar](repeating: 0, count: 256)
        let ok = jxl.withUnsafeBytes { bytes in
            CJXL_reconstruct_jpeg(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &out, &error, error.count)
        }
        defer { CJXL_free(&out) }
        guard ok != 0, let base = out.data else { throw LumenError.corrupt(file: name, reason: String(nulTerminated: error)) }
        return Data(bytes: base, count: out.size)
    }
}

extension JPEGXL {
    /// Recompresses a JPEG file's bytes into JPEG XL losslessly: the pixels are not
    /// decoded, and `reconstructJPEG(from:)` (or `djxl`) gives the same JPEG back, bit for
    /// bit, from a file about 20 % smaller. `effort` is cjxl's 1…9. Throws for JPEGs libjxl
    /// cannot keep exactly (arithmetic-coded ones), naming `name`.
    public static func recompress(jpeg: Data, effort: Int = 7, name: String = "<jpeg>") throws -> Data {
        guard (1...9).contains(effort) else { throw LumenError.invalidValue(filter: "JPEGXL.recompress", key: "effort", reason: "must be 1…9, got \(effort)") }
        guard jpeg.starts(with: [0xFF, 0xD8]) else { throw LumenError.unreadable(file: name, reason: "not a JPEG file") }
        return try JXLCodec.recompress(jpeg: jpeg, effort: effort, name: name)
    }

    /// Recompresses the JPEG file at `input` into a JPEG XL file at `output` (written
    /// atomically: a failure leaves nothing behind), as `cjxl input.jpg output.jxl` does.
    public static func recompress(jpegAt input: URL, to output: URL, effort: Int = 7) throws {
        let jpeg: Data
        do {
            jpeg = try Data(contentsOf: input)
        } catch {
            throw LumenError.unreadable(file: input.path, reason: describeFileError(error, at: input.path))
        }
        let jxl = try recompress(jpeg: jpeg, effort: effort, name: input.path)
        try ImageWriter.atomically(to: output) { sink in _ = try sink.write(jxl) }
    }

    /// The JPEG a losslessly recompressed JPEG XL came from, byte for byte. Throws when the
    /// file was not made from a JPEG.
    public static func reconstructJPEG(from jxl: Data, name: String = "<jxl>") throws -> Data {
        try JXLCodec.reconstructJPEG(from: jxl, name: name)
    }
}

/// JPEG XL operations that are not a decode or an encode of pixels.
public enum JPEGXL {}

/// One frame of a JPEG XL, decoded whole by libjxl (in its own threads) into the layout
/// Lumen delivers: the colour channels plus alpha, 8-bit for files of up to 8 bits, else 16.
final class JXLDecoder: ImageDecoder {
    var decodesWhole: Bool { true }
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String
    private let decodedLayout: DecodedLayout

    init(data: Data, path: String, frame: Int) throws {
        self.data = data
        self.path = path
        var info = CJXL_Info()
        var icc = CJXL_Buffer(), exif = CJXL_Buffer(), xmp = CJXL_Buffer(), durations = CJXL_Buffer()
        var error = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes { bytes in
            CJXL_read_info(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &info, &icc, &exif, &xmp, &durations, &error, error.count)
        }
        defer { CJXL_free(&icc); CJXL_free(&exif); CJXL_free(&xmp); CJXL_free(&durations) }
        guard ok != 0 else {
            let reason = String(nulTerminated: error)
            throw reason.hasPrefix("libjxl") ? LumenError.unsupported(file: path, reason: reason) : LumenError.corrupt(file: path, reason: reason)
        }
        func bytes(_ buffer: CJXL_Buffer) -> Data? { buffer.data.map { Data(bytes: $0, count: buffer.size) } }
        metadata = ImageMetadata(iccProfile: bytes(icc), exif: bytes(exif), xmp: bytes(xmp))
        let channels = Int(info.color_channels) + (info.has_alpha != 0 ? 1 : 0)
        let depth = info.bits > 8 || info.is_float != 0 ? 16 : 8
        decodedLayout = DecodedLayout(width: Int(info.width), height: Int(info.height), channels: channels, depth: depth)
        var details = [info.lossy != 0 ? "lossy" : "lossless"]
        if info.is_float != 0 { details.append("float \(info.bits)-bit") }
        if info.jpeg_reconstruction != 0 { details.append("recompressed JPEG") }
        if info.intensity_target > 255 { details.append("HDR, \(info.intensity_target) nits") }
        var frameDurations: [Double] = []
        if info.animated != 0 {
            details.append("\(info.frame_count) frames")
            details.append(info.loop_count == 0 ? "loops forever" : "loops \(info.loop_count)×")
            if let base = durations.data {
                frameDurations = (0..<(durations.size / 4)).map { i in
                    Double(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) / 1000
                }
            }
        }
        header = ImageHeader(format: .jxl, width: Int(info.width), height: Int(info.height), channels: channels,
                             bitDepth: info.is_float != 0 ? 16 : Int(min(16, info.bits)), hasAlpha: info.has_alpha != 0,
                             orientation: Int((1...8).contains(info.orientation) ? info.orientation : 1),
                             hasICCProfile: metadata.iccProfile != nil, iccDescription: ColorProfile(metadata.iccProfile)?.description,
                             details: details, frameCount: Int(info.frame_count), frameDurations: frameDurations, frame: frame)
    }

    func layout(reduction: Int) -> DecodedLayout { decodedLayout }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let layout = decodedLayout
        let rowBytes = layout.width * layout.channels * layout.depth / 8
        let total = rowBytes * layout.height
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: max(1, total), alignment: 64)
        defer { pixels.deallocate() }
        var error = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes { bytes in
            CJXL_decode(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, UInt32(header.frame), UInt32(layout.channels),
                        UInt32(layout.depth), pixels, total, JXLCodec.threads, &error, error.count)
        }
        guard ok != 0 else { throw LumenError.corrupt(file: path, reason: String(nulTerminated: error)) }
        try RowBand.deliver(whole: pixels, bytesPerRow: rowBytes, height: layout.height, rows: rows, body)
    }
}

/// Writes a JPEG XL: the rows are gathered (libjxl encodes whole frames), then encoded
/// at the quality's distance (or the distance given) and effort, or losslessly.
final class JXLEncoder: ImageEncoder {
    private let sink: EncodeSink
    private let format: OutputFormat
    private let picture: PictureBuffer

    init(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws {
        guard (1...4).contains(layout.channels), layout.depth == 8 || layout.depth == 16 else {
            throw LumenError.unwritable(file: sink.name, reason: "JPEG XL takes 8- or 16-bit gray or RGB rows, with or without alpha")
        }
        guard layout.width <= 1 << 30, layout.height <= 1 << 30 else {
            throw LumenError.unwritable(file: sink.name, reason: "JPEG XL images are at most 2^30 pixels a side")
        }
        var error = [CChar](repeating: 0, count: 256)
        guard CJXL_available(&error, error.count) != 0 else { throw LumenError.unsupported(file: sink.name, reason: String(nulTerminated: error)) }
        self.sink = sink
        self.format = format
        picture = PictureBuffer(layout)
    }

    func write(_ band: RowBand) throws { picture.write(band) }

    func finish() throws -> Data? {
        let layout = picture.layout
        let metadata = layout.metadata
        var settings = CJXL_EncodeSettings()
        settings.width = UInt32(layout.width)
        settings.height = UInt32(layout.height)
        settings.channels = UInt32(layout.channels)
        settings.depth = UInt32(layout.depth)
        settings.distance = Float(format.distance ?? JXLCodec.distance(quality: format.quality * 100))
        settings.lossless = format.lossless || (format.distance == nil && format.quality >= 1) ? 1 : 0
        settings.effort = Int32(format.effort)
        settings.threads = JXLCodec.threads
        var out = CJXL_Buffer()
        var error = [CChar](repeating: 0, count: 256)
        let icc = metadata.iccProfile ?? Data(), exif = metadata.exif ?? Data(), xmp = metadata.xmp ?? Data()
        let ok = icc.withUnsafeBytes { iccBytes in
            exif.withUnsafeBytes { exifBytes in
                xmp.withUnsafeBytes { xmpBytes in
                    settings.icc = iccBytes.isEmpty ? nil : iccBytes.bindMemory(to: UInt8.self).baseAddress
                    settings.icc_size = iccBytes.count
                    settings.exif = exifBytes.isEmpty ? nil : exifBytes.bindMemory(to: UInt8.self).baseAddress
                    settings.exif_size = exifBytes.count
                    settings.xmp = xmpBytes.isEmpty ? nil : xmpBytes.bindMemory(to: UInt8.self).baseAddress
                    settings.xmp_size = xmpBytes.count
                    return CJXL_encode(&settings, picture.pixels, &out, &error, error.count)
                }
            }
        }
        defer { CJXL_free(&out) }
        guard ok != 0, let base = out.data else { throw LumenError.unwritable(file: sink.name, reason: String(nulTerminated: error)) }
        return try sink.write(Data(bytes: base, count: out.size))
    }
}

/// Writes an animated JPEG XL: 8-bit RGBA frames in sRGB, each with its duration (ticks of a
/// millisecond), encoded as they come at the format's distance and effort, or losslessly.
final class JXLAnimationEncoder: AnimationEncoder {
    private let animation: OpaquePointer
    private let sink: EncodeSink
    private let width: Int, height: Int

    init(sink: EncodeSink, format: OutputFormat, width: Int, height: Int, loopCount: Int) throws {
        guard width > 0, height > 0, width <= 1 << 30, height <= 1 << 30 else {
            throw LumenError.unwritable(file: sink.name, reason: "JPEG XL frames must be 1…2^30 pixels a side, not \(width)×\(height)")
        }
        var error = [CChar](repeating: 0, count: 256)
        let distance = Float(format.distance ?? JXLCodec.distance(quality: format.quality * 100))
        let lossless = format.lossless || (format.distance == nil && format.quality >= 1)
        guard let animation = CJXL_animation_begin(UInt32(width), UInt32(height), distance, Int32(format.effort), lossless ? 1 : 0,
                                                   UInt32(max(0, loopCount)), JXLCodec.threads, &error, error.count) else {
            throw LumenError.unwritable(file: sink.name, reason: String(nulTerminated: error))
        }
        self.animation = animation
        self.sink = sink
        self.width = width
        self.height = height
    }

    deinit { CJXL_animation_free(animation) }

    func frame(layout: EncodeLayout, milliseconds: Int) throws -> any ImageEncoder {
        guard layout.width == width, layout.height == height, layout.depth == 8, layout.channels == 3 || layout.channels == 4 else {
            throw LumenError.unwritable(file: sink.name, reason: "JPEG XL animation frames are \(width)×\(height) 8-bit RGB(A), not \(layout.width)×\(layout.height) \(layout.depth)-bit")
        }
        return BufferedFrame(layout) { [unowned self] picture in try add(picture, milliseconds: milliseconds) }
    }

    private func add(_ picture: PictureBuffer, milliseconds: Int) throws {
        let count = width * height
        let source = picture.pixels.assumingMemoryBound(to: UInt8.self)
        var rgba = [UInt8](repeating: 255, count: count * 4)
        if picture.layout.channels == 4 {
            rgba.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: source, count: count * 4) }
        } else {
            for i in 0..<count { rgba[4 * i] = source[3 * i]; rgba[4 * i + 1] = source[3 * i + 1]; rgba[4 * i + 2] = source[3 * i + 2] }
        }
        var error = [CChar](repeating: 0, count: 256)
        guard CJXL_animation_add(animation, rgba, UInt32(max(0, min(Int(UInt32.max), milliseconds))), &error, error.count) != 0 else {
            throw LumenError.unwritable(file: sink.name, reason: String(nulTerminated: error))
        }
    }

    func finish(metadata: ImageMetadata) throws -> Data? {
        var out = CJXL_Buffer()
        var error = [CChar](repeating: 0, count: 256)
        let exif = metadata.exif ?? Data(), xmp = metadata.xmp ?? Data()
        let ok = exif.withUnsafeBytes { e in
            xmp.withUnsafeBytes { x in
                CJXL_animation_finish(animation, e.isEmpty ? nil : e.bindMemory(to: UInt8.self).baseAddress, e.count,
                                      x.isEmpty ? nil : x.bindMemory(to: UInt8.self).baseAddress, x.count, &out, &error, error.count)
            }
        }
        defer { CJXL_free(&out) }
        guard ok != 0, let base = out.data else { throw LumenError.unwritable(file: sink.name, reason: String(nulTerminated: error)) }
        return try sink.write(Data(bytes: base, count: out.size))
    }
}
