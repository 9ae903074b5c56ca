import Foundation
import Lumen

/// What every typed filter offers (Core Image's `CIFilterProtocol`).
public protocol CIFilterProtocol: AnyObject {
    var outputImage: CIImage? { get }
}

extension CIFilter {
    /// A typed built-in (`CIFilter.gaussianBlur()`); the name comes from the generated table.
    convenience init(coreImageName: String) {
        self.init(descriptor: FilterRegistry.descriptor(named: coreImageName)!)
    }

    // Typed getters for the generated properties: the current value, or the type's zero.
    func floatValue(_ key: String) -> Float { Float((value(forKey: key) as? NSNumber)?.doubleValue ?? 0) }
    func boolValue(_ key: String) -> Bool { ((value(forKey: key) as? NSNumber)?.doubleValue ?? 0) >= 0.5 }
    func pointValue(_ key: String) -> CGPoint { (value(forKey: key) as? CIVector)?.cgPointValue ?? .zero }
    func rectValue(_ key: String) -> CGRect { (value(forKey: key) as? CIVector)?.cgRectValue ?? .zero }
    func vectorValue(_ key: String) -> CIVector { (value(forKey: key) as? CIVector) ?? CIVector(array: []) }
    func colorValue(_ key: String) -> CIColor { (value(forKey: key) as? CIColor) ?? .clear }
    func transformValue(_ key: String) -> CGAffineTransform { (value(forKey: key) as? CGAffineTransform) ?? .identity }
    func stringValue(_ key: String) -> String { (value(forKey: key) as? String) ?? "" }
    func dataValue(_ key: String) -> Data { (value(forKey: key) as? Data) ?? Data() }
    func imageValue(_ key: String) -> CIImage? { value(forKey: key) as? CIImage }
}

extension CIFilter: CIFilterProtocol {}
