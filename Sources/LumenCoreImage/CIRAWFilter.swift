import Foundation
import Lumen

/// Core Image's RAW development filter (the API of macOS 12 and iOS 15), developing with
/// LibRaw through Lumen: exposure, white balance by neutral temperature and tint (or as
/// shot until either is set), luminance noise reduction, highlight recovery, draft mode
/// and scale factor (half-size development when they shrink by 2 or more), orientation, the
/// embedded preview. Apple's other adjustments (boost, contrast, sharpness, lens
/// correction…) are accepted and not applied: LibRaw has no counterpart.
open class CIRAWFilter: CIFilter, @unchecked Sendable {
    private let url: URL?
    private let data: Data?
    private let header: ImageHeader

    /// A filter for the RAW file at `url`; nil when it is not a RAW file Lumen can develop.
    public init?(imageURL url: URL) {
        guard let header = try? ImageFile.header(at: url), header.format == .raw else { return nil }
        self.url = url
        self.data = nil
        self.header = header
        orientation = CGImagePropertyOrientation(rawValue: UInt32(header.orientation)) ?? .up
        super.init()
    }

    /// A filter for a RAW file's bytes (`identifierHint`, a type identifier, is not needed:
    /// formats are found by content).
    public init?(imageData data: Data, identifierHint: String?) {
        guard let header = try? ImageFile.header(of: data), header.format == .raw else { return nil }
        self.url = nil
        self.data = data
        self.header = header
        orientation = CGImagePropertyOrientation(rawValue: UInt32(header.orientation)) ?? .up
        super.init()
    }

    /// Exposure in stops (−2…3 here), before development.
    public var exposure: Float = 0
    private var temperature: Float?
    private var tint: Float?
    /// The colour temperature (kelvin) that is made neutral; reads 6504 (D65) until set,
    /// and the file's own balance is used until it or `neutralTint` is set.
    public var neutralTemperature: Float {
        get { temperature ?? 6504 }
        set { temperature = newValue }
    }
    /// The tint (green −, magenta +) that is made neutral, −150…150.
    public var neutralTint: Float {
        get { tint ?? 0 }
        set { tint = newValue }
    }
    /// Luminance noise reduction 0…1 (LibRaw's wavelet denoising).
    public var luminanceNoiseReductionAmount: Float = 0
    /// Colour noise reduction: accepted, not applied (LibRaw's wavelet denoising is the luminance one).
    public var colorNoiseReductionAmount: Float = 0
    /// Rebuilds clipped highlights from the channels that did not clip.
    public var isHighlightRecoveryEnabled = false
    /// Half-size development (2×2 photosites a pixel): faster, half the pixels a side.
    public var isDraftModeEnabled = false
    /// The output's scale (1 = the sensor's size); at ½ or less, development is half size.
    public var scaleFactor: Float = 1
    /// The orientation applied to the output (the camera's by default).
    public var orientation: CGImagePropertyOrientation
    /// Accepted for source compatibility; not applied.
    public var boostAmount: Float = 1
    /// Accepted for source compatibility; not applied.
    public var baselineExposure: Float = 0
    /// Accepted for source compatibility; not applied.
    public var shadowBias: Float = 0
    /// Accepted for source compatibility; not applied.
    public var sharpnessAmount: Float = 0
    /// Accepted for source compatibility; not applied.
    public var contrastAmount: Float = 0
    /// Accepted for source compatibility; not applied.
    public var isLensCorrectionEnabled = false

    /// The developed picture's size before scaling and orientation.
    public var nativeSize: CGSize { CGSize(width: CGFloat(header.width), height: CGFloat(header.height)) }

    /// The development as Lumen spells it.
    var development: RAWDevelopment {
        var development = RAWDevelopment(exposure: Double(exposure), highlights: isHighlightRecoveryEnabled ? .rebuild : .clip,
                                         noiseReduction: Double(max(0, min(1, luminanceNoiseReductionAmount))))
        if temperature != nil || tint != nil {
            development.whiteBalance = .temperature(kelvin: Double(neutralTemperature), tint: Double(neutralTint))
        }
        return development
    }

    /// The developed image: scaled by `scaleFactor` (½ in draft mode) and oriented.
    open override var outputImage: CIImage? {
        do {
            let options = Image.LoadOptions(appliesOrientation: false, raw: development)
            var image = try url.map { try Image(contentsOf: $0, options: options) } ?? Image(data: data ?? Data(), options: options)
            let scale = Double(scaleFactor) * (isDraftModeEnabled ? 0.5 : 1)
            guard scale.isFinite, scale > 0 else { throw LumenError.invalidValue(filter: "CIRAWFilter", key: "scaleFactor", reason: "must be positive, got \(scale)") }
            if scale != 1 { image = try image.applyingLanczosScale(scale) }
            if orientation != .up { image = image.oriented(Int(orientation.rawValue)) }
            return CIImage(lumenImage: image)
        } catch {
            CIFilter.report("CIRAWFilter: \(error)")
            return nil
        }
    }

    /// The embedded preview (usually the camera's JPEG), or nil when the file has none.
    public var previewImage: CIImage? {
        let options = Image.LoadOptions(appliesOrientation: true, embeddedThumbnail: true)
        let image = try? url.map { try Image(contentsOf: $0, options: options) } ?? Image(data: data ?? Data(), options: options)
        return image.map { CIImage(lumenImage: $0) }
    }

    /// The file's properties, as `CIImage.properties` gives them.
    public var properties: [AnyHashable: Any] {
        let metadata = url.flatMap { try? ImageFile.metadata(at: $0) } ?? data.flatMap { try? ImageFile.metadata(of: $0) }
        var all: [AnyHashable: Any] = [:]
        for (key, value) in ImageProperties.properties(header: header, metadata: metadata) { all[key] = value }
        return all
    }
}
