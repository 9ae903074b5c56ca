import Foundation
import Lumen

/// Core Image's two-image kernels: a foreground over a background. The built-ins
/// (`CIBlendKernel.multiply`, `.sourceOver`…) are Lumen's compositing and blend-mode
/// filters; custom ones are colour kernels of two inputs, foreground first.
open class CIBlendKernel: CIColorKernel, @unchecked Sendable {
    /// How a built-in blends: Lumen's filter, with the inputs swapped for the destination
    /// variants, or a fixed answer.
    enum BuiltIn: Sendable {
        case filter(String, swapped: Bool)
        case clear, source, destination, exclusiveOr
    }
    let builtIn: BuiltIn?

    /// A custom blend: `body(foreground, background)` in premultiplied linear RGBA.
    public init(name: String, blend body: @escaping @Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>) {
        builtIn = nil
        super.init(name: name) { pixel in body(pixel[0], pixel[1]) }
    }

    init(builtIn: BuiltIn, name: String) {
        self.builtIn = builtIn
        super.init(name: "CIBlendKernel." + name) { pixel in pixel[0] }
    }

    /// CIKL source cannot be compiled on Linux: nil, with the reason on standard error.
    public convenience init?(source string: String) {
        CIFilter.report("CIBlendKernel(source:): Core Image Kernel Language needs Apple's GPU compiler; write the blend as a Swift closure (CIBlendKernel(name:blend:))")
        return nil
    }

    /// `foreground` blended over `background`, over the union of their extents.
    open func apply(foreground: CIImage, background: CIImage) -> CIImage? {
        switch builtIn {
        case let .filter(name, swapped)?:
            let (top, bottom) = swapped ? (background, foreground) : (foreground, background)
            return top.applyingFilter(name, parameters: [kCIInputBackgroundImageKey: bottom])
        case .clear?: return CIImage.empty()
        case .source?: return foreground
        case .destination?: return background
        case .exclusiveOr?:
            let onlyForeground = foreground.applyingFilter("CISourceOutCompositing", parameters: [kCIInputBackgroundImageKey: background])
            let onlyBackground = background.applyingFilter("CISourceOutCompositing", parameters: [kCIInputBackgroundImageKey: foreground])
            return onlyForeground.applyingFilter("CIAdditionCompositing", parameters: [kCIInputBackgroundImageKey: onlyBackground])
        case nil:
            return apply(extent: foreground.extent.union(background.extent), arguments: [foreground, background])
        }
    }

    /// As `apply(foreground:background:)`: Lumen blends in its working space whatever `colorSpace` says.
    open func apply(foreground: CIImage, background: CIImage, colorSpace: CGColorSpace) -> CIImage? {
        apply(foreground: foreground, background: background)
    }

    private static func filter(_ name: String, _ coreImageName: String, swapped: Bool = false) -> CIBlendKernel {
        CIBlendKernel(builtIn: .filter(coreImageName, swapped: swapped), name: name)
    }

    /// Adds the components (CIAdditionCompositing).
    public static var componentAdd: CIBlendKernel { filter("componentAdd", "CIAdditionCompositing") }
    /// Multiplies the components (CIMultiplyCompositing).
    public static var componentMultiply: CIBlendKernel { filter("componentMultiply", "CIMultiplyCompositing") }
    /// The smaller of each component (CIMinimumCompositing).
    public static var componentMin: CIBlendKernel { filter("componentMin", "CIMinimumCompositing") }
    /// The larger of each component (CIMaximumCompositing).
    public static var componentMax: CIBlendKernel { filter("componentMax", "CIMaximumCompositing") }
    /// Nothing: a clear image.
    public static var clear: CIBlendKernel { CIBlendKernel(builtIn: .clear, name: "clear") }
    /// The foreground alone.
    public static var source: CIBlendKernel { CIBlendKernel(builtIn: .source, name: "source") }
    /// The background alone.
    public static var destination: CIBlendKernel { CIBlendKernel(builtIn: .destination, name: "destination") }
    /// Porter–Duff source over.
    public static var sourceOver: CIBlendKernel { filter("sourceOver", "CISourceOverCompositing") }
    /// Porter–Duff destination over (the background over the foreground).
    public static var destinationOver: CIBlendKernel { filter("destinationOver", "CISourceOverCompositing", swapped: true) }
    /// Porter–Duff source in.
    public static var sourceIn: CIBlendKernel { filter("sourceIn", "CISourceInCompositing") }
    /// Porter–Duff destination in.
    public static var destinationIn: CIBlendKernel { filter("destinationIn", "CISourceInCompositing", swapped: true) }
    /// Porter–Duff source out.
    public static var sourceOut: CIBlendKernel { filter("sourceOut", "CISourceOutCompositing") }
    /// Porter–Duff destination out.
    public static var destinationOut: CIBlendKernel { filter("destinationOut", "CISourceOutCompositing", swapped: true) }
    /// Porter–Duff source atop.
    public static var sourceAtop: CIBlendKernel { filter("sourceAtop", "CISourceAtopCompositing") }
    /// Porter–Duff destination atop.
    public static var destinationAtop: CIBlendKernel { filter("destinationAtop", "CISourceAtopCompositing", swapped: true) }
    /// Porter–Duff exclusive or: each image where the other is not.
    public static var exclusiveOr: CIBlendKernel { CIBlendKernel(builtIn: .exclusiveOr, name: "exclusiveOr") }
    /// The multiply blend mode.
    public static var multiply: CIBlendKernel { filter("multiply", "CIMultiplyBlendMode") }
    /// The screen blend mode.
    public static var screen: CIBlendKernel { filter("screen", "CIScreenBlendMode") }
    /// The overlay blend mode.
    public static var overlay: CIBlendKernel { filter("overlay", "CIOverlayBlendMode") }
    /// The darken blend mode.
    public static var darken: CIBlendKernel { filter("darken", "CIDarkenBlendMode") }
    /// The lighten blend mode.
    public static var lighten: CIBlendKernel { filter("lighten", "CILightenBlendMode") }
    /// The colour dodge blend mode.
    public static var colorDodge: CIBlendKernel { filter("colorDodge", "CIColorDodgeBlendMode") }
    /// The colour burn blend mode.
    public static var colorBurn: CIBlendKernel { filter("colorBurn", "CIColorBurnBlendMode") }
    /// The hard light blend mode.
    public static var hardLight: CIBlendKernel { filter("hardLight", "CIHardLightBlendMode") }
    /// The soft light blend mode.
    public static var softLight: CIBlendKernel { filter("softLight", "CISoftLightBlendMode") }
    /// The difference blend mode.
    public static var difference: CIBlendKernel { filter("difference", "CIDifferenceBlendMode") }
    /// The exclusion blend mode.
    public static var exclusion: CIBlendKernel { filter("exclusion", "CIExclusionBlendMode") }
    /// The hue blend mode.
    public static var hue: CIBlendKernel { filter("hue", "CIHueBlendMode") }
    /// The saturation blend mode.
    public static var saturation: CIBlendKernel { filter("saturation", "CISaturationBlendMode") }
    /// The colour blend mode.
    public static var color: CIBlendKernel { filter("color", "CIColorBlendMode") }
    /// The luminosity blend mode.
    public static var luminosity: CIBlendKernel { filter("luminosity", "CILuminosityBlendMode") }
    /// The subtract blend mode.
    public static var subtract: CIBlendKernel { filter("subtract", "CISubtractBlendMode") }
    /// The divide blend mode.
    public static var divide: CIBlendKernel { filter("divide", "CIDivideBlendMode") }
    /// The linear burn blend mode.
    public static var linearBurn: CIBlendKernel { filter("linearBurn", "CILinearBurnBlendMode") }
    /// The linear dodge blend mode.
    public static var linearDodge: CIBlendKernel { filter("linearDodge", "CILinearDodgeBlendMode") }
    /// The vivid light blend mode.
    public static var vividLight: CIBlendKernel { filter("vividLight", "CIVividLightBlendMode") }
    /// The linear light blend mode.
    public static var linearLight: CIBlendKernel { filter("linearLight", "CILinearLightBlendMode") }
    /// The pin light blend mode.
    public static var pinLight: CIBlendKernel { filter("pinLight", "CIPinLightBlendMode") }
}
