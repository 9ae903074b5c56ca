import Foundation
import Lumen

// Core Image's keys, categories and attribute names, with Apple's spelling and values.

public let kCIInputImageKey = "inputImage"
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
public let kCIInputTargetImageKey = "inputTargetImage"
public let kCIInputMaskImageKey = "inputMaskImage"
public let kCIInputRadiusKey = "inputRadius"
public let kCIInputScaleKey = "inputScale"
public let kCIInputAngleKey = "inputAngle"
public let kCIInputCenterKey = "inputCenter"
public let kCIInputWidthKey = "inputWidth"
public let kCIInputSharpnessKey = "inputSharpness"
public let kCIInputIntensityKey = "inputIntensity"
public let kCIInputEVKey = "inputEV"
public let kCIInputSaturationKey = "inputSaturation"
public let kCIInputBrightnessKey = "inputBrightness"
public let kCIInputContrastKey = "inputContrast"
public let kCIInputColorKey = "inputColor"
public let kCIInputTimeKey = "inputTime"
public let kCIInputTransformKey = "inputTransform"
public let kCIInputAspectRatioKey = "inputAspectRatio"
public let kCIInputExtentKey = "inputExtent"
public let kCIInputAmountKey = "inputAmount"
public let kCIInputThresholdKey = "inputThreshold"
public let kCIInputShadingImageKey = "inputShadingImage"
public let kCIInputGradientImageKey = "inputGradientImage"
public let kCIInputDisparityImageKey = "inputDisparityImage"
public let kCIInputDepthImageKey = "inputDepthImage"
public let kCIInputVersionKey = "inputVersion"
public let kCIOutputImageKey = "outputImage"

public let kCIAttributeFilterName = "CIAttributeFilterName"
public let kCIAttributeFilterDisplayName = "CIAttributeFilterDisplayName"
public let kCIAttributeDescription = "CIAttributeDescription"
public let kCIAttributeReferenceDocumentation = "CIAttributeReferenceDocumentation"
public let kCIAttributeFilterCategories = "CIAttributeFilterCategories"
public let kCIAttributeFilterAvailable_Mac = "CIAttributeFilterAvailable_Mac"
public let kCIAttributeFilterAvailable_iOS = "CIAttributeFilterAvailable_iOS"
public let kCIAttributeClass = "CIAttributeClass"
public let kCIAttributeType = "CIAttributeType"
public let kCIAttributeMin = "CIAttributeMin"
public let kCIAttributeMax = "CIAttributeMax"
public let kCIAttributeSliderMin = "CIAttributeSliderMin"
public let kCIAttributeSliderMax = "CIAttributeSliderMax"
public let kCIAttributeDefault = "CIAttributeDefault"
public let kCIAttributeIdentity = "CIAttributeIdentity"
public let kCIAttributeName = "CIAttributeName"
public let kCIAttributeDisplayName = "CIAttributeDisplayName"

public let kCIAttributeTypeTime = "CIAttributeTypeTime"
public let kCIAttributeTypeScalar = "CIAttributeTypeScalar"
public let kCIAttributeTypeDistance = "CIAttributeTypeDistance"
public let kCIAttributeTypeAngle = "CIAttributeTypeAngle"
public let kCIAttributeTypeInteger = "CIAttributeTypeInteger"
public let kCIAttributeTypeCount = "CIAttributeTypeCount"
public let kCIAttributeTypeBoolean = "CIAttributeTypeBoolean"
public let kCIAttributeTypePosition = "CIAttributeTypePosition"
public let kCIAttributeTypeOffset = "CIAttributeTypeOffset"
public let kCIAttributeTypePosition3 = "CIAttributeTypePosition3"
public let kCIAttributeTypeRectangle = "CIAttributeTypeRectangle"
public let kCIAttributeTypeColor = "CIAttributeTypeColor"
public let kCIAttributeTypeOpaqueColor = "CIAttributeTypeOpaqueColor"
public let kCIAttributeTypeImage = "CIAttributeTypeImage"
public let kCIAttributeTypeGradient = "CIAttributeTypeGradient"
public let kCIAttributeTypeTransform = "CIAttributeTypeTransform"

public let kCICategoryDistortionEffect = "CICategoryDistortionEffect"
public let kCICategoryGeometryAdjustment = "CICategoryGeometryAdjustment"
public let kCICategoryCompositeOperation = "CICategoryCompositeOperation"
public let kCICategoryHalftoneEffect = "CICategoryHalftoneEffect"
public let kCICategoryColorAdjustment = "CICategoryColorAdjustment"
public let kCICategoryColorEffect = "CICategoryColorEffect"
public let kCICategoryTransition = "CICategoryTransition"
public let kCICategoryTileEffect = "CICategoryTileEffect"
public let kCICategoryGenerator = "CICategoryGenerator"
public let kCICategoryReduction = "CICategoryReduction"
public let kCICategoryGradient = "CICategoryGradient"
public let kCICategoryStylize = "CICategoryStylize"
public let kCICategorySharpen = "CICategorySharpen"
public let kCICategoryBlur = "CICategoryBlur"
public let kCICategoryVideo = "CICategoryVideo"
public let kCICategoryStillImage = "CICategoryStillImage"
public let kCICategoryInterlaced = "CICategoryInterlaced"
public let kCICategoryNonSquarePixels = "CICategoryNonSquarePixels"
public let kCICategoryHighDynamicRange = "CICategoryHighDynamicRange"
public let kCICategoryBuiltIn = "CICategoryBuiltIn"
public let kCICategoryFilterGenerator = "CICategoryFilterGenerator"

/// `kCGImageDestinationLossyCompressionQuality` (ImageIO), the quality option of the
/// representation methods: 0…1.
public let kCGImageDestinationLossyCompressionQuality = "kCGImageDestinationLossyCompressionQuality"

/// A pixel format of `CIContext.render(_:toBitmap:…)` and `CIImage(bitmapData:…)`.
public struct CIFormat: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let ARGB8 = CIFormat(rawValue: 1)
    public static let BGRA8 = CIFormat(rawValue: 2)
    public static let RGBA8 = CIFormat(rawValue: 3)
    public static let ABGR8 = CIFormat(rawValue: 4)
    public static let RGBA16 = CIFormat(rawValue: 5)
    public static let RGBAh = CIFormat(rawValue: 6)
    public static let RGBAf = CIFormat(rawValue: 7)
    public static let R8 = CIFormat(rawValue: 8)
    public static let L8 = CIFormat(rawValue: 9)
    public static let Rf = CIFormat(rawValue: 10)

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
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
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
    public static let priorityRequestLow = CIContextOption("priority_request_low")
    public static let highQualityDownsample = CIContextOption("high_quality_downsample")
    public static let outputPremultiplied = CIContextOption("output_premultiplied")
    public static let allowLowPower = CIContextOption("kCIContextAllowLowPower")
    public static let name = CIContextOption("kCIContextName")
}

/// Options of the CIImage initialisers.
public struct CIImageOption: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A CGColorSpace the data is in, or NSNull() to take the values as they are.
    public static let colorSpace = CIImageOption("kCIImageColorSpace")
    /// Bool: turn the image upright by its EXIF orientation (default false, as Apple does).
    public static let applyOrientationProperty = CIImageOption("kCIImageApplyOrientationProperty")
    /// A dictionary that replaces the file's properties.
    public static let properties = CIImageOption("kCIImageProperties")
    public static let nearestSampling = CIImageOption("kCIImageNearestSampling")
    public static let toneMapHDRtoSDR = CIImageOption("kCIImageToneMapHDRtoSDR")
    public static let expandToHDR = CIImageOption("kCIImageExpandToHDR")
    public static let auxiliaryDepth = CIImageOption("kCIImageAuxiliaryDepth")
    public static let auxiliaryDisparity = CIImageOption("kCIImageAuxiliaryDisparity")
    public static let auxiliaryPortraitEffectsMatte = CIImageOption("kCIImageAuxiliaryPortraitEffectsMatte")
}

/// Options of the representation methods (`jpegRepresentation(of:colorSpace:options:)`…).
public struct CIImageRepresentationOption: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Apple spells the quality key `kCGImageDestinationLossyCompressionQuality`.
    public static let lossyCompressionQuality = CIImageRepresentationOption(kCGImageDestinationLossyCompressionQuality)
    public static let avDepthData = CIImageRepresentationOption("kCIImageRepresentationAVDepthData")
}
