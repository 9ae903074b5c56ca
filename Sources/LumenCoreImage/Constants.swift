import Foundation
import Lumen

// Core Image's keys, categories and attribute names, with Apple's spelling and values.

/// The key of a filter's `inputImage` parameter.
public let kCIInputImageKey = "inputImage"
/// The key of a filter's `inputBackgroundImage` parameter.
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
/// The key of a filter's `inputTargetImage` parameter.
public let kCIInputTargetImageKey = "inputTargetImage"
/// The key of a filter's `inputMaskImage` parameter.
public let kCIInputMaskImageKey = "inputMaskImage"
/// The key of a filter's `inputRadius` parameter.
public let kCIInputRadiusKey = "inputRadius"
/// The key of a filter's `inputScale` parameter.
public let kCIInputScaleKey = "inputScale"
/// The key of a filter's `inputAngle` parameter.
public let kCIInputAngleKey = "inputAngle"
/// The key of a filter's `inputCenter` parameter.
public let kCIInputCenterKey = "inputCenter"
/// The key of a filter's `inputWidth` parameter.
public let kCIInputWidthKey = "inputWidth"
/// The key of a filter's `inputSharpness` parameter.
public let kCIInputSharpnessKey = "inputSharpness"
/// The key of a filter's `inputIntensity` parameter.
public let kCIInputIntensityKey = "inputIntensity"
/// The key of a filter's `inputEV` parameter.
public let kCIInputEVKey = "inputEV"
/// The key of a filter's `inputSaturation` parameter.
public let kCIInputSaturationKey = "inputSaturation"
/// The key of a filter's `inputBrightness` parameter.
public let kCIInputBrightnessKey = "inputBrightness"
/// The key of a filter's `inputContrast` parameter.
public let kCIInputContrastKey = "inputContrast"
/// The key of a filter's `inputColor` parameter.
public let kCIInputColorKey = "inputColor"
/// The key of a filter's `inputTime` parameter.
public let kCIInputTimeKey = "inputTime"
/// The key of a filter's `inputTransform` parameter.
public let kCIInputTransformKey = "inputTransform"
/// The key of a filter's `inputAspectRatio` parameter.
public let kCIInputAspectRatioKey = "inputAspectRatio"
/// The key of a filter's `inputExtent` parameter.
public let kCIInputExtentKey = "inputExtent"
/// The key of a filter's `inputAmount` parameter.
public let kCIInputAmountKey = "inputAmount"
/// The key of a filter's `inputThreshold` parameter.
public let kCIInputThresholdKey = "inputThreshold"
/// The key of a filter's `inputShadingImage` parameter.
public let kCIInputShadingImageKey = "inputShadingImage"
/// The key of a filter's `inputGradientImage` parameter.
public let kCIInputGradientImageKey = "inputGradientImage"
/// The key of a filter's `inputDisparityImage` parameter.
public let kCIInputDisparityImageKey = "inputDisparityImage"
/// The key of a filter's `inputDepthImage` parameter.
public let kCIInputDepthImageKey = "inputDepthImage"
/// The key of a filter's `inputVersion` parameter.
public let kCIInputVersionKey = "inputVersion"
/// The key of a filter's output image (`outputImage`).
public let kCIOutputImageKey = "outputImage"

/// An attribute-dictionary key: the filter's name (`CIGaussianBlur`).
public let kCIAttributeFilterName = "CIAttributeFilterName"
/// An attribute-dictionary key: the filter's name for people (`Gaussian Blur`).
public let kCIAttributeFilterDisplayName = "CIAttributeFilterDisplayName"
/// An attribute-dictionary key: a one-line description of a filter or parameter.
public let kCIAttributeDescription = "CIAttributeDescription"
/// An attribute-dictionary key: a URL of the filter's documentation.
public let kCIAttributeReferenceDocumentation = "CIAttributeReferenceDocumentation"
/// An attribute-dictionary key: the categories a filter is listed under.
public let kCIAttributeFilterCategories = "CIAttributeFilterCategories"
/// An attribute-dictionary key: the macOS version the filter appeared in.
public let kCIAttributeFilterAvailable_Mac = "CIAttributeFilterAvailable_Mac"
/// An attribute-dictionary key: the iOS version the filter appeared in.
public let kCIAttributeFilterAvailable_iOS = "CIAttributeFilterAvailable_iOS"
/// An attribute-dictionary key: the class of a parameter's value (`CIImage`, `NSNumber`, `CIVector`, `CIColor`…).
public let kCIAttributeClass = "CIAttributeClass"
/// A `kCIAttributeType` value: the parameter is .
public let kCIAttributeType = "CIAttributeType"
/// An attribute-dictionary key: the smallest value a parameter accepts.
public let kCIAttributeMin = "CIAttributeMin"
/// An attribute-dictionary key: the largest value a parameter accepts.
public let kCIAttributeMax = "CIAttributeMax"
/// An attribute-dictionary key: the low end of a slider for the parameter.
public let kCIAttributeSliderMin = "CIAttributeSliderMin"
/// An attribute-dictionary key: the high end of a slider for the parameter.
public let kCIAttributeSliderMax = "CIAttributeSliderMax"
/// An attribute-dictionary key: a parameter's default value.
public let kCIAttributeDefault = "CIAttributeDefault"
/// An attribute-dictionary key: the value at which the filter leaves its input unchanged.
public let kCIAttributeIdentity = "CIAttributeIdentity"
/// An attribute-dictionary key: a parameter's key (`inputRadius`).
public let kCIAttributeName = "CIAttributeName"
/// An attribute-dictionary key: a parameter's name for people (`Radius`).
public let kCIAttributeDisplayName = "CIAttributeDisplayName"

/// A `kCIAttributeType` value: the parameter is a transition's progress, 0…1.
public let kCIAttributeTypeTime = "CIAttributeTypeTime"
/// A `kCIAttributeType` value: the parameter is a plain number.
public let kCIAttributeTypeScalar = "CIAttributeTypeScalar"
/// A `kCIAttributeType` value: the parameter is a length in pixels.
public let kCIAttributeTypeDistance = "CIAttributeTypeDistance"
/// A `kCIAttributeType` value: the parameter is an angle in radians.
public let kCIAttributeTypeAngle = "CIAttributeTypeAngle"
/// A `kCIAttributeType` value: the parameter is a whole number.
public let kCIAttributeTypeInteger = "CIAttributeTypeInteger"
/// A `kCIAttributeType` value: the parameter is a count.
public let kCIAttributeTypeCount = "CIAttributeTypeCount"
/// A `kCIAttributeType` value: the parameter is a flag, 0 or 1.
public let kCIAttributeTypeBoolean = "CIAttributeTypeBoolean"
/// A `kCIAttributeType` value: the parameter is a point (CIVector of 2).
public let kCIAttributeTypePosition = "CIAttributeTypePosition"
/// A `kCIAttributeType` value: the parameter is a displacement (CIVector of 2).
public let kCIAttributeTypeOffset = "CIAttributeTypeOffset"
/// A `kCIAttributeType` value: the parameter is a 3-D point (CIVector of 3).
public let kCIAttributeTypePosition3 = "CIAttributeTypePosition3"
/// A `kCIAttributeType` value: the parameter is a rectangle (CIVector of 4: x, y, width, height).
public let kCIAttributeTypeRectangle = "CIAttributeTypeRectangle"
/// A `kCIAttributeType` value: the parameter is a colour (CIColor).
public let kCIAttributeTypeColor = "CIAttributeTypeColor"
/// A `kCIAttributeType` value: the parameter is an opaque colour (CIColor).
public let kCIAttributeTypeOpaqueColor = "CIAttributeTypeOpaqueColor"
/// A `kCIAttributeType` value: the parameter is an image.
public let kCIAttributeTypeImage = "CIAttributeTypeImage"
/// A `kCIAttributeType` value: the parameter is a gradient image.
public let kCIAttributeTypeGradient = "CIAttributeTypeGradient"
/// A `kCIAttributeType` value: the parameter is an affine transform (NSValue of CGAffineTransform).
public let kCIAttributeTypeTransform = "CIAttributeTypeTransform"

/// The filter category `CICategoryDistortionEffect`.
public let kCICategoryDistortionEffect = "CICategoryDistortionEffect"
/// The filter category `CICategoryGeometryAdjustment`.
public let kCICategoryGeometryAdjustment = "CICategoryGeometryAdjustment"
/// The filter category `CICategoryCompositeOperation`.
public let kCICategoryCompositeOperation = "CICategoryCompositeOperation"
/// The filter category `CICategoryHalftoneEffect`.
public let kCICategoryHalftoneEffect = "CICategoryHalftoneEffect"
/// The filter category `CICategoryColorAdjustment`.
public let kCICategoryColorAdjustment = "CICategoryColorAdjustment"
/// The filter category `CICategoryColorEffect`.
public let kCICategoryColorEffect = "CICategoryColorEffect"
/// The filter category `CICategoryTransition`.
public let kCICategoryTransition = "CICategoryTransition"
/// The filter category `CICategoryTileEffect`.
public let kCICategoryTileEffect = "CICategoryTileEffect"
/// The filter category `CICategoryGenerator`.
public let kCICategoryGenerator = "CICategoryGenerator"
/// The filter category `CICategoryReduction`.
public let kCICategoryReduction = "CICategoryReduction"
/// The filter category `CICategoryGradient`.
public let kCICategoryGradient = "CICategoryGradient"
/// The filter category `CICategoryStylize`.
public let kCICategoryStylize = "CICategoryStylize"
/// The filter category `CICategorySharpen`.
public let kCICategorySharpen = "CICategorySharpen"
/// The filter category `CICategoryBlur`.
public let kCICategoryBlur = "CICategoryBlur"
/// The filter category `CICategoryVideo`.
public let kCICategoryVideo = "CICategoryVideo"
/// The filter category `CICategoryStillImage`.
public let kCICategoryStillImage = "CICategoryStillImage"
/// The filter category `CICategoryInterlaced`.
public let kCICategoryInterlaced = "CICategoryInterlaced"
/// The filter category `CICategoryNonSquarePixels`.
public let kCICategoryNonSquarePixels = "CICategoryNonSquarePixels"
/// The filter category `CICategoryHighDynamicRange`.
public let kCICategoryHighDynamicRange = "CICategoryHighDynamicRange"
/// The filter category `CICategoryBuiltIn`.
public let kCICategoryBuiltIn = "CICategoryBuiltIn"
/// The filter category `CICategoryFilterGenerator`.
public let kCICategoryFilterGenerator = "CICategoryFilterGenerator"

/// `kCGImageDestinationLossyCompressionQuality` (ImageIO), the quality option of the
/// representation methods: 0…1.
public let kCGImageDestinationLossyCompressionQuality = "kCGImageDestinationLossyCompressionQuality"

/// A pixel format of `CIContext.render(_:toBitmap:…)` and `CIImage(bitmapData:…)`.
public struct CIFormat: RawRepresentable, Hashable, Sendable {
    /// Core Image's number for the format.
    public let rawValue: Int32
    /// A format by Core Image's number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 8 bits per component, alpha first (A, R, G, B), premultiplied.
    public static let ARGB8 = CIFormat(rawValue: 1)
    /// 8 bits per component in B, G, R, A order, premultiplied.
    public static let BGRA8 = CIFormat(rawValue: 2)
    /// 8 bits per component in R, G, B, A order, premultiplied.
    public static let RGBA8 = CIFormat(rawValue: 3)
    /// 8 bits per component in A, B, G, R order, premultiplied.
    public static let ABGR8 = CIFormat(rawValue: 4)
    /// 16-bit unsigned integers per component, R, G, B, A, premultiplied.
    public static let RGBA16 = CIFormat(rawValue: 5)
    /// 16-bit floats (IEEE half) per component, R, G, B, A, premultiplied.
    public static let RGBAh = CIFormat(rawValue: 6)
    /// 32-bit floats per component, R, G, B, A, premultiplied.
    public static let RGBAf = CIFormat(rawValue: 7)
    /// One 8-bit channel; not supported by Lumen's bitmap calls (they throw `CIError.unsupported`).
    public static let R8 = CIFormat(rawValue: 8)
    /// One 8-bit luminance channel; not supported by Lumen's bitmap calls.
    public static let L8 = CIFormat(rawValue: 9)
    /// One 32-bit float channel; not supported by Lumen's bitmap calls.
    public static let Rf = CIFormat(rawValue: 10)
    /// One 16-bit float channel; not supported by Lumen's bitmap calls.
    public static let Rh = CIFormat(rawValue: 11)
    /// One 16-bit unsigned channel; not supported by Lumen's bitmap calls.
    public static let R16 = CIFormat(rawValue: 12)
    /// Two 8-bit channels (red, green); not supported by Lumen's bitmap calls.
    public static let RG8 = CIFormat(rawValue: 13)
    /// Two 16-bit float channels; not supported by Lumen's bitmap calls.
    public static let RGh = CIFormat(rawValue: 14)
    /// Two 32-bit float channels; not supported by Lumen's bitmap calls.
    public static let RGf = CIFormat(rawValue: 15)
    /// One 8-bit alpha channel; not supported by Lumen's bitmap calls.
    public static let A8 = CIFormat(rawValue: 16)
    /// One 16-bit float alpha channel; not supported by Lumen's bitmap calls.
    public static let Ah = CIFormat(rawValue: 17)
    /// One 32-bit float alpha channel; not supported by Lumen's bitmap calls.
    public static let Af = CIFormat(rawValue: 18)
    /// 16-bit unsigned R, G, B, A, as `RGBA16` (Core Image's older name for it).
    public static let RGBA16U = RGBA16

    /// Bytes per pixel and per component, and the RGBA order of the components.
    var layout: (bytesPerPixel: Int, component: Int, order: [Int])? {
        switch self {
        case .RGBA8: return (4, 1, [0, 1, 2, 3])
        case .BGRA8: return (4, 1, [2, 1, 0, 3])
        case .ARGB8: return (4, 1, [3, 0, 1, 2])
        case .ABGR8: return (4, 1, [3, 2, 1, 0])
        case .RGBA16: return (8, 2, [0, 1, 2, 3])
        case .RGBAh: return (8, 2, [0, 1, 2, 3])
        case .RGBAf: return (16, 4, [0, 1, 2, 3])
        default: return nil
        }
    }
}

/// Options of `CIContext(options:)`.
public struct CIContextOption: RawRepresentable, Hashable, Sendable {
    /// Core Image's string for the option.
    public let rawValue: String
    /// An option by Core Image's string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An option by Core Image's string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A CGColorSpace, or NSNull() for no colour management (values pass through unchanged).
    public static let workingColorSpace = CIContextOption("working_color_space")
    /// A CIFormat (NSNumber); Lumen always works in Float32.
    public static let workingFormat = CIContextOption("working_format")
    /// The CGColorSpace `createCGImage` and the representations produce (default sRGB).
    public static let outputColorSpace = CIContextOption("output_color_space")
    /// Ignored: Lumen renders on the CPU always.
    public static let useSoftwareRenderer = CIContextOption("software_renderer")
    /// Bool: keep intermediate images in the render cache (default true).
    public static let cacheIntermediates = CIContextOption("kCIContextCacheIntermediates")
    /// Accepted and ignored: Lumen has no GPU queue to prioritise.
    public static let priorityRequestLow = CIContextOption("priority_request_low")
    /// Accepted and ignored by the context; `CIImage.transformed(by:highQualityDownsample:)` takes it per image.
    public static let highQualityDownsample = CIContextOption("high_quality_downsample")
    /// Accepted and ignored: bitmaps are premultiplied as the format says, files are written unpremultiplied.
    public static let outputPremultiplied = CIContextOption("output_premultiplied")
    /// Accepted and ignored: Lumen renders on the CPU.
    public static let allowLowPower = CIContextOption("kCIContextAllowLowPower")
    /// A name for the context, accepted and ignored (Apple uses it in its debugging tools).
    public static let name = CIContextOption("kCIContextName")
}

/// Options of the CIImage initialisers.
public struct CIImageOption: RawRepresentable, Hashable, Sendable {
    /// Core Image's string for the option.
    public let rawValue: String
    /// An option by Core Image's string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An option by Core Image's string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A CGColorSpace the data is in, or NSNull() to take the values as they are.
    public static let colorSpace = CIImageOption("kCIImageColorSpace")
    /// Bool: turn the image upright by its EXIF orientation (default false, as Apple does).
    public static let applyOrientationProperty = CIImageOption("kCIImageApplyOrientationProperty")
    /// A dictionary that replaces the file's properties.
    public static let properties = CIImageOption("kCIImageProperties")
    /// Bool: transforms of the image sample the nearest pixel instead of interpolating (`samplingNearest()`).
    public static let nearestSampling = CIImageOption("kCIImageNearestSampling")
    /// Accepted and ignored: Lumen's decoders produce SDR-referred values already.
    public static let toneMapHDRtoSDR = CIImageOption("kCIImageToneMapHDRtoSDR")
    /// Bool: apply the file's HDR gain map (an Ultra HDR JPEG's), so values go above 1
    /// where it says (`Image.LoadOptions.expandToHDR`).
    public static let expandToHDR = CIImageOption("kCIImageExpandToHDR")
    /// Bool: load the file's HDR gain map (an Ultra HDR JPEG's) instead of the image: its
    /// codes as gray values, not colour-managed, at the map's size; nil for a file without
    /// one. `applyingGainMap(_:)` applies it to the image.
    public static let auxiliaryHDRGainMap = CIImageOption("kCIImageAuxiliaryHDRGainMap")
    /// Bool: load the file's auxiliary depth map instead of the image. Lumen reads none, so the initialiser returns nil, as Core Image does for a file without one.
    public static let auxiliaryDepth = CIImageOption("kCIImageAuxiliaryDepth")
    /// Bool: load the file's auxiliary disparity map instead of the image. Lumen reads none, so the initialiser returns nil, as Core Image does for a file without one.
    public static let auxiliaryDisparity = CIImageOption("kCIImageAuxiliaryDisparity")
    /// Bool: load the file's portrait effects matte instead of the image. Lumen reads none, so the initialiser returns nil, as Core Image does for a file without one.
    public static let auxiliaryPortraitEffectsMatte = CIImageOption("kCIImageAuxiliaryPortraitEffectsMatte")
}

/// Options of the representation methods (`jpegRepresentation(of:colorSpace:options:)`…).
public struct CIImageRepresentationOption: RawRepresentable, Hashable, Sendable {
    /// Core Image's string for the option.
    public let rawValue: String
    /// An option by Core Image's string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An option by Core Image's string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Apple spells the quality key `kCGImageDestinationLossyCompressionQuality`.
    public static let lossyCompressionQuality = CIImageRepresentationOption(kCGImageDestinationLossyCompressionQuality)
    /// Accepted and ignored: no depth data is written.
    public static let avDepthData = CIImageRepresentationOption("kCIImageRepresentationAVDepthData")
}
