/// A color as users write it: sRGB-encoded components 0…1, unpremultiplied (CIColor's
/// default space). Filters convert it to the linear, premultiplied working space.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The red component, sRGB-encoded (0…1; values outside it are kept, for extended range).
    public var red: Double
    /// The green component, sRGB-encoded.
    public var green: Double
    /// The blue component, sRGB-encoded.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque); the colour components are not multiplied by it.
    public var alpha: Double

    /// A colour from sRGB-encoded, unpremultiplied components (opaque unless `alpha` says otherwise).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Opaque middle grey: sRGB code 0.5 (about 21 % linear light).
    public static let gray = Color(red: 0.5, green: 0.5, blue: 0.5)
    /// Opaque sRGB red.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque sRGB green.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque sRGB blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Opaque cyan.
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// Opaque magenta.
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// Opaque yellow.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Fully transparent (black with alpha 0).
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Named colors accepted by chains and the command line.
    public static let named: [String: Color] = [
        "black": .black, "white": .white, "gray": .gray, "grey": .gray, "red": .red, "green": .green,
        "blue": .blue, "cyan": .cyan, "magenta": .magenta, "yellow": .yellow, "clear": .clear,
        "transparent": .clear, "orange": Color(red: 1, green: 0.5, blue: 0),
    ]

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or a color name.
    public init?(parsing text: String) {
        if let named = Color.named[text.lowercased()] { self = named; return }
        guard text.hasPrefix("#") else { return nil }
        var hex = String(text.dropFirst())
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let value = UInt64(hex, radix: 16) else { return nil }
        let v = hex.count == 6 ? value << 8 | 0xFF : value
        self.init(red: Double(v >> 24 & 0xFF) / 255, green: Double(v >> 16 & 0xFF) / 255,
                  blue: Double(v >> 8 & 0xFF) / 255, alpha: Double(v & 0xFF) / 255)
    }

    /// Linear-light, premultiplied working-space value.
    var working: SIMD4<Float> {
        let a = Float(alpha)
        return SIMD4(Float(TransferFunction.linear(fromSRGB: red)) * a,
                     Float(TransferFunction.linear(fromSRGB: green)) * a,
                     Float(TransferFunction.linear(fromSRGB: blue)) * a, a)
    }

    /// `rgba(r, g, b, a)` with three decimals.
    public var description: String {
        "rgba(\([red, green, blue, alpha].map { format(($0 * 1000).rounded() / 1000) }.joined(separator: ", ")))"
    }
}
