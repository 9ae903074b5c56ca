// The Core Graphics and Core Foundation value types that bitmap drawing and Core Image code
// use on Linux: data, bitmap info, blend modes, interpolation, rendering intents, colours
// and data providers.
import Foundation
#if !canImport(CoreGraphics)


/// Core Foundation's data type, as Foundation's `NSData` on Linux.
public typealias CFData = NSData
/// Core Foundation's mutable data, as `NSMutableData` on Linux.
public typealias CFMutableData = NSMutableData
/// Core Foundation's dictionary, as `NSDictionary` on Linux.
public typealias CFDictionary = NSDictionary
/// Core Foundation's URL, as `NSURL` on Linux.
public typealias CFURL = NSURL

/// The bytes of a `CFData`, for reading pixels (`CFDataGetBytePtr(image.dataProvider!.data!)`).
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    theData.bytes.assumingMemoryBound(to: UInt8.self)
}
/// The number of bytes in a `CFData`.
public func CFDataGetLength(_ theData: CFData!) -> Int { theData.length }

/// Core Foundation's index and count type.
public typealias CFIndex = Int

/// An empty mutable data (for `CGImageDestinationCreateWithData`); `capacity` 0 means no limit.
public func CFDataCreateMutable(_ allocator: CFAllocator!, _ capacity: CFIndex) -> CFMutableData! {
    NSMutableData(capacity: max(0, capacity)) ?? NSMutableData()
}

/// Where a bitmap's alpha is and in which order its bytes are (Core Graphics' bit layout).
public struct CGBitmapInfo: OptionSet, Sendable {
    /// The bits: a `CGImageAlphaInfo` in the low five, the byte order above.
    public let rawValue: UInt32
    /// Bitmap information from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The bits that hold the `CGImageAlphaInfo`.
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// Components are 32-bit floats.
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// The bits that hold the byte order.
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The default byte order (big-endian: components in the order the alpha info names them).
    public static let byteOrderDefault: CGBitmapInfo = []
    /// 16-bit little-endian components.
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    /// 32-bit little-endian pixels: B, G, R, A for alpha-first layouts.
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    /// 16-bit big-endian components.
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    /// 32-bit big-endian pixels: the order the alpha info names (R, G, B, A for alpha-last).
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
}

/// How an image drawn at another size is resampled.
public enum CGInterpolationQuality: Int32, Sendable {
    /// Bilinear (the default).
    case `default` = 0
    /// Nearest pixel: no interpolation (pixel art, QR codes).
    case none = 1
    /// Bilinear.
    case low = 2
    /// Bilinear.
    case medium = 4
    /// Bilinear.
    case high = 3
}

/// How drawing combines with what the context already holds. Implemented: the Porter–Duff
/// modes, `multiply`, `screen`, `overlay`, `darken`, `lighten`, `difference`, `exclusion`,
/// `hardLight`, `softLight`, `colorDodge`, `colorBurn`, `plusLighter` and `plusDarker`; the
/// non-separable `hue`, `saturation`, `color` and `luminosity` draw as `normal`.
public enum CGBlendMode: Int32, Sendable {
    /// Source over destination.
    case normal = 0
    /// Multiplies the colours.
    case multiply
    /// Inverse multiply of the inverses.
    case screen
    /// Multiply or screen by the destination.
    case overlay
    /// The darker colour.
    case darken
    /// The lighter colour.
    case lighten
    /// Brightens the destination by the source.
    case colorDodge
    /// Darkens the destination by the source.
    case colorBurn
    /// Soft light.
    case softLight
    /// Hard light.
    case hardLight
    /// The absolute difference.
    case difference
    /// Like difference, lower contrast.
    case exclusion
    /// The source's hue (drawn as normal here).
    case hue
    /// The source's saturation (drawn as normal here).
    case saturation
    /// The source's hue and saturation (drawn as normal here).
    case color
    /// The source's luminosity (drawn as normal here).
    case luminosity
    /// Porter–Duff clear: transparent.
    case clear
    /// Porter–Duff copy: the source replaces the destination.
    case copy
    /// Porter–Duff source in: the source where the destination is.
    case sourceIn
    /// Porter–Duff source out: the source where the destination is not.
    case sourceOut
    /// Porter–Duff source atop.
    case sourceAtop
    /// Porter–Duff destination over.
    case destinationOver
    /// Porter–Duff destination in.
    case destinationIn
    /// Porter–Duff destination out.
    case destinationOut
    /// Porter–Duff destination atop.
    case destinationAtop
    /// Porter–Duff exclusive or.
    case xor
    /// The sum, clamped.
    case plusDarker
    /// The sum, clamped.
    case plusLighter
}

/// A colour rendering intent (accepted; colours are not matched between spaces here).
public enum CGColorRenderingIntent: Int32, Sendable {
    /// The context's default.
    case defaultIntent = 0
    /// Absolute colorimetric.
    case absoluteColorimetric
    /// Relative colorimetric.
    case relativeColorimetric
    /// Perceptual.
    case perceptual
    /// Saturation.
    case saturation
}

/// A colour: components in a colour space, alpha last.
public final class CGColor: @unchecked Sendable {
    /// The components, alpha last (grey and alpha for grey colours).
    public let components: [CGFloat]?
    /// The colour space of the components.
    public let colorSpace: CGColorSpace?

    /// An sRGB colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
    }
    /// A grey (2.2 gamma) colour.
    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)
    }
    /// Components (alpha last) in a colour space; nil when the count does not match it.
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        self.components = Array(UnsafeBufferPointer(start: components, count: n))
        colorSpace = space
    }
    init(space: CGColorSpace, components: [CGFloat]) {
        self.components = components
        colorSpace = space
    }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Transparent.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The number of components, alpha included.
    public var numberOfComponents: Int { components?.count ?? 0 }
    /// The alpha component.
    public var alpha: CGFloat { components?.last ?? 1 }

    /// Straight RGBA, 0…1 (grey repeated).
    var rgba: SIMD4<Float> {
        let c = (components ?? [0, 1]).map { Float($0) }
        return c.count >= 4 ? SIMD4(c[0], c[1], c[2], c[3]) : SIMD4(c[0], c[0], c[0], c.count > 1 ? c[1] : 1)
    }
}

extension CGColor {
    /// The colour in another colour space (sRGB, linear, Display P3, grey), alpha kept;
    /// values are clipped to 0…1 unless `space` is an extended one. The spaces are matrix
    /// spaces, so every rendering intent gives the same result. Nil for a colour without
    /// a colour space.
    public func converted(to space: CGColorSpace, intent: CGColorRenderingIntent, options: CFDictionary?) -> CGColor? {
        guard let source = colorSpace else { return nil }
        if source == space, let components { return CGColor(space: space, components: components) }
        // Converted opaque, then given its alpha back: a transparent colour keeps its colour.
        let opaque = SIMD4(rgba.x, rgba.y, rgba.z, 1)
        var v = BitmapImport.output(BitmapImport.working(opaque, premultiplied: false, colorSpace: source), premultiplied: false, colorSpace: space)
        if !space.nameString.contains("Extended") { v = v.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1)) }
        let c = [v.x, v.y, v.z].map { CGFloat($0) } + [alpha]
        return CGColor(space: space, components: space.isGray ? [c[0], c[3]] : c)
    }
}

/// The kind of colour a colour space holds.
public enum CGColorSpaceModel: Int32, Sendable {
    /// Not known.
    case unknown = -1
    /// One grey component.
    case monochrome = 0
    /// Red, green and blue.
    case rgb = 1
    /// Cyan, magenta, yellow and black.
    case cmyk = 2
    /// CIE L*a*b*.
    case lab = 3
    /// Any number of named colourants.
    case deviceN = 4
    /// Indices into a colour table.
    case indexed = 5
    /// A pattern.
    case pattern = 6
    /// CIE XYZ.
    case XYZ = 7
}

extension CGColorSpace {
    /// `.monochrome` for the grey spaces, `.rgb` for the others.
    public var model: CGColorSpaceModel { isGray ? .monochrome : .rgb }
}

/// A two-dimensional vector (a translation or an offset), as Core Graphics declares it.
public struct CGVector: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal component.
    public var dx: CGFloat
    /// The vertical component.
    public var dy: CGFloat
    /// The zero vector.
    public static let zero = CGVector(dx: 0, dy: 0)
    /// A vector of `dx`, `dy`.
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
    /// A vector of `dx`, `dy`.
    public init(dx: Double, dy: Double) { self.dx = CGFloat(dx); self.dy = CGFloat(dy) }
    /// A vector of `dx`, `dy`.
    public init(dx: Int, dy: Int) { self.dx = CGFloat(dx); self.dy = CGFloat(dy) }
    /// The zero vector.
    public init() { self.init(dx: 0, dy: 0) }
    /// `(dx, dy)`, as Core Graphics prints it.
    public var description: String { "(\(dx), \(dy))" }
}

/// A source of bytes for a `CGImage` (here: bytes in memory).
public final class CGDataProvider: @unchecked Sendable {
    /// The bytes.
    public let data: CFData?
    /// A provider of `data`'s bytes.
    public init?(data: CFData) { self.data = data }
}
#endif
