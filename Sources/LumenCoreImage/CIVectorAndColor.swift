import Foundation
import Lumen

/// Core Image's vector of CGFloat values: points, rectangles, coefficient lists.
public final class CIVector: NSObject, @unchecked Sendable {
    private let values: [CGFloat]

    public init(values: UnsafePointer<CGFloat>, count: Int) { self.values = Array(UnsafeBufferPointer(start: values, count: max(0, count))) }
    public init(x: CGFloat) { values = [x] }
    public init(x: CGFloat, y: CGFloat) { values = [x, y] }
    public init(x: CGFloat, y: CGFloat, z: CGFloat) { values = [x, y, z] }
    public init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { values = [x, y, z, w] }
    public convenience init(cgPoint p: CGPoint) { self.init(x: p.x, y: p.y) }
    public convenience init(cgRect r: CGRect) { self.init(x: r.origin.x, y: r.origin.y, z: r.size.width, w: r.size.height) }
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        let v = [t.a, t.b, t.c, t.d, t.tx, t.ty]
        self.init(array: v)
    }
    /// Parses "[1 2 3]" (Core Image's `stringRepresentation`); "[]" on garbage.
    public convenience init(string representation: String) {
        let numbers = representation.split(whereSeparator: { " [],\t\n".contains($0) }).compactMap { Double($0) }.map { CGFloat($0) }
        self.init(array: numbers)
    }
    init(array: [CGFloat]) { values = array }

    public var count: Int { values.count }
    public func value(at index: Int) -> CGFloat { index >= 0 && index < values.count ? values[index] : 0 }
    public var x: CGFloat { value(at: 0) }
    public var y: CGFloat { value(at: 1) }
    public var z: CGFloat { value(at: 2) }
    public var w: CGFloat { value(at: 3) }
    public var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    public var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    public var cgAffineTransformValue: CGAffineTransform {
        CGAffineTransform(a: value(at: 0), b: value(at: 1), c: value(at: 2), d: value(at: 3), tx: value(at: 4), ty: value(at: 5))
    }
    public var stringRepresentation: String { "[" + values.map { "\(Double($0))" }.joined(separator: " ") + "]" }

    var doubles: [Double] { values.map(Double.init) }

    public override func isEqual(_ object: Any?) -> Bool { (object as? CIVector)?.values == values }
    public override var hash: Int { values.hashValue }
    public override var description: String { stringRepresentation }
}

/// Core Image's colour: components in a colour space (sRGB unless given), straight alpha.
public final class CIColor: NSObject, @unchecked Sendable {
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat
    public let colorSpace: CGColorSpace

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)!
    }
    public init?(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1, colorSpace: CGColorSpace) {
        guard colorSpace.numberOfComponents == 3 else { return nil }
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        self.colorSpace = colorSpace
    }
    public convenience init?(red: CGFloat, green: CGFloat, blue: CGFloat, colorSpace: CGColorSpace) {
        self.init(red: red, green: green, blue: blue, alpha: 1, colorSpace: colorSpace)
    }
    /// "0.5 0.25 1 1" (Core Image's `stringRepresentation`).
    public convenience init(string representation: String) {
        let v = representation.split(whereSeparator: { " [],\t\n".contains($0) }).compactMap { Double($0) }.map { CGFloat($0) }
        self.init(red: v.count > 0 ? v[0] : 0, green: v.count > 1 ? v[1] : 0, blue: v.count > 2 ? v[2] : 0, alpha: v.count > 3 ? v[3] : 1)
    }

    public static let black = CIColor(red: 0, green: 0, blue: 0)
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    public static let gray = CIColor(red: 0.5, green: 0.5, blue: 0.5)
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
    public static let cyan = CIColor(red: 0, green: 1, blue: 1)
    public static let magenta = CIColor(red: 1, green: 0, blue: 1)
    public static let yellow = CIColor(red: 1, green: 1, blue: 0)
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)

    public var numberOfComponents: Int { 4 }
    public var stringRepresentation: String { "\(Double(red)) \(Double(green)) \(Double(blue)) \(Double(alpha))" }

    /// Lumen's colour (sRGB-encoded, straight alpha); linear spaces are encoded first.
    var lumen: Color {
        if colorSpace.isLinear {
            func encode(_ v: CGFloat) -> Double { let x = Double(v); return x < 0 ? -srgb(-x) : srgb(x) }
            return Color(red: encode(red), green: encode(green), blue: encode(blue), alpha: Double(alpha))
        }
        return Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
    }
    convenience init(_ c: Color) { self.init(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha) }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? CIColor else { return false }
        return (o.red, o.green, o.blue, o.alpha) == (red, green, blue, alpha) && o.colorSpace == colorSpace
    }
    public override var hash: Int { [red, green, blue, alpha].hashValue }
    public override var description: String { "(\(stringRepresentation)) \(colorSpace)" }
}

/// The sRGB transfer curve (IEC 61966-2-1) of a linear value 0…1.
func srgb(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
