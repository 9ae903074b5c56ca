import LumenPlatform

/// How an output file is encoded. The file type usually comes from the path's
/// extension (`OutputFormat(path:)`); the options tune each codec.
public struct OutputFormat: Sendable, Equatable {
    /// TIFF compression schemes (their TIFF tag values): none, LZW or Deflate.
    public enum TIFFCompression: Int32, Sendable {
        /// Uncompressed.
        case none = 1
        /// LZW.
        case lzw = 5
        /// Deflate (zlib).
        case deflate = 8
    }

    /// The file type written (JPEG, PNG, TIFF, WebP, HEIC, AVIF).
    public var fileFormat: ImageFileFormat
    /// Quality 0…1 for lossy formats: JPEG (libjpeg's scale), WebP (`cwebp -q`), HEIC
    /// and AVIF (`heif-enc -q`), each divided by 100.
    public var quality: Double = 0.9
    /// JPEG: full-resolution chroma (4:4:4) instead of 4:2:0.
    public var chroma444: Bool = false
    /// JPEG: progressive scans instead of one baseline scan.
    public var progressive: Bool = false
    /// Bits per channel: 8 or 16 where the format has both (JPEG is always 8).
    public var depth: Int = 8
    /// zlib level 0…9 for PNG.
    public var compressionLevel: Int = 6
    /// PNG: the row filters libpng may choose from (libvips's and libpng's default: all, adaptively).
    public var pngFilter: PNGFilter = .adaptive

    /// The codec options of JPEG and PNG, as a batch sets them for every output.
    public struct Encoding: Sendable, Equatable {
        /// JPEG: 4:4:4 chroma instead of 4:2:0.
        public var chroma444 = false
        /// JPEG: progressive scans.
        public var progressive = false
        /// PNG: zlib level 0…9.
        public var compressionLevel = 6
        /// PNG: row filters.
        public var pngFilter = PNGFilter.adaptive
        /// The defaults (4:2:0 baseline JPEG, PNG level 6 with adaptive filters).
        public init() {}
        /// Sets these options on `format`.
        public func apply(to format: inout OutputFormat) {
            format.chroma444 = chroma444
            format.progressive = progressive
            format.compressionLevel = compressionLevel
            format.pngFilter = pngFilter
        }
    }

    /// PNG's row filters: one fixed, or libpng choosing among all five per row.
    public enum PNGFilter: String, Sendable, CaseIterable {
        /// No filtering (fastest; best for palette-like pictures).
        case none
        /// Each byte minus the one to its left.
        case sub
        /// Each byte minus the one above.
        case up
        /// Minus the average of left and above.
        case average
        /// Paeth's predictor.
        case paeth
        /// libpng picks per row among all five (the default).
        case adaptive

        /// libpng's PNG_FILTER_* mask.
        var mask: Int32 {
            switch self {
            case .none: return 0x08
            case .sub: return 0x10
            case .up: return 0x20
            case .average: return 0x40
            case .paeth: return 0x80
            case .adaptive: return 0xF8
            }
        }
    }
    /// JPEG XL: the encoder's effort, 1 (fastest) … 9 (smallest), as `cjxl -e` (default 7).
    public var effort: Int = 7
    /// JPEG XL: a butteraugli distance (`cjxl -d`: 0 lossless, 1 visually lossless, up to
    /// 25) used instead of `quality`; nil maps `quality` as `cjxl -q` does.
    public var distance: Double? = nil
    /// TIFF: how strips are compressed (Deflate by default, as libvips).
    public var tiffCompression: TIFFCompression = .deflate
    /// Which of the input's metadata the output keeps.
    public enum MetadataPolicy: Sendable, Equatable {
        /// EXIF, XMP, IPTC, the ICC profile and the resolution (the default, as libvips does).
        case all
        /// Only the ICC profile (`--keep icc`).
        case iccOnly
        /// Nothing (`--strip`); pixels are still written in the output profile.
        case strip
        /// Only these kinds (`--keep exif,xmp,icc`); `gps: false` takes the location out of
        /// the EXIF (the GPS sub-IFD is emptied and its values zeroed) and the XMP (`--strip-gps`).
        case kinds(Set<MetadataKind>, gps: Bool)
    }

    /// A kind of metadata a file carries.
    public enum MetadataKind: String, Sendable, CaseIterable, Hashable {
        /// Camera data, date, orientation (EXIF).
        case exif
        /// Adobe's XMP packet.
        case xmp
        /// The IPTC-IIM record (captions, keywords).
        case iptc
        /// The ICC colour profile.
        case icc
        /// The pixel density.
        case resolution
    }

    /// The colour profile the output's pixels are encoded in.
    public enum Profile: Sendable, Equatable {
        /// The input's own profile when it is an RGB profile Lumen can encode to (Display
        /// P3, Adobe RGB…), otherwise sRGB.
        case input
        /// sRGB (IEC 61966-2-1): colours outside it are clipped by the rendering intent.
        case sRGB
        /// Display P3 (Apple's wide gamut, sRGB's transfer curve).
        case displayP3
        /// An ICC profile's bytes (an RGB matrix/curves profile).
        case icc(Data)
    }

    /// Which of the input's metadata is written (all of it by default).
    public var metadata: MetadataPolicy = .all
    /// The colour profile the pixels are encoded in and which is embedded (the input's by default).
    public var profile: Profile = .input

    /// What becomes of an input's HDR gain map (an Ultra HDR JPEG's or an iPhone HEIC's) in the output.
    public enum HDRPolicy: String, Sendable, CaseIterable {
        /// Written back when every step from the file only places pixels (turns, crops,
        /// scales): as an Ultra HDR JPEG for a JPEG output, as Apple's gain map (an auxiliary
        /// image and the EXIF maker note's headroom, as iPhones write it) for a HEIC output.
        /// Otherwise left out, with a warning in the render's report when the output could
        /// have held it. The default.
        case keep
        /// Left out: the output is the SDR picture alone.
        case drop
        /// The HDR rendition instead of the SDR picture: each input's gain map applied at
        /// full headroom before any step (so colour filters work on HDR values), then, for
        /// outputs that hold SDR only, tone-mapped to SDR white by `toneMapHeadroom`'s curve
        /// from the largest input headroom; EXR, float TIFF and PQ/HLG PNG keep the HDR
        /// values. No gain map is written.
        case tonemap
    }

    /// What becomes of the input's HDR gain map (kept where the output can hold it, by default).
    public var hdr: HDRPolicy = .keep

    /// How the codes stand for light: sRGB's curve by default; PQ or HLG (16-bit PNG only)
    /// keep values above SDR white.
    public var transfer: Transfer = .sRGB

    /// WebP, HEIC and AVIF: lossless instead of lossy (quality then means effort, as in cwebp).
    public var lossless: Bool = false

    /// The bits per sample of the rows an encoder receives: 8, or 16 for anything deeper
    /// (HEIC and AVIF narrow them to 10 bits); 32, linear-light floats, for formats that
    /// hold only those (OpenEXR) or when asked of one that has them (TIFF).
    var sampleDepth: Int {
        let capabilities = Codecs.codec(for: fileFormat)?.capabilities
        if capabilities?.linearFloat == true || (depth == 32 && capabilities?.depths.contains(32) == true) { return 32 }
        return depth > 8 ? 16 : 8
    }

    /// The formats with their default options, for `format: .png` without parentheses.
    public static let jpeg = OutputFormat(fileFormat: .jpeg)
    /// PNG, 8 bits, zlib level 6.
    public static let png = OutputFormat(fileFormat: .png)
    /// TIFF, 8 bits, Deflate.
    public static let tiff = OutputFormat(fileFormat: .tiff)
    /// Lossy WebP at cwebp's default quality, 0.75.
    public static let webp = OutputFormat(fileFormat: .webp)
    /// HEIC at heif-enc's default quality, 0.5, 8 bits.
    public static let heic = OutputFormat(fileFormat: .heic)
    /// AVIF at heif-enc's default quality, 0.5, 8 bits.
    public static let avif = OutputFormat(fileFormat: .avif)

    /// WebP: `quality` 0…1 as `cwebp -q` / 100 (default 0.75), or lossless.
    public static func webp(quality: Double = 0.75, lossless: Bool = false) -> OutputFormat {
        OutputFormat(fileFormat: .webp, quality: quality, lossless: lossless)
    }

    /// HEIC (HEVC): `quality` 0…1 as `heif-enc -q` / 100 (default 0.5), 8 or 10 bits.
    public static func heic(quality: Double = 0.5, depth: Int = 8, lossless: Bool = false) -> OutputFormat {
        OutputFormat(fileFormat: .heic, quality: quality, depth: depth, lossless: lossless)
    }

    /// AVIF (AV1): `quality` 0…1 as `heif-enc -q` / 100 (default 0.5), 8 or 10 bits.
    public static func avif(quality: Double = 0.5, depth: Int = 8, lossless: Bool = false) -> OutputFormat {
        OutputFormat(fileFormat: .avif, quality: quality, depth: depth, lossless: lossless)
    }

    /// JPEG XL at cjxl's default (quality 0.9, distance 1, effort 7), 8 bits.
    public static let jxl = OutputFormat(fileFormat: .jxl)

    /// JPEG XL: `quality` 0…1 as `cjxl -q` / 100 (default 0.9; 1 is lossless), or a
    /// butteraugli `distance` instead; `effort` 1…9 as `cjxl -e`; 8 or 16 bits.
    public static func jxl(quality: Double = 0.9, distance: Double? = nil, effort: Int = 7, depth: Int = 8, lossless: Bool = false) -> OutputFormat {
        var format = OutputFormat(fileFormat: .jxl, quality: quality, depth: depth, lossless: lossless)
        format.distance = distance
        format.effort = effort
        return format
    }

    /// JPEG: `quality` 0…1 as libjpeg's 0…100 / 100 (default 0.9), 4:2:0 chroma unless `chroma444`, baseline unless `progressive`.
    public static func jpeg(quality: Double = 0.9, chroma444: Bool = false, progressive: Bool = false) -> OutputFormat {
        OutputFormat(fileFormat: .jpeg, quality: quality, chroma444: chroma444, progressive: progressive)
    }

    /// PNG with 8 or 16 bits per channel and a zlib level 0…9.
    public static func png(depth: Int = 8, compressionLevel: Int = 6) -> OutputFormat {
        OutputFormat(fileFormat: .png, depth: depth, compressionLevel: compressionLevel)
    }

    /// TIFF with 8 or 16 bits per channel and a compression scheme.
    public static func tiff(depth: Int = 8, compression: TIFFCompression = .deflate) -> OutputFormat {
        OutputFormat(fileFormat: .tiff, depth: depth, tiffCompression: compression)
    }

    /// The default format for a path's extension, or nil for an unknown extension.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.contains("."), let ext = name.split(separator: ".").last,
              let format = ImageFileFormat(pathExtension: String(ext)), format.isWritable else { return nil }
        self.init(fileFormat: format)
    }

    /// Whether the format can keep an alpha channel.
    public var supportsAlpha: Bool { Codecs.codec(for: fileFormat)?.supportsAlpha ?? false }

    /// A format with options; `quality` defaults to the codec's own tool's default (0.9
    /// for JPEG, cwebp's 0.75 for WebP, heif-enc's 0.5 for HEIC and AVIF).
    public init(fileFormat: ImageFileFormat, quality: Double? = nil, chroma444: Bool = false,
                progressive: Bool = false, depth: Int = 8, compressionLevel: Int = 6,
                tiffCompression: TIFFCompression = .deflate, lossless: Bool = false) {
        self.fileFormat = fileFormat
        self.quality = quality ?? Codecs.codec(for: fileFormat)?.defaultQuality ?? 0.9
        self.lossless = lossless
        self.chroma444 = chroma444
        self.progressive = progressive
        let depths = Codecs.codec(for: fileFormat)?.depths ?? [8]
        self.depth = depths.contains(depth) ? depth : depths.last ?? 8
        self.compressionLevel = compressionLevel
        self.tiffCompression = tiffCompression
    }
}
