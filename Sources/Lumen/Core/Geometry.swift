/// A point in Core Image coordinates: pixels, origin bottom-left, y up.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate, in pixels from the left edge.
    public var x: Double
    /// The vertical coordinate, in pixels from the bottom edge (y grows upwards).
    public var y: Double
    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The point as a chain writes a vector: `[x, y]`.
    public var description: String { "[\(format(x)), \(format(y))]" }
}

/// A rectangle in Core Image coordinates. `Rect.infinite` stands for an unbounded plane
/// (generators, gradients, `clampedToExtent()`).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The bottom edge (y grows upwards).
    public var y: Double
    /// The horizontal size; zero or negative means empty.
    public var width: Double
    /// The vertical size; zero or negative means empty.
    public var height: Double

    /// A rectangle whose bottom-left corner is (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Core Image's encoding of CGRect.infinite.
    public static let infinite = Rect(x: -Double.greatestFiniteMagnitude / 2, y: -Double.greatestFiniteMagnitude / 2,
                                      width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude)
    /// The empty rectangle at the origin (what an intersection with nothing in common returns).
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// Whether this stands for the unbounded plane (`Rect.infinite`, or any side of 1e300 or more).
    public var isInfinite: Bool { width >= 1e300 || height >= 1e300 }
    /// Whether the rectangle covers no area (a width or height that is zero, negative or NaN).
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    /// The left edge.
    public var minX: Double { x }
    /// The bottom edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The top edge.
    public var maxY: Double { y + height }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// The centre point, what a chain writes as `input.center`.
    public var center: Point { Point(x: midX, y: midY) }

    /// The area both rectangles cover, or `.zero` when they do not overlap; an infinite rectangle intersected with another gives the other.
    public func intersection(_ other: Rect) -> Rect {
        if isInfinite { return other }
        if other.isInfinite { return self }
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .zero
    }

    /// The smallest rectangle covering both (an empty one is ignored; an infinite one makes the result infinite).
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        if isInfinite || other.isInfinite { return .infinite }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Grows (positive) or shrinks (negative) every side.
    public func outset(by d: Double) -> Rect {
        isInfinite || isEmpty ? self : Rect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }

    /// Core Graphics' `insetBy`: moves the left and right sides in by `dx`, the bottom
    /// and top by `dy` (negative values grow the rectangle).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        isInfinite || isEmpty ? self : Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// Core Graphics' `offsetBy`: the same rectangle moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        isInfinite ? self : Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// Whether `other` lies entirely inside this rectangle (edges included).
    public func contains(_ other: Rect) -> Bool {
        if isInfinite { return true }
        if other.isInfinite { return false }
        return other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The bounding box of this rectangle mapped through `t` (infinite stays infinite).
    public func applying(_ t: AffineTransform) -> Rect {
        if isInfinite || isEmpty { return self }
        let a = t.apply(Point(x: minX, y: minY)), b = t.apply(Point(x: maxX, y: minY))
        let c = t.apply(Point(x: minX, y: maxY)), d = t.apply(Point(x: maxX, y: maxY))
        let x0 = min(a.x, b.x, c.x, d.x), x1 = max(a.x, b.x, c.x, d.x)
        let y0 = min(a.y, b.y, c.y, d.y), y1 = max(a.y, b.y, c.y, d.y)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle as a chain writes one, `[x, y, width, height]`, or `infinite`.
    public var description: String {
        isInfinite ? "infinite" : "[\(format(x)), \(format(y)), \(format(width)), \(format(height))]"
    }
}

/// An integer pixel rectangle; pixel (x, y) covers [x, x+1) × [y, y+1).
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// The left column.
    public var x: Int
    /// The bottom row (Core Image's y-up convention).
    public var y: Int
    /// The number of columns; zero or negative means empty.
    public var width: Int
    /// The number of rows; zero or negative means empty.
    public var height: Int

    /// No pixels.
    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Large enough for any image, small enough that sums of coordinates cannot overflow.
    public static let unbounded = PixelRect(x: -(1 << 40), y: -(1 << 40), width: 1 << 41, height: 1 << 41)

    /// Whether the rectangle holds no pixels.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// One past the right column.
    public var maxX: Int { x + width }
    /// One past the top row.
    public var maxY: Int { y + height }
    /// width × height (saturating: unbounded rectangles are as large as an Int gets).
    public var area: Int {
        guard !isEmpty else { return 0 }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// The smallest pixel rectangle covering `rect` (pixels partly covered are included).
    /// Coordinates beyond ±2⁴⁰ (far past any image, and NaN or infinity from extreme
    /// parameters) are clamped there: a rectangle that large is unbounded.
    public init(covering rect: Rect) {
        if rect.isInfinite { self = .unbounded; return }
        if rect.isEmpty || rect.minX.isNaN || rect.minY.isNaN || rect.maxX.isNaN || rect.maxY.isNaN { self = .empty; return }
        let bound = Double(1 << 40)
        func clamped(_ v: Double) -> Int { Int(min(max(v, -bound), bound)) }
        // Tolerate float noise so that 0.0000001 past an edge does not add a pixel.
        let x0 = clamped((rect.minX + 1e-7).rounded(.down)), y0 = clamped((rect.minY + 1e-7).rounded(.down))
        let x1 = clamped((rect.maxX - 1e-7).rounded(.up)), y1 = clamped((rect.maxY - 1e-7).rounded(.up))
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A rectangle of `width` × `height` pixels whose bottom-left pixel is (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The pixels both rectangles hold, or `.empty`.
    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .empty
    }

    /// The smallest rectangle holding both (an empty one is ignored).
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    /// Whether every pixel of `o` is in this rectangle (an empty `o` always is).
    public func contains(_ o: PixelRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }

    /// Grows the rectangle by `dx` columns on the left and right and `dy` rows at the bottom and top (negative values shrink it); an empty rectangle stays empty.
    public func outset(dx: Int, dy: Int) -> PixelRect {
        isEmpty ? self : PixelRect(x: x - dx, y: y - dy, width: width + 2 * dx, height: height + 2 * dy)
    }

    /// The same rectangle in continuous coordinates.
    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
    /// `[x, y, width, height]`.
    public var description: String { "[\(x), \(y), \(width), \(height)]" }
}

/// A 2-D affine transform, Core Graphics layout: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    /// The six coefficients, as in `CGAffineTransform`: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
    public var a, b, c, d, tx, ty: Double

    /// A transform from its six coefficients (Core Graphics order).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The transform that leaves every point where it is.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A move by (`x`, `y`).
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// A scale about the origin by `x` horizontally and `y` vertically.
    public init(scaleX x: Double, y: Double) { self.init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0) }
    /// Counter-clockwise rotation by `angle` radians (y up).
    public init(rotationAngle angle: Double) {
        let (s, c) = (sin(angle), cos(angle))
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// Whether the transform is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `t`.
    public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                        c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                        tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// A move by (`x`, `y`) followed by this transform (Core Graphics' `translatedBy(x:y:)`).
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// a·d − b·c: the factor by which the transform scales areas (negative when it mirrors).
    public var determinant: Double { a * d - b * c }

    /// The inverse, or nil when the transform is singular.
    public func inverted() -> AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// Maps a point through the transform.
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// `[a, b, c, d, tx, ty]`, the form a chain's `affineTransform` takes.
    public var description: String { "[\([a, b, c, d, tx, ty].map(format).joined(separator: ", "))]" }
}

/// Formats a number without a trailing ".0" for integers.
func format(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
