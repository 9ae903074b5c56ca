// The small part of Core Graphics that Core Image code touches, for platforms without
// it (Linux). On Apple platforms Core Graphics itself is used and nothing here is declared.
// CGFloat, CGPoint, CGSize and CGRect come from Foundation on every platform.
// `import CoreImage` brings Foundation (Data, URL, NSNumber) and CGFloat with it on Apple
// platforms; `import LumenCoreImage` does the same.
@_exported import Foundation
import Lumen
#if canImport(CoreGraphics)
@_exported import CoreGraphics
#else

/// Core Foundation's string type is not visible from Foundation on Linux; colour space
/// names are plain strings here.
public typealias CFString = String

/// An affine transform, x' = a·x + c·y + tx, y' = b·x + d·y + ty (Core Graphics' layout).
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    /// The six coefficients in Core Graphics' order.
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    /// A transform from its six coefficients.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The identity transform.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
    /// A move by (`tx`, `ty`).
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    /// A scale about the origin by `sx` and `sy`.
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A counter-clockwise rotation by `angle` radians about the origin (y up).
    public init(rotationAngle angle: CGFloat) {
        let (s, k) = (sin(angle), cos(angle))
        self.init(a: k, b: s, c: -s, d: k, tx: 0, ty: 0)
    }

    /// The transform that leaves every point where it is.
    public static let identity = CGAffineTransform()
    /// Whether this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
                          c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
                          tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }
    /// The inverse, or `self` unchanged when it is not invertible (as Core Graphics does).
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        return CGAffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                                 tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
    /// A move by (`x`, `y`) followed by this transform.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform { CGAffineTransform(translationX: x, y: y).concatenating(self) }
    /// A scale by (`x`, `y`) followed by this transform.
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform { CGAffineTransform(scaleX: x, y: y).concatenating(self) }
    /// A rotation by `angle` radians followed by this transform.
    public func rotated(by angle: CGFloat) -> CGAffineTransform { CGAffineTransform(rotationAngle: angle).concatenating(self) }

}

extension CGPoint {
    /// The point mapped through `t`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size mapped through `t`'s linear part (translation ignored, as Core Graphics does).
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The bounding box of the transformed rectangle.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isInfinite || isNull { return self }
        let corners = [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY)].map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

/// Boxing a transform in an NSValue, as Core Image code on iOS passes `inputTransform`.
extension NSValue {
    /// Boxes a transform (as six doubles, type `[6d]`), the way iOS code passes `inputTransform`.
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        var values: (Double, Double, Double, Double, Double, Double) = (Double(t.a), Double(t.b), Double(t.c), Double(t.d), Double(t.tx), Double(t.ty))
        self.init(bytes: &values, objCType: "[6d]")
    }

    /// The transform boxed by `init(cgAffineTransform:)` (identity for other values).
    public var cgAffineTransformValue: CGAffineTransform {
        guard isAffineTransform else { return .identity }
        var v: (Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0)
        withUnsafeMutablePointer(to: &v) { getValue($0) }
        return CGAffineTransform(a: v.0, b: v.1, c: v.2, d: v.3, tx: v.4, ty: v.5)
    }

    var isAffineTransform: Bool { String(cString: objCType) == "[6d]" }
}

/// EXIF orientations, as ImageIO names them.
@frozen public enum CGImagePropertyOrientation: UInt32, Sendable {
    /// 1: as stored.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored
    /// 3: turned 180°.
    case down
    /// 4: mirrored top to bottom.
    case downMirrored
    /// 5: mirrored along the top-left to bottom-right diagonal.
    case leftMirrored
    /// 6: stored turned 90° anticlockwise; shown turned 90° clockwise.
    case right
    /// 7: mirrored along the top-right to bottom-left diagonal.
    case rightMirrored
    /// 8: stored turned 90° clockwise; shown turned 90° anticlockwise.
    case left
}

/// A colour space: one of the standard named spaces (what Core Image code asks for).
public final class CGColorSpace: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// sRGB, the default of every Core Image context and output.
    public static let sRGB = "kCGColorSpaceSRGB" as CFString
    /// sRGB with values outside 0…1 kept.
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB" as CFString
    /// sRGB's primaries without the transfer curve (linear light).
    public static let linearSRGB = "kCGColorSpaceLinearSRGB" as CFString
    /// Linear sRGB with values outside 0…1 kept: Core Image's working space, and Lumen's.
    public static let extendedLinearSRGB = "kCGColorSpaceExtendedLinearSRGB" as CFString
    /// Display P3: DCI-P3 primaries, D65 white, sRGB's transfer curve.
    public static let displayP3 = "kCGColorSpaceDisplayP3" as CFString
    /// Grey with a 2.2 gamma.
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2" as CFString
    /// Grey in linear light.
    public static let linearGray = "kCGColorSpaceLinearGray" as CFString
    /// Grey with values outside 0…1 kept.
    public static let extendedGray = "kCGColorSpaceExtendedGray" as CFString
    /// Linear RGB (treated as linear sRGB).
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear" as CFString
    /// ITU-R BT.709 (HD video): sRGB's primaries.
    public static let itur_709 = "kCGColorSpaceITUR_709" as CFString
    /// ITU-R BT.2020 (UHD video). Lumen converts it as Display P3 — an approximation:
    /// BT.2020's primaries are wider and its transfer curve differs.
    public static let itur_2020 = "kCGColorSpaceITUR_2020" as CFString

    static let known: Set<String> = [sRGB, extendedSRGB, linearSRGB, extendedLinearSRGB, displayP3, genericGrayGamma2_2,
                                     linearGray, extendedGray, genericRGBLinear, itur_709, itur_2020]

    /// The space's name (`CGColorSpace.sRGB`…).
    public let name: CFString?

    /// One of the standard names above; nil for a name Lumen does not know.
    public init?(name: CFString) {
        guard Self.known.contains(name as String) else { return nil }
        self.name = name
    }

    var nameString: String { name ?? "" }
    /// Values are linear light (no transfer curve).
    var isLinear: Bool { nameString.contains("Linear") }
    var isGray: Bool { nameString.contains("Gray") }
    var isWide: Bool { nameString == "kCGColorSpaceDisplayP3" || nameString == "kCGColorSpaceITUR_2020" }
    /// Colour components without alpha: 1 for grey spaces, 3 for RGB.
    public var numberOfComponents: Int { isGray ? 1 : 3 }

    /// Equal when they name the same space.
    public static func == (a: CGColorSpace, b: CGColorSpace) -> Bool { a.nameString == b.nameString }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(nameString) }
    /// `<CGColorSpace name>`.
    public var description: String { "<CGColorSpace \(nameString)>" }
}

/// The device RGB space, taken as sRGB.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB)! }
/// The device grey space, taken as grey with a 2.2 gamma.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)! }

/// Where the alpha channel is and whether colour is premultiplied by it.
public enum CGImageAlphaInfo: UInt32, Sendable {
    /// No alpha: opaque.
    case none = 0
    /// Alpha last, colour premultiplied by it.
    case premultipliedLast
    /// Alpha first, colour premultiplied by it.
    case premultipliedFirst
    /// Alpha last, straight colour.
    case last
    /// Alpha first, straight colour.
    case first
    /// A padding byte last, opaque.
    case noneSkipLast
    /// A padding byte first, opaque.
    case noneSkipFirst
    /// Alpha alone, no colour.
    case alphaOnly
}

/// A bitmap image: 8 or 16 bits per component (or 32-bit float), RGBA (or grey), rows top
/// first, straight (unpremultiplied) or premultiplied alpha as `alphaInfo` says.
public final class CGImage: @unchecked Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// 8, 16 or 32 (float).
    public let bitsPerComponent: Int
    /// Bits of one pixel, all components.
    public let bitsPerPixel: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The space the values are in (nil: taken as they are).
    public let colorSpace: CGColorSpace?
    /// Where alpha is and whether colour is premultiplied by it.
    public let alphaInfo: CGImageAlphaInfo
    /// The pixel bytes (native byte order for 16- and 32-bit components).
    public let data: Data
    /// The alpha layout and the byte order (`byteOrder32Little` for BGRA/ABGR pixels).
    public let bitmapInfo: CGBitmapInfo

    /// A bitmap over `data`, described by the other arguments (nothing is copied or checked);
    /// `byteOrder` is `byteOrder32Little` for pixels stored B, G, R, A (or A, B, G, R).
    public init(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                colorSpace: CGColorSpace?, alphaInfo: CGImageAlphaInfo, data: Data, byteOrder: CGBitmapInfo = []) {
        self.width = width; self.height = height
        self.bitsPerComponent = bitsPerComponent; self.bitsPerPixel = bitsPerPixel; self.bytesPerRow = bytesPerRow
        self.colorSpace = colorSpace; self.alphaInfo = alphaInfo; self.data = data
        self.bitmapInfo = CGBitmapInfo(rawValue: alphaInfo.rawValue | (byteOrder.rawValue & CGBitmapInfo.byteOrderMask.rawValue))
    }

    /// Core Graphics' initialiser: a bitmap read from `provider`'s bytes. Nil when the bytes
    /// are too few for `height` rows or the layout is not one LumenCoreImage reads (8 bits
    /// per component with 1, 2 or 4 components; 16-bit or float RGBA). `decode`,
    /// `shouldInterpolate` and `intent` are accepted and ignored.
    public convenience init?(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                             space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
                             decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        guard let bytes = provider.data.map({ Data(referencing: $0) }), width > 0, height > 0,
              bytesPerRow >= (width * bitsPerPixel + 7) / 8, bytes.count >= bytesPerRow * (height - 1) + (width * bitsPerPixel + 7) / 8,
              let alpha = CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue),
              [8, 16, 32].contains(bitsPerComponent), bitsPerPixel % bitsPerComponent == 0, [1, 2, 4].contains(bitsPerPixel / bitsPerComponent)
        else { return nil }
        self.init(width: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow,
                  colorSpace: space, alphaInfo: alpha, data: bytes, byteOrder: bitmapInfo)
    }

    /// The pixel bytes, as a data provider (`image.dataProvider?.data`); the same provider
    /// every time, so a pointer from `CFDataGetBytePtr` stays valid while the image lives.
    public var dataProvider: CGDataProvider? { provider }
    private lazy var provider = CGDataProvider(data: data as NSData)

    /// Whether the image is an alpha-only mask (never, for the bitmaps made here).
    public var isMask: Bool { alphaInfo == .alphaOnly }

    /// The pixels inside `rect` (pixel units, origin at the top-left corner as Core Graphics
    /// counts for this call), rounded out to whole pixels and cut to the image; nil when
    /// nothing is left.
    public func cropping(to rect: CGRect) -> CGImage? {
        let r = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width >= 1, r.height >= 1 else { return nil }
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        let bytesPerPixel = bitsPerPixel / 8, rowBytes = w * bytesPerPixel
        var out = Data(count: rowBytes * h)
        out.withUnsafeMutableBytes { dst in
            data.withUnsafeBytes { src in
                for row in 0..<h {
                    let from = (y0 + row) * bytesPerRow + x0 * bytesPerPixel
                    dst.baseAddress!.advanced(by: row * rowBytes).copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: rowBytes)
                }
            }
        }
        return CGImage(width: w, height: h, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel, bytesPerRow: rowBytes,
                       colorSpace: colorSpace, alphaInfo: alphaInfo, data: out, byteOrder: bitmapInfo)
    }
}
#endif

extension CGAffineTransform {
    /// Lumen's transform (same layout).
    var lumen: Lumen.AffineTransform { Lumen.AffineTransform(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: Double(tx), ty: Double(ty)) }
    init(_ t: Lumen.AffineTransform) { self.init(a: CGFloat(t.a), b: CGFloat(t.b), c: CGFloat(t.c), d: CGFloat(t.d), tx: CGFloat(t.tx), ty: CGFloat(t.ty)) }
}
