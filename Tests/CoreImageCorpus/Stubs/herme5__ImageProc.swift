// ImageProc's own types that the corpus files use (declared elsewhere in ImageProc:
// ResourceLoader.swift, ColorFilter.swift, UIColorExtension.swift, CGColorExtension.swift,
// CGImageExtension.swift, CGSizeExtension.swift, CGPointExtension.swift, CGRectExtension.swift,
// UIImageExtension+Expanded.swift).
import LumenCoreImage
import CorpusStubs

/// Loads a CIColorKernel from the package's compiled Metal library.
internal class KernelLoader {
    static func loadFunction(named functionName: String) -> CIColorKernel { fatalError("stub") }
}

/// ImageProc's Metal-kernel colorizing CIFilter subclass.
internal class ColorFilter: CIFilter {
    var inputImage: CIImage?
    var inputColor: CIColor?
}

internal extension UIColor {
    var rgba: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { (0, 0, 0, 0) }
}

internal extension CGColor {
    static let defaultRGBColorSpace = CGColorSpaceCreateDeviceRGB()
}

internal extension CGImage {
    func withBitmapAsCGColorArray<T>(_ handler: ([CGColor]) -> T) -> T { handler([]) }
}

internal func * (left: CGSize, right: CGFloat) -> CGSize { left }
internal func / (left: CGSize, right: CGFloat) -> CGSize { left }
internal func * (left: CGPoint, right: CGFloat) -> CGPoint { left }

internal extension CGRect {
    var center: CGPoint {
        get { CGPoint(x: midX, y: midY) }
        set { origin.x = newValue.x - (width / 2); origin.y = newValue.y - (height / 2) }
    }
    init(center: CGPoint, size: CGSize) { self.init(origin: .zero, size: size); self.center = center }
}

internal extension UIImage {
    static func _setupCachedRange(_ degree: CGFloat) {}
    static func _expanded_concurrent(args: ExpandedArguments, cgImage: CGImage) {}

    /// (ImageProc types `translationVector` as Core Graphics' CGVector; it is `Any` here so that this
    /// stub does not itself need a Core Graphics type, and a missing CGVector shows in the corpus file.)
    class ExpandedArguments: NSObject {
        var context: CGContext
        var translatedRect: CGRect
        var translationVector: Any
        var size: CGSize
        var scale: CGFloat
        init(context: CGContext, translatedRect: CGRect, translationVector: Any, size: CGSize, scale: CGFloat) {
            self.context = context; self.translatedRect = translatedRect; self.translationVector = translationVector
            self.size = size; self.scale = scale
        }
    }
}
