// Core Graphics bitmap drawing, the part Core Image code uses around its renders: an
// 8-bit bitmap context over caller or owned memory, drawing CGImages into it (scaled,
// transformed, nearest or bilinear), filling and clearing rectangles, a graphics-state
// stack, Porter–Duff and separable blend modes, and `makeImage()`. Paths, text, gradients,
// shadows and colour matching between RGB spaces are not here.
import Foundation
#if !canImport(CoreGraphics)

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

#endif
