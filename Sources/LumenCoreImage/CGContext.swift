// Core Graphics bitmap drawing, the part Core Image code uses around its renders: an
// 8-bit bitmap context over caller or owned memory, drawing CGImages into it (scaled,
// transformed, nearest or bilinear), filling and clearing rectangles, a graphics-state
// stack, Porter–Duff and separable blend modes, and `makeImage()`. Paths, text, gradients,
// shadows and colour matching between RGB spaces are not here.
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
public func CFDataGetBytePtr(_ theData: CFData) -> UnsafePointer<UInt8>! {
    theData.bytes.assumingMemoryBound(to: UInt8.self)
}
/// The number of bytes in a `CFData`.
public func CFDataGetLength(_ theData: CFData) -> Int { theData.length }

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

/// A source of bytes for a `CGImage` (here: bytes in memory).
public final class CGDataProvider: @unchecked Sendable {
    /// The bytes.
    public let data: CFData?
    /// A provider of `data`'s bytes.
    public init?(data: CFData) { self.data = data }
}

/// Called when a bitmap context that was given its memory is released.
public typealias CGBitmapContextReleaseDataCallback = (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

/// A Core Graphics bitmap context: 8 bits per component, RGB (4 bytes a pixel: alpha first
/// or last, premultiplied or skipped, either byte order) or grey (1 byte, no alpha), or an
/// alpha-only mask; rows from the top, y up in user space (Core Graphics' convention).
/// Drawing happens in the bitmap's own values: there is no colour matching between RGB
/// spaces, and grey is converted to or from RGB by Rec. 709 luminance.
public final class CGContext: @unchecked Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Always 8.
    public let bitsPerComponent: Int
    /// 32 for RGB, 8 for grey and alpha-only.
    public let bitsPerPixel: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The context's colour space (nil for an alpha-only mask).
    public let colorSpace: CGColorSpace?
    /// The layout the context was made with.
    public let bitmapInfo: CGBitmapInfo
    /// The pixel memory (the caller's, or owned by the context).
    public var data: UnsafeMutableRawPointer? { memory }

    private let memory: UnsafeMutableRawPointer
    private let owned: Bool
    private let release: CGBitmapContextReleaseDataCallback?
    private let releaseInfo: UnsafeMutableRawPointer?
    /// Byte offsets of R, G, B, A in a pixel (nil: none); grey uses `r` alone.
    private let offsets: (r: Int?, g: Int?, b: Int?, a: Int?)
    private var isGray: Bool { bitsPerPixel == 8 && offsets.a == nil }

    struct State {
        var ctm = CGAffineTransform.identity
        var fill = SIMD4<Float>(0, 0, 0, 1)
        var alpha: Float = 1
        var blend = CGBlendMode.normal
        var interpolation = CGInterpolationQuality.default
        var clip: CGRect
    }
    private var state: State
    private var saved: [State] = []

    /// A bitmap context over `data` (nil: memory the context allocates, cleared), or nil for
    /// a layout LumenCoreImage does not draw into (it needs 8 bits per component; RGB with
    /// premultiplied or skipped alpha, grey without alpha, or alpha only). `bytesPerRow` 0
    /// picks the smallest.
    public convenience init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
                             space: CGColorSpace, bitmapInfo: UInt32) {
        self.init(data: data, width: width, height: height, bitsPerComponent: bitsPerComponent, bytesPerRow: bytesPerRow,
                  space: space, bitmapInfo: bitmapInfo, releaseCallback: nil, releaseInfo: nil)
    }

    /// As `init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`;
    /// `releaseCallback(releaseInfo, data)` is called when the context goes away.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: UInt32, releaseCallback: CGBitmapContextReleaseDataCallback?,
                 releaseInfo: UnsafeMutableRawPointer?) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard bitsPerComponent == 8, width > 0, height > 0, width <= 1 << 16, height <= 1 << 16,
              !info.contains(.floatComponents),
              let alpha = CGImageAlphaInfo(rawValue: bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue) else {
            CIFilter.report("CGContext: unsupported bitmap layout (\(bitsPerComponent) bits, info \(bitmapInfo)); LumenCoreImage draws into 8-bit RGB, grey and alpha-only bitmaps")
            return nil
        }
        let little = info.intersection(.byteOrderMask) == .byteOrder32Little
        var pixelBytes = 4
        switch (space.numberOfComponents, alpha) {
        case (3, .premultipliedLast), (3, .noneSkipLast):
            offsets = little ? (3, 2, 1, alpha == .noneSkipLast ? nil : 0) : (0, 1, 2, alpha == .noneSkipLast ? nil : 3)
        case (3, .premultipliedFirst), (3, .noneSkipFirst):
            offsets = little ? (2, 1, 0, alpha == .noneSkipFirst ? nil : 3) : (1, 2, 3, alpha == .noneSkipFirst ? nil : 0)
        case (1, .none):
            offsets = (0, nil, nil, nil); pixelBytes = 1
        case (_, .alphaOnly):
            offsets = (nil, nil, nil, 0); pixelBytes = 1
        default:
            CIFilter.report("CGContext: unsupported alpha info \(alpha) for a \(space.numberOfComponents)-component space (Core Graphics supports premultiplied or skipped alpha for RGB, none for grey)")
            return nil
        }
        let rowBytes = bytesPerRow == 0 ? width * pixelBytes : bytesPerRow
        guard rowBytes >= width * pixelBytes else { return nil }
        self.width = width; self.height = height
        self.bitsPerComponent = 8; self.bitsPerPixel = pixelBytes * 8; self.bytesPerRow = rowBytes
        self.colorSpace = alpha == .alphaOnly ? nil : space
        self.bitmapInfo = info
        if let data {
            memory = data; owned = false
        } else {
            memory = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * height, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            owned = true
        }
        release = releaseCallback
        self.releaseInfo = releaseInfo
        state = State(clip: CGRect(x: 0, y: 0, width: width, height: height))
    }

    deinit {
        release?(releaseInfo, memory)
        if owned { memory.deallocate() }
    }

    /// The alpha layout the context was made with.
    public var alphaInfo: CGImageAlphaInfo { CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state (transform, colours, blend mode, clip…).
    public func saveGState() { saved.append(state) }
    /// Pops the graphics state saved last.
    public func restoreGState() { if let s = saved.popLast() { state = s } }

    /// The current transform from user space to the bitmap's pixels (y up).
    public var ctm: CGAffineTransform { state.ctm }
    /// Moves the user space by (`tx`, `ty`).
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { state.ctm = CGAffineTransform(translationX: tx, y: ty).concatenating(state.ctm) }
    /// Scales the user space.
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { state.ctm = CGAffineTransform(scaleX: sx, y: sy).concatenating(state.ctm) }
    /// Rotates the user space by `angle` radians (counter-clockwise, y up).
    public func rotate(by angle: CGFloat) { state.ctm = CGAffineTransform(rotationAngle: angle).concatenating(state.ctm) }
    /// Applies `transform` before the current transform.
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }

    /// How drawn images are resampled.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolation }
        set { state.interpolation = newValue }
    }
    /// How drawing combines with the bitmap.
    public func setBlendMode(_ mode: CGBlendMode) { state.blend = mode }
    /// An opacity applied to everything drawn, 0…1.
    public func setAlpha(_ alpha: CGFloat) { state.alpha = Float(max(0, min(1, alpha))) }
    /// The colour `fill(_:)` uses.
    public func setFillColor(_ color: CGColor) { state.fill = color.rgba }
    /// The colour `fill(_:)` uses, as RGBA components 0…1.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fill = SIMD4(Float(red), Float(green), Float(blue), Float(alpha))
    }
    /// The colour `fill(_:)` uses, as grey and alpha 0…1.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { state.fill = SIMD4(Float(gray), Float(gray), Float(gray), Float(alpha)) }

    /// Limits drawing to `rect` (its bounding box in the bitmap, for a rotated transform).
    public func clip(to rect: CGRect) {
        state.clip = state.clip.intersection(rect.applying(state.ctm))
        if state.clip.isNull { state.clip = .zero }
    }
    /// The clip's bounding box in user space.
    public var boundingBoxOfClipPath: CGRect { state.clip.applying(state.ctm.inverted()) }

    // MARK: Drawing

    /// Fills `rect` with the fill colour, blended by the blend mode.
    public func fill(_ rect: CGRect) {
        let f = state.fill
        paint(rect) { _ in SIMD4(f.x * f.w, f.y * f.w, f.z * f.w, f.w) }
    }
    /// Fills each rectangle.
    public func fill(_ rects: [CGRect]) { rects.forEach { fill($0) } }
    /// Sets the pixels of `rect` to transparent (black for a bitmap without alpha).
    public func clear(_ rect: CGRect) {
        let blend = state.blend
        state.blend = .copy
        paint(rect) { _ in .zero }
        state.blend = blend
    }

    /// Draws `image` scaled into `rect` (user space), resampled as `interpolationQuality`
    /// says and blended by the blend mode.
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard let source = PixelReader(image) else {
            CIFilter.report("CGContext.draw: unsupported CGImage layout (\(image.bitsPerComponent) bits, \(image.bitsPerPixel) bits a pixel)")
            return
        }
        let r = rect.standardized
        guard r.width > 0, r.height > 0 else { return }
        let nearest = state.interpolation == .none
        let sx = CGFloat(image.width) / r.width, sy = CGFloat(image.height) / r.height
        paint(r) { p in
            let u = Float((p.x - r.minX) * sx), v = Float((r.maxY - p.y) * sy)  // image rows from the top
            return nearest ? source.pixel(Int(u.rounded(.down)), Int(v.rounded(.down))) : source.bilinear(u, v)
        }
    }

    /// Draws `image` repeated over the clip (`rect` is one tile).
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool) {
        guard byTiling, rect.width > 0, rect.height > 0 else { draw(image, in: rect); return }
        let bounds = boundingBoxOfClipPath
        var y = rect.minY - (((rect.minY - bounds.minY) / rect.height).rounded(.up)) * rect.height
        while y < bounds.maxY {
            var x = rect.minX - (((rect.minX - bounds.minX) / rect.width).rounded(.up)) * rect.width
            while x < bounds.maxX {
                draw(image, in: CGRect(x: x, y: y, width: rect.width, height: rect.height))
                x += rect.width
            }
            y += rect.height
        }
    }

    /// Draws a layer's contents with its bottom-left corner at `point`.
    public func draw(_ layer: CGLayer, at point: CGPoint) {
        draw(layer, in: CGRect(origin: point, size: layer.size))
    }
    /// Draws a layer's contents scaled into `rect`.
    public func draw(_ layer: CGLayer, in rect: CGRect) {
        guard let image = layer.context?.makeImage() else { return }
        draw(image, in: rect)
    }

    /// A copy of the bitmap as an image (RGBA or grey, 8 bits).
    public func makeImage() -> CGImage? {
        let pixelBytes = bitsPerPixel / 8
        if pixelBytes == 1 {
            var out = Data(count: width * height)
            out.withUnsafeMutableBytes { dst in
                for row in 0..<height {
                    dst.baseAddress!.advanced(by: row * width).copyMemory(from: memory.advanced(by: row * bytesPerRow), byteCount: width)
                }
            }
            return CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: width,
                           colorSpace: colorSpace, alphaInfo: offsets.a == nil ? .none : .alphaOnly, data: out)
        }
        var out = Data(count: width * height * 4)
        out.withUnsafeMutableBytes { raw in
            let dst = raw.bindMemory(to: UInt8.self)
            for row in 0..<height {
                let line = memory.advanced(by: row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    let px = line + x * 4, o = (row * width + x) * 4
                    dst[o] = px[offsets.r!]; dst[o + 1] = px[offsets.g!]; dst[o + 2] = px[offsets.b!]
                    dst[o + 3] = offsets.a.map { px[$0] } ?? 255
                }
            }
        }
        return CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: width * 4,
                       colorSpace: colorSpace, alphaInfo: offsets.a == nil ? .noneSkipLast : .premultipliedLast, data: out)
    }

    // MARK: Pixels

    /// Every bitmap pixel whose centre, in user space, falls inside `rect` and the clip gets
    /// `source(user point)` (premultiplied RGBA 0…1) blended into it.
    private func paint(_ rect: CGRect, _ source: (CGPoint) -> SIMD4<Float>) {
        let device = rect.applying(state.ctm).intersection(state.clip).intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !device.isNull, !device.isEmpty else { return }
        let inverse = state.ctm.inverted(), r = rect.standardized
        let x0 = Int(device.minX.rounded(.down)), x1 = Int(device.maxX.rounded(.up))
        let y0 = Int(device.minY.rounded(.down)), y1 = Int(device.maxY.rounded(.up))
        let opacity = state.alpha, mode = state.blend
        for y in y0..<y1 {
            let row = height - 1 - y
            for x in x0..<x1 {
                let p = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5).applying(inverse)
                guard p.x >= r.minX, p.x < r.maxX, p.y >= r.minY, p.y < r.maxY else { continue }
                let s = source(p) * opacity
                let at = memory.advanced(by: row * bytesPerRow + x * (bitsPerPixel / 8)).assumingMemoryBound(to: UInt8.self)
                store(Blend.apply(mode, s, load(at)), at)
            }
        }
    }

    private func load(_ px: UnsafeMutablePointer<UInt8>) -> SIMD4<Float> {
        let a = offsets.a.map { Float(px[$0]) / 255 } ?? 1
        if isGray { let g = Float(px[0]) / 255; return SIMD4(g, g, g, 1) }
        guard let r = offsets.r, let g = offsets.g, let b = offsets.b else { return SIMD4(0, 0, 0, a) }
        return SIMD4(Float(px[r]) / 255, Float(px[g]) / 255, Float(px[b]) / 255, a)
    }

    private func store(_ v: SIMD4<Float>, _ px: UnsafeMutablePointer<UInt8>) {
        func byte(_ f: Float) -> UInt8 { UInt8((min(1, max(0, f.isNaN ? 0 : f)) * 255).rounded()) }
        if isGray {
            // Opaque grey: composite over black, then the luminance.
            px[0] = byte(0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z)
            return
        }
        if let r = offsets.r, let g = offsets.g, let b = offsets.b {
            px[r] = byte(v.x); px[g] = byte(v.y); px[b] = byte(v.z)
        }
        if let a = offsets.a { px[a] = byte(v.w) }
    }
}

/// A drawing surface for offscreen drawing, drawn later into its context with `draw(_:at:)`.
public final class CGLayer: @unchecked Sendable {
    /// The layer's size, in the parent context's user units.
    public let size: CGSize
    /// The context that draws into the layer.
    public let context: CGContext?

    /// A layer of `size` for drawing into `context` (same colour space; RGBA premultiplied).
    public init?(_ context: CGContext, size: CGSize, auxiliaryInfo: CFDictionary?) {
        let w = Int(size.width.rounded(.up)), h = Int(size.height.rounded(.up))
        guard w > 0, h > 0, let layer = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                                                   space: context.colorSpace?.numberOfComponents == 3 ? context.colorSpace! : CGColorSpaceCreateDeviceRGB(),
                                                   bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return nil }
        self.size = size
        self.context = layer
    }
}

/// Reads a CGImage's pixels as premultiplied RGBA 0…1, whatever its layout.
struct PixelReader {
    let image: CGImage
    let bytes: [UInt8]
    let read: ([UInt8], Int) -> SIMD4<Float>
    let pixelBytes: Int

    init?(_ image: CGImage) {
        self.image = image
        bytes = [UInt8](image.data)
        let info = image.bitmapInfo, alpha = image.alphaInfo
        let little = info.intersection(.byteOrderMask) == .byteOrder32Little || info.intersection(.byteOrderMask) == .byteOrder16Little
        let premultiplied = alpha == .premultipliedFirst || alpha == .premultipliedLast
        let components = image.bitsPerPixel / max(1, image.bitsPerComponent)
        func finish(_ v: SIMD4<Float>) -> SIMD4<Float> {
            premultiplied ? v : SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w)
        }
        switch (image.bitsPerComponent, components) {
        case (8, 1):
            pixelBytes = 1
            read = alpha == .alphaOnly ? { b, i in SIMD4(0, 0, 0, Float(b[i]) / 255) } : { b, i in let g = Float(b[i]) / 255; return SIMD4(g, g, g, 1) }
        case (8, 2):
            pixelBytes = 2
            let first = alpha == .premultipliedFirst || alpha == .first || alpha == .noneSkipFirst
            let skip = alpha == .noneSkipFirst || alpha == .noneSkipLast
            read = { b, i in
                let g = Float(b[i + (first ? 1 : 0)]) / 255, a = skip ? 1 : Float(b[i + (first ? 0 : 1)]) / 255
                return finish(SIMD4(g, g, g, a))
            }
        case (8, 4):
            pixelBytes = 4
            let first = alpha == .premultipliedFirst || alpha == .first || alpha == .noneSkipFirst
            let skip = alpha == .noneSkipFirst || alpha == .noneSkipLast || alpha == .none
            // Byte positions of R, G, B, A.
            let o: [Int] = first ? (little ? [2, 1, 0, 3] : [1, 2, 3, 0]) : (little ? [3, 2, 1, 0] : [0, 1, 2, 3])
            read = { b, i in
                finish(SIMD4(Float(b[i + o[0]]) / 255, Float(b[i + o[1]]) / 255, Float(b[i + o[2]]) / 255, skip ? 1 : Float(b[i + o[3]]) / 255))
            }
        case (16, 4):
            pixelBytes = 8
            read = { b, i in
                func c(_ k: Int) -> Float { Float(UInt16(b[i + 2 * k]) | UInt16(b[i + 2 * k + 1]) << 8) / 65535 }
                return finish(SIMD4(c(0), c(1), c(2), alpha == .noneSkipLast || alpha == .none ? 1 : c(3)))
            }
        case (32, 4):
            pixelBytes = 16
            read = { b, i in
                func c(_ k: Int) -> Float {
                    Float(bitPattern: UInt32(b[i + 4 * k]) | UInt32(b[i + 4 * k + 1]) << 8 | UInt32(b[i + 4 * k + 2]) << 16 | UInt32(b[i + 4 * k + 3]) << 24)
                }
                return finish(SIMD4(c(0), c(1), c(2), alpha == .noneSkipLast || alpha == .none ? 1 : c(3)))
            }
        default:
            return nil
        }
    }

    /// The pixel at column `x`, row `y` (from the top), clamped to the edges.
    func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let cx = min(max(x, 0), image.width - 1), cy = min(max(y, 0), image.height - 1)
        let at = cy * image.bytesPerRow + cx * pixelBytes
        guard at + pixelBytes <= bytes.count else { return .zero }
        return read(bytes, at)
    }

    /// Bilinear sample at (`u`, `v`) in pixel units from the top-left corner.
    func bilinear(_ u: Float, _ v: Float) -> SIMD4<Float> {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Float(x0), ty = fy - Float(y0)
        let top = pixel(x0, y0) * (1 - tx) + pixel(x0 + 1, y0) * tx
        let bottom = pixel(x0, y0 + 1) * (1 - tx) + pixel(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }
}

/// Core Graphics' blend modes on premultiplied RGBA.
enum Blend {
    static func apply(_ mode: CGBlendMode, _ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        switch mode {
        case .clear: return .zero
        case .copy: return s
        case .sourceIn: return s * da
        case .sourceOut: return s * (1 - da)
        case .sourceAtop: return s * da + d * (1 - sa)
        case .destinationOver: return d + s * (1 - da)
        case .destinationIn: return d * sa
        case .destinationOut: return d * (1 - sa)
        case .destinationAtop: return d * sa + s * (1 - da)
        case .xor: return s * (1 - da) + d * (1 - sa)
        case .plusLighter: return simd_min(s + d, SIMD4(repeating: 1))
        case .plusDarker:
            let sum = simd_max(SIMD4(repeating: 0), SIMD4(repeating: 1) - ((SIMD4(repeating: 1) - s) + (SIMD4(repeating: 1) - d)))
            return SIMD4(sum.x, sum.y, sum.z, min(1, sa + da))
        case .normal, .hue, .saturation, .color, .luminosity: return s + d * (1 - sa)
        default:
            // Separable modes: B(cs, cd) on straight colours, composited as the PDF spec does.
            let cs = sa > 0 ? SIMD3(s.x, s.y, s.z) / sa : .zero, cd = da > 0 ? SIMD3(d.x, d.y, d.z) / da : .zero
            var b = SIMD3<Float>.zero
            for k in 0..<3 { b[k] = separable(mode, cs[k], cd[k]) }
            let ra = sa + da - sa * da
            let c = (1 - da) * sa * cs + (1 - sa) * da * cd + sa * da * b
            return SIMD4(c.x, c.y, c.z, ra)
        }
    }

    static func separable(_ mode: CGBlendMode, _ s: Float, _ d: Float) -> Float {
        switch mode {
        case .multiply: return s * d
        case .screen: return s + d - s * d
        case .overlay: return separable(.hardLight, d, s)
        case .darken: return min(s, d)
        case .lighten: return max(s, d)
        case .colorDodge: return d == 0 ? 0 : s >= 1 ? 1 : min(1, d / (1 - s))
        case .colorBurn: return d >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - d) / s)
        case .hardLight: return s <= 0.5 ? d * 2 * s : separable(.screen, 2 * s - 1, d)
        case .softLight:
            if s <= 0.5 { return d - (1 - 2 * s) * d * (1 - d) }
            let dd = d <= 0.25 ? ((16 * d - 12) * d + 4) * d : d.squareRoot()
            return d + (2 * s - 1) * (dd - d)
        case .difference: return abs(s - d)
        case .exclusion: return s + d - 2 * s * d
        default: return s
        }
    }
}

private func simd_min(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }
private func simd_max(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .> a) }
#endif
