// CoreImageExtensions' own types that the corpus files use (declared elsewhere in the package).
import LumenCoreImage

/// The package's pixel type: four values of a component type.
public struct Pixel<Scalar> {
    public var r: Scalar, g: Scalar, b: Scalar, a: Scalar
    public init(repeating value: Scalar) { r = value; g = value; b = value; a = value }
}
