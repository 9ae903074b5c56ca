import LumenPlatform

/// What a file's header says, read without decoding pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The file's format, found from its content (not its name).
    public var format: ImageFileFormat
    /// Stored size in pixels (before orientation is applied).
    public var width: Int
    /// Stored height in pixels (before orientation is applied).
    public var height: Int
    /// Channels as stored: 1 gray, 2 gray+alpha, 3 RGB/YCbCr, 4 RGBA or CMYK.
    public var channels: Int
    /// Bits per channel as stored (1, 2, 4, 8 or 16).
    public var bitDepth: Int
    /// Whether the stored image has an alpha channel (or a transparent palette entry).
    public var hasAlpha: Bool
    /// EXIF orientation 1–8 (1 when absent).
    public var orientation: Int
    /// Whether the file embeds an ICC colour profile.
    public var hasICCProfile: Bool
    /// The embedded profile's description ("Adobe RGB (1998)"), when there is one.
    public var iccDescription: String? = nil
    /// A short description of the encoding (e.g. "progressive", "CMYK", "palette", "LZW").
    public var details: [String]
    /// Frames in the file: more than 1 for animated GIF and WebP.
    public var frameCount: Int = 1
    /// How long each frame shows, in seconds (empty for still images).
    public var frameDurations: [Double] = []
    /// The frame this header's image is (0 = the first).
    public var frame: Int = 0
    /// The largest preview image the file embeds (HEIC and AVIF), 0×0 when none.
    public var thumbnailWidth: Int = 0
    /// The embedded preview's height (0 when none).
    public var thumbnailHeight: Int = 0
    /// True when this header describes that embedded preview, loaded instead of the image.
    public var isEmbeddedThumbnail = false
    /// How a camera RAW file is developed (nil for every other format).
    public var development: RAWDevelopment? = nil
    /// The factors the decoder can shrink by while decoding (shrink-on-load), each giving
    /// ⌈width / r⌉ × ⌈height / r⌉ pixels: JPEG's DCT scaling (2, 4, 8), a TIFF pyramid's
    /// reduced levels. Empty when it decodes only at full size.
    public var reductions: [Int] = []
    /// How much shrinking a reduction must leave the resampler: 2 for JPEG's DCT scaling
    /// (its 1/8 is a box filter), 1 for a pyramid's levels, which were resampled properly
    /// when the file was written (vipsthumbnail reads the smallest level not below the target).
    public var reductionMargin: Double = 2


    /// Size once EXIF orientation is applied (5–8 swap width and height).
    public var orientedSize: (width: Int, height: Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }

    /// Whether the file carries an HDR gain map (an Ultra HDR JPEG's, an iPhone HEIC's), as
    /// its decoder's details say.
    var hasGainMap: Bool { details.contains { $0.hasPrefix("HDR gain map") } }

    /// The depth decoded pixels have: 32 for 32-bit floating-point files (linear light),
    /// 16 when the file stores more than 8 bits (10- and 12-bit HEIF and AVIF are stretched
    /// to 16), else 8.
    public var decodedDepth: Int { bitDepth >= 32 ? 32 : bitDepth > 8 ? 16 : 8 }
}

extension ImageHeader {
    /// A header for a codec's decoder (`ImageCodec`): the stored size, channels and depth,
    /// and what else the file says.
    public init(format: ImageFileFormat, width: Int, height: Int, channels: Int, bitDepth: Int, hasAlpha: Bool,
                orientation: Int = 1, hasICCProfile: Bool = false, iccDescription: String? = nil, details: [String] = []) {
        self.format = format
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.orientation = orientation
        self.hasICCProfile = hasICCProfile
        self.iccDescription = iccDescription
        self.details = details
    }
}
