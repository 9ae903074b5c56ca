import CGIF
import LumenPlatform

extension ImageFileFormat {
    /// GIF (giflib): palette, transparency, interlace, animation; read only.
    public static let gif = ImageFileFormat(rawValue: "gif")
}

/// GIF through giflib, read only (as libvips and sharp write GIF through other means):
/// palette, transparency, interlacing, and every frame of an animation composited as
/// Pillow shows it. Frames are chosen with `Image.LoadOptions.frame` (`--frame N`).
struct GIFCodec: ImageCodec {
    var format: ImageFileFormat { .gif }
    var extensions: [String] { ["gif"] }
    let capabilities = CodecCapabilities(writes: false, animation: true)

    func recognizes(_ prefix: Data) -> Bool {
        prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8))
    }

    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder {
        try GIFDecoder(data: data, path: name, frame: frame)
    }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        throw LumenError.unwritable(file: sink.name, reason: "Lumen reads GIF but does not write it (write .webp for animations, .png for stills)")
    }
}

/// One frame of a GIF, rendered whole on the logical screen (GIF data cannot be read
/// from the middle: each frame depends on the ones before it).
final class GIFDecoder: ImageDecoder {
    /// The library decodes the whole picture (or frame) before bands are handed out.
    var decodesWhole: Bool { true }
    /// The most frames a GIF may have before it is refused (animations run to a few thousand).
    static let frameLimit = 100_000
    let header: ImageHeader
    var iccProfile: Data? { nil }
    private let data: Data
    private let path: String

    init(data: Data, path: String, frame: Int) throws {
        self.data = data
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        let scanned: (width: Int, height: Int, frames: [CGIF_Frame], palette: Int, loops: Int, truncated: Bool) = try data.withUnsafeBytes { bytes in
            guard let file = CGIF_open(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, ImageFile.defaultPixelLimit,
                                       Int32(Self.frameLimit), &message, message.count) else {
                throw LumenError.corrupt(file: path, reason: String(nulTerminated: message))
            }
            defer { CGIF_close(file) }
            let frames = (0..<CGIF_frame_count(file)).map { CGIF_frame(file, $0) }
            return (Int(CGIF_width(file)), Int(CGIF_height(file)), frames, Int(CGIF_palette_size(file)), Int(CGIF_loop_count(file)),
                    CGIF_truncated(file) != 0)
        }
        let frames = scanned.frames
        // Alpha when a frame has a transparent colour or the first leaves part of the screen unpainted.
        let first = frames[0]
        let covers = first.left <= 0 && first.top <= 0 && Int(first.left + first.width) >= scanned.width
            && Int(first.top + first.height) >= scanned.height
        let alpha = !covers || frames.contains { $0.transparentIndex >= 0 }
        var details = ["palette"]
        if scanned.palette > 0 { details.append("\(scanned.palette) colours") }
        if frames.contains(where: { $0.interlaced != 0 }) { details.append("interlaced") }
        if scanned.truncated { details.append("truncated after \(frames.count) complete frame\(frames.count == 1 ? "" : "s")") }
        if frames.count > 1 {
            details.append("\(frames.count) frames")
            details.append(scanned.loops < 0 ? "plays once" : scanned.loops == 0 ? "loops forever" : "loops \(scanned.loops)×")
        }
        header = ImageHeader(format: .gif, width: scanned.width, height: scanned.height, channels: alpha ? 4 : 3, bitDepth: 8,
                             hasAlpha: alpha, orientation: 1, hasICCProfile: false, details: details,
                             frameCount: frames.count,
                             frameDurations: frames.count > 1 ? frames.map { Double($0.delayCentiseconds) / 100 } : [],
                             frame: frame)
    }

    func layout(reduction: Int) -> DecodedLayout {
        DecodedLayout(width: header.width, height: header.height, channels: header.channels, depth: 8)
    }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let path = self.path, frame = header.frame
        try RowBand.decodeWhole(width: header.width, height: header.height, channels: header.channels, rows: rows, fill: { canvas in
            try data.withUnsafeBytes { bytes in
                var message = [CChar](repeating: 0, count: 256)
                guard let file = CGIF_open(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, ImageFile.defaultPixelLimit,
                                           Int32(Self.frameLimit), &message, message.count) else {
                    throw LumenError.corrupt(file: path, reason: String(nulTerminated: message))
                }
                defer { CGIF_close(file) }
                guard CGIF_render(file, Int32(frame), canvas) == 0 else {
                    throw LumenError.corrupt(file: path, reason: String(cString: CGIF_message(file)))
                }
            }
        }, body)
    }
}
