/// What a codec can do, declared once by the codec as data. The rest of Lumen reads it
/// instead of switching on formats: the writer (alpha, depths), shrink-on-load (the
/// reductions every file of the format offers), `lumen thumbnail` (embedded previews),
/// the command line's option checks and help, `lumen formats`, and the fuzz script.
public struct CodecCapabilities: Sendable, Equatable {
    /// An encoder option a format honours.
    public enum Option: String, Sendable, CaseIterable, Comparable {
        /// `quality` (0…1).
        case quality
        /// `lossless`.
        case lossless
        /// `chroma444` (4:4:4 instead of 4:2:0 chroma).
        case chromaSubsampling = "chroma-subsampling"
        /// `progressive` scans.
        case progressive
        /// `compressionLevel` (zlib 0…9).
        case compressionLevel = "compression-level"
        /// `pngFilter` (row filters).
        case rowFilter = "row-filter"
        /// `tiffCompression` (none, LZW, Deflate).
        case compression
        /// `effort` (the encoder's speed/size trade, JPEG XL's 1…9).
        case effort
        /// `distance` (JPEG XL's butteraugli distance, instead of a quality).
        case distance
        /// JPEG input recompressed without decoding, rebuilt bit for bit (`JPEGXL.recompress`).
        case losslessJPEG = "lossless-jpeg"

        /// Options in declaration order (as `lumen formats` lists them).
        public static func < (a: Option, b: Option) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// Lumen reads the format.
    public var reads: Bool
    /// Lumen writes the format.
    public var writes: Bool
    /// Bits per channel the encoder writes (8; 16 where the format has it; 10 for HEIF).
    public var depths: [Int]
    /// Whether outputs keep an alpha channel (otherwise they are flattened).
    public var alpha: Bool
    /// Whether files may hold several frames (an animation or a sequence) that Lumen reads.
    public var animation: Bool
    /// Whether the codec writes animations (`ImageCodec.animationEncoder`).
    public var writesAnimation: Bool
    /// Reductions every file of the format decodes to directly (JPEG's DCT scaling: 2, 4, 8).
    /// Files may offer more of their own (a TIFF pyramid's levels: `ImageHeader.reductions`).
    public var shrinkOnLoad: [Int]
    /// Whether a reduced level is read from the file's own pyramid when it has one.
    public var pyramids: Bool
    /// Whether files may embed a preview the decoder can read instead of the image.
    public var embeddedThumbnails: Bool
    /// The metadata the encoder writes.
    public var metadata: Set<OutputFormat.MetadataKind>
    /// The encoder options the format honours.
    public var options: Set<Option>
    /// The quality 0…1 an output gets when none is asked for.
    public var defaultQuality: Double
    /// Whether the encoder takes linear-light Float32 rows (premultiplied RGBA, values above
    /// 1 kept) instead of 8- or 16-bit codes, whatever depth it writes (OpenEXR).
    public var linearFloat = false

    /// A codec that reads and writes 8-bit files with alpha and nothing more, unless told otherwise.
    public init(reads: Bool = true, writes: Bool = true, depths: [Int] = [8], alpha: Bool = true, animation: Bool = false,
                writesAnimation: Bool = false, shrinkOnLoad: [Int] = [], pyramids: Bool = false, embeddedThumbnails: Bool = false,
                metadata: Set<OutputFormat.MetadataKind> = [], options: Set<Option> = [], defaultQuality: Double = 0.9) {
        self.reads = reads
        self.writes = writes
        self.depths = depths
        self.alpha = alpha
        self.animation = animation
        self.writesAnimation = writesAnimation
        self.shrinkOnLoad = shrinkOnLoad
        self.pyramids = pyramids
        self.embeddedThumbnails = embeddedThumbnails
        self.metadata = metadata
        self.options = options
        self.defaultQuality = defaultQuality
    }
}
