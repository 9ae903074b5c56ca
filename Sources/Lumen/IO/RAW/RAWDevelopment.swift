import LumenPlatform

/// How a camera RAW file is developed into RGB: the part of Core Image's `CIRAWFilter`
/// that LibRaw offers. The defaults develop as the camera shot it: its white balance, its
/// exposure, highlights clipped, no noise reduction, AHD demosaicing.
public struct RAWDevelopment: Sendable, Hashable {
    /// How the colour channels are balanced.
    public enum WhiteBalance: Sendable, Hashable {
        /// The camera's own multipliers for this shot (`CIRAWFilter`'s default).
        case asShot
        /// Grey world over the picture (LibRaw's automatic balance).
        case automatic
        /// The camera's daylight (D65) balance.
        case daylight
        /// A colour temperature in kelvin (2000…25000) and a tint (−150…150, green to
        /// magenta), as `CIRAWFilter.neutralTemperature` and `neutralTint`.
        case temperature(kelvin: Double, tint: Double)
        /// Multipliers for red, green and blue.
        case multipliers(red: Double, green: Double, blue: Double)
    }

    /// What happens to highlights above the sensor's white level.
    public enum Highlights: Int, Sendable, Hashable, CaseIterable {
        /// Clipped to white (default).
        case clip = 0
        /// Left unclipped (colours may shift in the brightest parts).
        case unclip = 1
        /// Blended from the channels that did not clip.
        case blend = 2
        /// Rebuilt from the unclipped channels (LibRaw's level 5 of 3…9).
        case rebuild = 5
    }

    /// The demosaicing method (LibRaw's `user_qual`).
    public enum Demosaic: Int, Sendable, Hashable, CaseIterable {
        /// Bilinear (fastest).
        case linear = 0
        /// VNG.
        case vng = 1
        /// PPG.
        case ppg = 2
        /// AHD (default).
        case ahd = 3
        /// DCB.
        case dcb = 4
        /// DHT.
        case dht = 11
        /// AAHD.
        case aahd = 12
    }

    /// The white balance (as shot by default).
    public var whiteBalance: WhiteBalance = .asShot
    /// Exposure in stops, −2…3 (`CIRAWFilter.exposure`): a linear gain of 2^exposure
    /// applied before development, keeping highlights as `preserveHighlights` says.
    public var exposure: Double = 0
    /// 0…1: how much of the highlights a positive exposure keeps from clipping.
    public var preserveHighlights: Double = 0
    /// Highlights above the white level (clipped by default).
    public var highlights: Highlights = .clip
    /// Noise reduction 0…1 (`CIRAWFilter.luminanceNoiseReductionAmount`): LibRaw's
    /// wavelet denoising, threshold 0…1000.
    public var noiseReduction: Double = 0
    /// dcraw's automatic brightening (1 % of pixels to white); off keeps the camera's exposure.
    public var autoBrightness = false
    /// The demosaicing method (AHD by default).
    public var demosaic: Demosaic = .ahd

    /// Development as the camera shot it, unless told otherwise.
    public init(whiteBalance: WhiteBalance = .asShot, exposure: Double = 0, preserveHighlights: Double = 0, highlights: Highlights = .clip,
                noiseReduction: Double = 0, autoBrightness: Bool = false, demosaic: Demosaic = .ahd) {
        self.whiteBalance = whiteBalance
        self.exposure = exposure
        self.preserveHighlights = preserveHighlights
        self.highlights = highlights
        self.noiseReduction = noiseReduction
        self.autoBrightness = autoBrightness
        self.demosaic = demosaic
    }

    /// Refuses values outside the ranges above, naming the key.
    public func validate() throws {
        func check(_ key: String, _ value: Double, _ range: ClosedRange<Double>) throws {
            guard value.isFinite, range.contains(value) else {
                throw LumenError.invalidValue(filter: "rawDevelopment", key: key, reason: "must be \(range.lowerBound)…\(range.upperBound), got \(value)")
            }
        }
        try check("exposure", exposure, -2...3)
        try check("preserveHighlights", preserveHighlights, 0...1)
        try check("noiseReduction", noiseReduction, 0...1)
        switch whiteBalance {
        case let .temperature(kelvin, tint):
            try check("neutralTemperature", kelvin, 2000...25000)
            try check("neutralTint", tint, -150...150)
        case let .multipliers(red, green, blue):
            for (key, value) in [("red", red), ("green", green), ("blue", blue)] { try check(key, value, 0.01...100) }
        default: break
        }
    }
}
