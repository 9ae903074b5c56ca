import Foundation
import Lumen

/// Core Image's kernels on Lumen's kernel contract. Apple builds kernels from Metal
/// libraries or CIKL source strings; neither can run here, so those initialisers fail as
/// Core Image fails for a kernel it cannot build (nil, or a thrown error) with a message
/// that says why. Kernels are written as Swift closures instead — the same functions
/// Lumen's `ColorKernel`, `WarpKernel` and `Kernel` take — and applied with Core Image's
/// `apply` methods.
open class CIKernel: NSObject, @unchecked Sendable {
    /// The kernel's name: part of the images' identity (give a changed function a new name).
    public let name: String
    let general: Kernel?

    init(name: String, general: Kernel?) {
        self.name = name
        self.general = general
        super.init()
    }

    /// A general kernel: `body(destination, samplers)` gives each output pixel, reading the
    /// input images through samplers (Lumen's `Kernel`).
    public convenience init(name: String, _ body: @escaping @Sendable (SIMD2<Double>, Kernel.Samplers) -> SIMD4<Float>) {
        self.init(name: name, general: Kernel(name, pixel: body))
    }

    /// CIKL source cannot be compiled on Linux: nil, with the reason on standard error.
    public convenience init?(source string: String) {
        CIFilter.report("CIKernel(source:): Core Image Kernel Language needs Apple's GPU compiler; write the kernel as a Swift closure (CIColorKernel(name:_:))")
        return nil
    }

    /// Metal libraries cannot run on Linux: throws.
    public convenience init(functionName name: String, fromMetalLibraryData data: Data) throws {
        throw CIError.kernel("'\(name)' is a Metal function; Metal does not exist on Linux — write the kernel as a Swift closure")
    }

    /// Metal libraries cannot run on Linux: throws.
    public convenience init(functionName name: String, fromMetalLibraryData data: Data, outputPixelFormat format: CIFormat) throws {
        try self.init(functionName: name, fromMetalLibraryData: data)
    }

    /// Metal source cannot be compiled on Linux: throws. Write the kernel as a Swift closure.
    open class func kernels(withMetalString source: String) throws -> [CIKernel] {
        throw CIError.kernel("Metal source cannot be compiled on Linux — write the kernel as a Swift closure")
    }

    /// Core Image's region-of-interest callback: the rectangle of input `index` that the
    /// destination rectangle reads.
    public typealias ROICallback = (Int32, CGRect) -> CGRect

    /// Applies a general kernel over `extent`.
    open func apply(extent: CGRect, roiCallback: @escaping CIKernelROICallback, arguments args: [Any]) -> CIImage? {
        guard let general else { return nil }
        guard let converted = Self.arguments(args) else { return nil }
        let roi = UncheckedSendable(roiCallback)
        return CIImage(lumenImage: general.apply(extent: Rect(extent), regionOfInterest: { index, rect in
            Rect(roi.value(Int32(index), CGRect(rect)))
        }, arguments: converted))
    }

    /// Core Image argument values as Lumen's: CIImage, numbers, CIVector, CIColor, CGPoint, CGRect.
    static func arguments(_ args: [Any]) -> [any KernelArgument]? {
        var result: [any KernelArgument] = []
        for (i, arg) in args.enumerated() {
            switch arg {
            case let v as CIImage: result.append(v.lumenImage)
            case let v as CISampler: result.append(v.image.lumenImage)
            case let v as CIVector: result.append(v.doubles)
            case let v as CIColor: result.append(v.lumen)
            case let v as CGPoint: result.append([Double(v.x), Double(v.y)])
            case let v as CGRect: result.append(Rect(v))
            case let v as CGFloat: result.append(Double(v))
            case let v as Double: result.append(v)
            case let v as Float: result.append(v)
            case let v as Int: result.append(v)
            case let v as NSNumber: result.append(v.doubleValue)
            default:
                CIFilter.report("kernel argument \(i) has unsupported type \(type(of: arg))")
                return nil
            }
        }
        return result
    }
}

/// The callback type Core Image spells at top level.
public typealias CIKernelROICallback = CIKernel.ROICallback

/// A per-pixel kernel: each output pixel from the input images' pixels at the same place.
open class CIColorKernel: CIKernel, @unchecked Sendable {
    let color: ColorKernel

    /// `body(pixel)` reads `pixel[i]` (input image i, premultiplied linear RGBA), the
    /// destination `pixel.coordinate` and the non-image arguments `pixel.values`.
    public init(name: String, _ body: @escaping @Sendable (ColorKernel.Pixel) -> SIMD4<Float>) {
        color = ColorKernel(name, pixel: body)
        super.init(name: name, general: nil)
    }

    /// A one-input kernel of the pixel alone.
    public init(name: String, single body: @escaping @Sendable (SIMD4<Float>) -> SIMD4<Float>) {
        color = ColorKernel(name, body)
        super.init(name: name, general: nil)
    }

    /// CIKL source cannot be compiled on Linux: nil, with the reason on standard error
    /// (declared here as Apple declares it: `CIKernel`'s is not inherited).
    public convenience init?(source string: String) {
        CIFilter.report("CIColorKernel(source:): Core Image Kernel Language needs Apple's GPU compiler; write the kernel as a Swift closure (CIColorKernel(name:_:))")
        return nil
    }

    /// The kernel over `extent`; `args` are images and numbers, vectors, colours in the closure's order; nil when an argument has a type the kernel cannot take.
    open func apply(extent: CGRect, arguments args: [Any]) -> CIImage? {
        guard let converted = Self.arguments(args) else { return nil }
        return CIImage(lumenImage: color.apply(extent: Rect(extent), arguments: converted))
    }

    /// As `apply(extent:arguments:)`: a colour kernel reads each input where it writes, so the callback is not needed.
    open override func apply(extent: CGRect, roiCallback: @escaping CIKernelROICallback, arguments args: [Any]) -> CIImage? {
        apply(extent: extent, arguments: args)
    }
}

/// A geometry kernel: the source position each destination position samples.
open class CIWarpKernel: CIKernel, @unchecked Sendable {
    let warp: WarpKernel

    /// `body(destination, values)` gives the source position of a destination pixel
    /// centre; `values` are the non-image arguments.
    public init(name: String, _ body: @escaping @Sendable (SIMD2<Double>, KernelValues) -> SIMD2<Double>) {
        warp = WarpKernel(name, mapping: body)
        super.init(name: name, general: nil)
    }

    /// CIKL source cannot be compiled on Linux: nil, with the reason on standard error.
    public convenience init?(source string: String) {
        CIFilter.report("CIWarpKernel(source:): Core Image Kernel Language needs Apple's GPU compiler; write the kernel as a Swift closure (CIWarpKernel(name:_:))")
        return nil
    }

    /// The warp over `extent`: each destination pixel samples `image` where the closure says; `callback` gives the input rectangle a destination rectangle reads.
    open func apply(extent: CGRect, roiCallback callback: @escaping CIKernelROICallback, image: CIImage, arguments args: [Any]) -> CIImage? {
        guard let converted = Self.arguments(args) else { return nil }
        let roi = UncheckedSendable(callback)
        return CIImage(lumenImage: warp.apply(extent: Rect(extent), image: image.lumenImage,
                                              regionOfInterest: { rect in Rect(roi.value(0, CGRect(rect))) }, arguments: converted))
    }
}

/// Core Image's callbacks are not declared Sendable; Lumen calls them from its render threads.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Core Image's sampler: an image as a kernel reads it. Kernels here sample their image
/// arguments themselves, so a sampler passed to `apply` stands for its image.
open class CISampler: NSObject, @unchecked Sendable {
    /// The image sampled.
    public let image: CIImage
    /// The options given (wrap mode, filter mode…), kept for `definition`-style inspection.
    public let options: [AnyHashable: Any]

    /// A sampler of `image`.
    public convenience init(image: CIImage) { self.init(image: image, options: nil) }
    /// A sampler of `image` with options (`kCISamplerWrapMode`, `kCISamplerFilterMode`…):
    /// accepted; how a kernel samples is up to the kernel's closure.
    public init(image: CIImage, options: [AnyHashable: Any]?) {
        self.image = image
        self.options = options ?? [:]
        super.init()
    }

    /// The sampled image's extent.
    open var extent: CGRect { image.extent }
}
