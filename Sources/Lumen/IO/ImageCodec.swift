import Foundation

/// One file format: how to recognise it from its first bytes, read its header and
/// pixels, and write it. Each format lives in a folder of its own (`IO/JPEG`, `IO/PNG`,
/// `IO/TIFF`) and is listed once in `Codecs.all`; nothing else switches on formats.
protocol ImageCodec: Sendable {
    var format: ImageFileFormat { get }
    /// File name extensions, lowercase, the preferred one first (`jpg`, `jpeg`).
    var extensions: [String] { get }
    /// Whether a file starting with `prefix` (up to 32 bytes) is in this format.
    func recognizes(_ prefix: Data) -> Bool
    /// A decoder over the file's bytes; reads the header now, pixels later. `name`
    /// names the file in errors; `frame` picks a frame of an animation (formats
    /// without frames ignore it; `ImageFile` checks it against `frameCount`).
    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder

    /// Whether outputs may keep an alpha channel (otherwise they are flattened).
    var supportsAlpha: Bool { get }
    /// Bits per channel the encoder writes (e.g. [8] or [8, 16]).
    var depths: [Int] { get }
    /// An encoder writing `layout` into `sink`.
    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder
    /// Whether Lumen writes this format (GIF is read only).
    var canEncode: Bool { get }
    /// The name in messages ("JPEG", "WebP").
    var displayName: String { get }
    /// The quality 0…1 an output gets when none is asked for: the codec's own tool's
    /// default (cjpeg's 75 is not Lumen's 90, but cwebp's 75 and heif-enc's 50 are).
    var defaultQuality: Double { get }
}

extension ImageCodec {
    var canEncode: Bool { true }
    var defaultQuality: Double { 0.9 }
    var displayName: String { format.rawValue.uppercased() }
}

/// Every format Lumen reads and writes: add a codec here (one line) and its folder.
enum Codecs {
    static let all: [any ImageCodec] = [JPEGCodec(), PNGCodec(), TIFFCodec(), WebPCodec(), HEIFCodec.heic, HEIFCodec.avif, GIFCodec()]

    static func codec(for format: ImageFileFormat) -> (any ImageCodec)? {
        all.first { $0.format == format }
    }

    static func codec(forExtension pathExtension: String) -> (any ImageCodec)? {
        let ext = pathExtension.lowercased()
        return all.first { $0.extensions.contains(ext) }
    }

    static func codec(recognizing data: Data) -> (any ImageCodec)? {
        let prefix = data.prefix(32)
        return all.first { $0.recognizes(prefix) }
    }

    /// "JPEG, PNG or TIFF", for messages.
    static var formatList: String {
        let names = all.map(\.format.displayName)
        return names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// "use .jpg, .png or .tif", for messages: the formats Lumen writes.
    static var extensionList: String {
        let names = all.filter(\.canEncode).compactMap(\.extensions.first).map { "." + $0 }
        return names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// A file format, by its short name (`jpeg`, `png`, `tiff`). Formats are open: a codec
/// adds its own constant.
public struct ImageFileFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The short lower-case name (`jpeg`).
    public let rawValue: String
    /// A format by its short name (any letter case); it need not have a codec.
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

    /// Every format Lumen has a codec for.
    public static var all: [ImageFileFormat] { Codecs.all.map(\.format) }

    /// The formats Lumen writes (all but GIF).
    public static var writable: [ImageFileFormat] { Codecs.all.filter(\.canEncode).map(\.format) }

    /// Whether Lumen can write this format.
    public var isWritable: Bool { Codecs.codec(for: self)?.canEncode ?? false }

    /// The format a path's extension names (.jpg/.jpeg, .png, .tif/.tiff…), if any.
    public init?(pathExtension: String) {
        guard let codec = Codecs.codec(forExtension: pathExtension) else { return nil }
        self = codec.format
    }

    /// A format by name or extension (`jpeg`, `jpg`, `tiff`, `tif`), as `--format` takes it.
    public init?(name: String) {
        if let codec = Codecs.codec(for: ImageFileFormat(rawValue: name)) ?? Codecs.codec(forExtension: name) {
            self = codec.format
        } else {
            return nil
        }
    }

    /// The format the first bytes of a file announce, if any.
    init?(magic bytes: Data) {
        guard let codec = Codecs.codec(recognizing: bytes) else { return nil }
        self = codec.format
    }

    /// The preferred file name extension (`jpg`).
    public var preferredExtension: String { Codecs.codec(for: self)?.extensions.first ?? rawValue }

    /// Upper-case name for messages (`JPEG`).
    public var displayName: String { Codecs.codec(for: self)?.displayName ?? rawValue.uppercased() }

    /// The short name.
    public var description: String { rawValue }
}
