// From AirKit's CICategory.swift, CIFilter+AirKit.swift and CIContext+AirKit.swift (corpus files of their own).
import LumenCoreImage

public struct CICategory {
    public let name: String
    public let parameters: [String: Any]?
    public init(name: String, parameters: [String: Any]? = nil) { self.name = name; self.parameters = parameters }
    public enum Reduction {}
}

public extension CICategory.Reduction {
    static func areaAverage(inputImage: CIImage, inputExtent: CIVector? = nil) -> CICategory { fatalError("stub") }
}

public extension CIFilter {
    convenience init?(category: CICategory) { self.init(name: category.name, parameters: category.parameters) }
}

public extension CIContext {
    func rendered(image: CIImage, rowBytes: Int, bounds: CGRect, format: CIFormat, colorSpace: CGColorSpace?) -> [UInt8] { fatalError("stub") }
}
