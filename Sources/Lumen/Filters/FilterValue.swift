import LumenPlatform

/// A parameter value as filters receive it.
public enum FilterValue: Sendable, Hashable, CustomStringConvertible {
    /// A number (scalars, distances, angles, integers, booleans as 0/1, times).
    case number(Double)
    /// Points `[x, y]`, rectangles `[x, y, w, h]` and other vectors.
    case vector([Double])
    /// A colour.
    case color(Color)
    /// An affine transform.
    case transform(AffineTransform)
    /// An image (a lazy recipe).
    case image(Image)
    /// Text: a message, a font name, a chain parameter's text.
    case string(String)
    /// Bytes: a barcode's message, a colour cube's table (Core Image's `NSData`).
    case data(Data)

    /// The value as a chain writes it (`4`, `[1, 2]`, `#ff8000`, `"text"`).
    public var description: String {
        switch self {
        case let .number(v): return format(v)
        case let .vector(v): return "[\(v.map(format).joined(separator: ", "))]"
        case let .color(c): return c.description
        case let .transform(t): return t.description
        case let .image(i): return i.description
        case let .string(s): return "\"\(s)\""
        case let .data(d): return "<\(d.count) bytes>"
        }
    }

    /// Converts a Swift value as Core Image's key-value coding would accept it.
    public init?(_ any: Any) {
        switch any {
        case let v as FilterValue: self = v
        case let v as Image: self = .image(v)
        case let v as Double: self = .number(v)
        case let v as Float: self = .number(Double(v))
        case let v as Int: self = .number(Double(v))
        case let v as Bool: self = .number(v ? 1 : 0)
        case let v as Point: self = .vector([v.x, v.y])
        case let v as Rect: self = .vector([v.x, v.y, v.width, v.height])
        case let v as [Double]: self = .vector(v)
        case let v as [Float]: self = .vector(v.map(Double.init))
        case let v as [Int]: self = .vector(v.map(Double.init))
        case let v as Color: self = .color(v)
        case let v as AffineTransform: self = .transform(v)
        case let v as String: self = .string(v)
        case let v as Data: self = .data(v)
        case let v as [UInt8]: self = .data(Data(v))
        default: return nil
        }
    }
}
