// Brightroom's own types that the corpus files use (declared elsewhere in BrightroomEngine).
import LumenCoreImage
import CorpusStubs

public protocol Filtering: Hashable {
    func apply(to image: CIImage, sourceImage: CIImage) -> CIImage
}

public struct AnyFilter: Hashable {
    public func apply(to image: CIImage, sourceImage: CIImage) -> CIImage { image }
}

public struct FilterShadows: Filtering, Codable {
    public func apply(to image: CIImage, sourceImage: CIImage) -> CIImage { image }
}

public struct ParameterRange<T: Comparable, Target> {
    public let min: T
    public let max: T
    public init(min: T, max: T) { self.min = min; self.max = max }
}

public final class ImageSource: Hashable {
    public static func == (a: ImageSource, b: ImageSource) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    func loadOriginalCGImage() -> CGImage { fatalError("stub") }
    func readImageSize() -> CGSize { fatalError("stub") }
    func makeOriginalCIImage() -> CIImage { fatalError("stub") }
}

enum ColorCubeHelper {
    static func makeColorCubeFilter(lutImage: ImageSource, dimension: Int, cacheKey: String) -> CIFilter { fatalError("stub") }
}

enum RadiusCalculator {
    static func radius(value: Double, max: Double, imageExtent: CGRect) -> Double { fatalError("stub") }
}

public protocol GraphicsDrawing {
    func draw(in context: CGContext)
}

public struct DrawnPath: GraphicsDrawing {
    public func draw(in context: CGContext) {}
}

public struct EditingCrop: Equatable {
    public struct Rotation: Equatable { public var radians: CGFloat }
    public var imageSize: CGSize
    public var cropExtent: CGRect
    public var aggregatedRotation: Rotation
    public init(imageSize: CGSize) { fatalError("stub") }
}

enum EngineLog {
    enum Category { case renderer, `default` }
    static func debug(_ category: Category, _ message: @autoclosure () -> Any) {}
}

enum ImageTool {
    static func makeImageForJPEGOptimizedSharing(image: CGImage, quality: CGFloat) -> Data { fatalError("stub") }
    static func makeImageForPNGOptimizedSharing(image: CGImage) -> Data { fatalError("stub") }
}

extension CGSize {
    func applying(cgOrientation: CGImagePropertyOrientation) -> CGSize { fatalError("stub") }
    init(image: CIImage) { self = image.extent.size }
}

extension CGImage {
    var size: CGSize { CGSize(width: width, height: height) }
    func oriented(_ orientation: CGImagePropertyOrientation) throws -> CGImage { fatalError("stub") }
    func croppedWithColorspace(to rect: CGRect, adjustmentAngleRadians: CGFloat) throws -> CGImage { fatalError("stub") }
    func resized(maxPixelSize: CGFloat) throws -> CGImage { fatalError("stub") }
}

extension CGContext {
    static func makeContext(for image: CGImage) throws -> CGContext { fatalError("stub") }
    func perform(_ drawing: (CGContext) -> Void) -> CGContext { drawing(self); return self }
}

extension Optional {
    func unwrap() throws -> Wrapped { fatalError("stub") }
}
