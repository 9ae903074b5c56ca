import Foundation
import Lumen

/// Core Image's vector of CGFloat values: points, rectangles, coefficient lists.
public final class CIVector: NSObject, @unchecked Sendable {
    private let values: [CGFloat]

    /// A vector of `count` values copied from `values`.
    public init(values: UnsafePointer<CGFloat>, count: Int) { self.values = Array(UnsafeBufferPointer(start: values, count: max(0, count))) }
    /// A vector of one value.
    public init(x: CGFloat) { values = [x] }
    /// A vector of two values (a point, an offset).
    public init(x: CGFloat, y: CGFloat) { values = [x, y] }
    /// A vector of three values.
    public init(x: CGFloat, y: CGFloat, z: CGFloat) { values = [x, y, z] }
    /// A vector of four values (a rectangle: x, y, width, height; a colour matrix row).
    public init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { values = [x, y, z, w] }
    /// The point as `[x y]`.
    public convenience init(cgPoint p: CGPoint) { self.init(x: p.x, y: p.y) }
    /// The rectangle as `[x y width height]`.
    public convenience init(cgRect r: CGRect) { self.init(x: r.origin.x, y: r.origin.y, z: r.size.width, w: r.size.height) }
    /// The transform as `[a b c d tx ty]`.
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

    /// How many values the vector has.
    public var count: Int { values.count }
    /// The value at `index`, or 0 past the end (as Core Image).
    public func value(at index: Int) -> CGFloat { index >= 0 && index < values.count ? values[index] : 0 }
    /// The first value (0 when absent).
    public var x: CGFloat { value(at: 0) }
    /// The second value (0 when absent).
    public var y: CGFloat { value(at: 1) }
    /// The third value (0 when absent).
    public var z: CGFloat { value(at: 2) }
    /// The fourth value (0 when absent).
    public var w: CGFloat { value(at: 3) }
    /// The first two values as a point.
    public var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    /// The first four values as a rectangle.
    public var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    /// The first six values as a transform.
    public var cgAffineTransformValue: CGAffineTransform {
        CGAffineTransform(a: value(at: 0), b: value(at: 1), c: value(at: 2), d: value(at: 3), tx: value(at: 4), ty: value(at: 5))
    }
    /// `[v0 v1 …]`, which `init(string:)` reads back.
    public var stringRepresentation: String { "[" + values.map { "\(Double($0))" }.joined(separator: " ") + "]" }

    var doubles: [Double] { values.map(Double.init) }

    /// Equal to another vector with the same values.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CIVector)?.values == values }
    /// Hashes the values.
    public override var hash: Int { values.hashValue }
    /// The string representation.
    public override var description: String { stringRepresentation }
}

/// Core Image's colour: components in a colour space (sRGB unless given), straight alpha.
public final class CIColor: NSObject, @unchecked Sendable {
    /// The components in `colorSpace`, unpremultiplied; alpha 0…1.
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat
    /// The space the components are in (sRGB by default).
    public let colorSpace: CGColorSpace

    /// An sRGB colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)!
    }
    /// A colour in an RGB space; nil for a grey space.
    public init?(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1, colorSpace: CGColorSpace) {
        guard colorSpace.numberOfComponents == 3 else { return nil }
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        self.colorSpace = colorSpace
    }
    /// An opaque colour in an RGB space; nil for a grey space.
    public convenience init?(red: CGFloat, green: CGFloat, blue: CGFloat, colorSpace: CGColorSpace) {
        self.init(red: red, green: green, blue: blue, alpha: 1, colorSpace: colorSpace)
    }
    /// "0.5 0.25 1 1" (Core Image's `stringRepresentation`).
    public convenience init(string representation: String) {
        let v = representation.split(whereSeparator: { " [],\t\n".contains($0) }).compactMap { Double($0) }.map { CGFloat($0) }
        self.init(red: v.count > 0 ? v[0] : 0, green: v.count > 1 ? v[1] : 0, blue: v.count > 2 ? v[2] : 0, alpha: v.count > 3 ? v[3] : 1)
    }

    /// Opaque black.
    public static let black = CIColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    /// Opaque grey, sRGB 0.5.
    public static let gray = CIColor(red: 0.5, green: 0.5, blue: 0.5)
    /// Opaque sRGB red.
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    /// Opaque sRGB green.
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    /// Opaque sRGB blue.
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
    /// Opaque cyan.
    public static let cyan = CIColor(red: 0, green: 1, blue: 1)
    /// Opaque magenta.
    public static let magenta = CIColor(red: 1, green: 0, blue: 1)
    /// Opaque yellow.
    public static let yellow = CIColor(red: 1, green: 1, blue: 0)
    /// Transparent.
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Always 4: red, green, blue, alpha.
    public var numberOfComponents: Int { 4 }
    /// `"r g b a"`, which `init(string:)` reads back.
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

    /// Equal to another colour with the same components.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? CIColor else { return false }
        return (o.red, o.green, o.blue, o.alpha) == (red, green, blue, alpha) && o.colorSpace == colorSpace
    }
    /// Hashes the components.
    public override var hash: Int { [red, green, blue, alpha].hashValue }
    /// The components and the colour space.
    public override var description: String { "(\(stringRepresentation)) \(colorSpace)" }
}

/// The sRGB transfer curve (IEC 61966-2-1) of a linear value 0…1.
func srgb(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
