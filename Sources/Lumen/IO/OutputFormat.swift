/// How an output file is encoded. The file type usually comes from the path's
/// extension (`OutputFormat(path:)`); the options tune each codec.
public struct OutputFormat: Sendable, Equatable {
    public enum TIFFCompression: Int32, Sendable {
        case none = 1, lzw = 5, deflate = 8
    }

    public var fileFormat: ImageFileFormat
    /// JPEG quality 0…1.
    public var quality: Double = 0.9
    /// JPEG: full-resolution chroma (4:4:4) instead of 4:2:0.
    public var chroma444: Bool = false
    public var progressive: Bool = false
    /// Bits per channel: 8 or 16 where the format has both (JPEG is always 8).
    public var depth: Int = 8
    /// zlib level 0…9 for PNG.
    public var compressionLevel: Int = 6
    public var tiffCompression: TIFFCompression = .deflate

    /// The formats with their default options, for `format: .png` without parentheses.
    public static let jpeg = OutputFormat(fileFormat: .jpeg)
    public static let png = OutputFormat(fileFormat: .png)
    public static let tiff = OutputFormat(fileFormat: .tiff)

    public static func jpeg(quality: Double = 0.9, chroma444: Bool = false, progressive: Bool = false) -> OutputFormat {
        OutputFormat(fileFormat: .jpeg, quality: quality, chroma444: chroma444, progressive: progressive)
    }

    public static func png(depth: Int = 8, compressionLevel: Int = 6) -> OutputFormat {
        OutputFormat(fileFormat: .png, depth: depth, compressionLevel: compressionLevel)
    }

    public static func tiff(depth: Int = 8, compression: TIFFCompression = .deflate) -> OutputFormat {
        OutputFormat(fileFormat: .tiff, depth: depth, tiffCompression: compression)
    }

    /// The default format for a path's extension, or nil for an unknown extension.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.contains("."), let ext = name.split(separator: ".").last,
              let format = ImageFileFormat(pathExtension: String(ext)) else { return nil }
        self.init(fileFormat: format)
    }

    /// Whether the format can keep an alpha channel.
    public var supportsAlpha: Bool { Codecs.codec(for: fileFormat)?.supportsAlpha ?? false }

    public init(fileFormat: ImageFileFormat, quality: Double = 0.9, chroma444: Bool = false,
                progressive: Bool = false, depth: Int = 8, compressionLevel: Int = 6,
                tiffCompression: TIFFCompression = .deflate) {
        self.fileFormat = fileFormat
        self.quality = quality
        self.chroma444 = chroma444
        self.progressive = progressive
        let depths = Codecs.codec(for: fileFormat)?.depths ?? [8]
        self.depth = depths.contains(depth) ? depth : depths.last ?? 8
        self.compressionLevel = compressionLevel
        self.tiffCompression = tiffCompression
    }
}
