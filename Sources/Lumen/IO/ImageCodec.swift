import LumenPlatform

/// One file format: how to recognise it from its first bytes, read its header and
/// pixels, and write it, and what it can do (`capabilities`, as data). Each built-in format
/// lives in a folder of its own (`IO/JPEG`, `IO/PNG`, `IO/TIFF`) and is listed once in
/// `Codecs.builtIn`; nothing else switches on formats. Codecs from outside the library
/// join with `Codecs.register(_:)` and are then read and written like the built-in ones:
/// `Image(contentsOf:)`, `Image(data:)`, chains and `RenderContext.write`.
public protocol ImageCodec: Sendable {
    /// The format this codec reads and writes.
    var format: ImageFileFormat { get }
    /// File name extensions, lowercase, the preferred one first (`jpg`, `jpeg`).
    var extensions: [String] { get }
    /// The name in messages ("JPEG", "WebP").
    var displayName: String { get }
    /// What the codec reads and writes, and which encoder options it honours.
    var capabilities: CodecCapabilities { get }
    /// Whether a file starting with `prefix` (up to 32 bytes) is in this format.
    func recognizes(_ prefix: Data) -> Bool
    /// Whether the whole file `data` is in this format, for formats a prefix cannot tell
    /// (a camera's RAW file starts as any TIFF does). The default asks `recognizes(_:)`.
    func recognizes(contents data: Data) -> Bool
    /// A decoder over the file's bytes; reads the header now, pixels later. `name`
    /// names the file in errors; `frame` picks a frame of an animation (formats
    /// without frames ignore it; `ImageFile` checks it against `frameCount`).
    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder
    /// A decoder that develops a camera RAW file as `development` says (nil: as shot);
    /// other formats ignore it (the default calls `decoder(data:name:frame:)`).
    func decoder(data: Data, name: String, frame: Int, development: RAWDevelopment?) throws -> any ImageDecoder
    /// A decoder for the preview the file embeds (`capabilities.embeddedThumbnails`).
    func thumbnailDecoder(data: Data, name: String) throws -> any ImageDecoder
    /// An encoder writing `layout` into `sink` (`capabilities.writes`).
    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder
    /// An encoder writing an animation of `width` × `height` frames into `sink`
    /// (`capabilities.writesAnimation`); `loopCount` 0 loops forever.
    func animationEncoder(sink: EncodeSink, format: OutputFormat, width: Int, height: Int, loopCount: Int) throws -> any AnimationEncoder
}

extension ImageCodec {
    /// Formats are told by their first bytes unless they say otherwise.
    public func recognizes(contents data: Data) -> Bool { recognizes(data.prefix(32)) }

    /// Formats other than RAW have nothing to develop.
    public func decoder(data: Data, name: String, frame: Int, development: RAWDevelopment?) throws -> any ImageDecoder {
        try decoder(data: data, name: name, frame: frame)
    }

    /// The format's short name in capitals ("PNG").
    public var displayName: String { format.rawValue.uppercased() }

    /// Formats without embedded previews refuse.
    public func thumbnailDecoder(data: Data, name: String) throws -> any ImageDecoder {
        throw LumenError.unsupported(file: name, reason: "no embedded thumbnail")
    }

    /// Read-only formats refuse.
    public func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        throw LumenError.unsupported(file: sink.name, reason: "\(displayName) is read only")
    }

    /// Formats without animations refuse.
    public func animationEncoder(sink: EncodeSink, format: OutputFormat, width: Int, height: Int,
                                 loopCount: Int) throws -> any AnimationEncoder {
        throw LumenError.unsupported(file: sink.name, reason: "\(displayName) does not hold animations")
    }

    var supportsAlpha: Bool { capabilities.alpha }
    var depths: [Int] { capabilities.depths }
    var canEncode: Bool { capabilities.writes }
    var defaultQuality: Double { capabilities.defaultQuality }
}

/// Every format Lumen reads and writes: the built-in codecs (add one here, one line, and
/// its folder) and those registered from outside.
public enum Codecs {
    static let builtIn: [any ImageCodec] = [JPEGCodec(), PNGCodec(), TIFFCodec(), WebPCodec(), HEIFCodec.heic, HEIFCodec.avif, GIFCodec(), JXLCodec(), RAWCodec(), EXRCodec()]
    private static let registered = LockedValue([any ImageCodec]())

    /// Adds a codec: files it recognises are read with it, and paths with its extensions
    /// written with it. A codec for a format already known replaces that one.
    public static func register(_ codec: any ImageCodec) {
        registered.withLock { list in
            list.removeAll { $0.format == codec.format }
            list.append(codec)
        }
    }

    /// Every codec, registered ones first (so a registered codec replaces a built-in one).
    public static var all: [any ImageCodec] {
        let added = registered.withLock { $0 }
        return added + builtIn.filter { codec in !added.contains { $0.format == codec.format } }
    }

    /// The codec of `format`, if Lumen has one.
    public static func codec(for format: ImageFileFormat) -> (any ImageCodec)? {
        all.first { $0.format == format }
    }

    static func codec(forExtension pathExtension: String) -> (any ImageCodec)? {
        let ext = pathExtension.lowercased()
        return all.first { $0.extensions.contains(ext) }
    }

    static func codec(recognizing data: Data) -> (any ImageCodec)? {
        let codecs = all
        let added = Set(registered.withLock { $0.map(\.format) })
        // Registered codecs first, then RAW (a camera's TIFF-based RAW file is a TIFF too, but
        // not one to read as such), then the rest.
        let order = codecs.filter { added.contains($0.format) } + codecs.filter { !added.contains($0.format) && $0.format == .raw }
            + codecs.filter { !added.contains($0.format) && $0.format != .raw }
        return order.first { $0.recognizes(contents: data) }
    }

    /// "JPEG, PNG or TIFF", for messages.
    static var formatList: String { list(all.map(\.format.displayName)) }

    /// "use .jpg, .png or .tif", for messages: the formats Lumen writes.
    static var extensionList: String { list(all.filter(\.canEncode).compactMap(\.extensions.first).map { "." + $0 }) }

    /// The display names of the writable formats that honour `option` ("WebP, HEIC or AVIF").
    public static func formats(with option: CodecCapabilities.Option) -> String {
        list(all.filter { $0.capabilities.writes && $0.capabilities.options.contains(option) }.map(\.displayName))
    }

    /// "A, B or C", for messages.
    public static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
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

/// Opens a codec's library, loaded on first use rather than linked (`CLazyLibrary`), through
/// `open` (a C function returning 0 with its reason in the buffer); throws naming `file`
/// when the library cannot be loaded.
func openOnFirstUse(for file: String, _ open: (UnsafeMutablePointer<CChar>?, Int) -> Int32) throws {
    var why = [CChar](repeating: 0, count: 384)
    guard why.withUnsafeMutableBufferPointer({ open($0.baseAddress, $0.count) }) != 0 else {
        throw LumenError.unsupported(file: file, reason: why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }
}
