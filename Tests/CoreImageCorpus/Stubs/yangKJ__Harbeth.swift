// Harbeth's own types that the corpus files use (declared elsewhere in Harbeth).
import LumenCoreImage
import CorpusStubs

public typealias C7Image = UIImage

public enum ModifierEnum {
    case coreimage(CIName: String)
    public var name: String { if case let .coreimage(name) = self { return name }; return "" }
}

public protocol CoreImageProtocol {
    var modifier: ModifierEnum { get }
    var inputCIFilter: CIFilter? { get }
    var croppedOutputImage: Bool { get }
    func coreImageApply(filter: CIFilter, input ciImage: CIImage) throws -> CIImage
}

extension CoreImageProtocol {
    public var inputCIFilter: CIFilter? { nil }
    public var croppedOutputImage: Bool { false }
}

public struct ParameterRange<T: Comparable, Target> {
    public let min: T, max: T, value: T
    public init(min: T, max: T, value: T) { self.min = min; self.max = max; self.value = value }
}

@propertyWrapper public struct Clamping<Value: Comparable> {
    var value: Value
    let range: ClosedRange<Value>
    public init(wrappedValue: Value, _ range: ClosedRange<Value>) { self.range = range; value = wrappedValue }
    public var wrappedValue: Value {
        get { value }
        set { value = Swift.min(Swift.max(range.lowerBound, newValue), range.upperBound) }
    }
}

public enum HarbethError: Error {
    case cubeResource
    case texture2CGImage
    case outputCIImage(String)
    case createCIFilter(String)
}

public enum C7ColorCube {
    public struct Resource {
        public let dimension: Int
        public let data: Data
        public static func readCubeResource(_ name: String) -> Resource? { nil }
    }
}

public enum Device {
    public static func colorSpace() -> CGColorSpace { CGColorSpaceCreateDeviceRGB() }
    public static func context(colorSpace: CGColorSpace) -> CIContext { CIContext() }
}

public protocol HarbethCompatible {}
public struct HarbethWrapper<Base> {
    public let base: Base
}
extension HarbethCompatible {
    public var c7: HarbethWrapper<Self> { HarbethWrapper(base: self) }
}
extension CGRect: HarbethCompatible {}
extension HarbethWrapper where Base == CGRect {
    public func radius(_ value: Float, max: Float) -> Float { value }
}
