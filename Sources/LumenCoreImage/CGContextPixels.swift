// What a CGContext draws with: layers, reading a CGImage's pixels in any supported layout,
// and the blend modes' arithmetic.
import Foundation
#if !canImport(CoreGraphics)

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
