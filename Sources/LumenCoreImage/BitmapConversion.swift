import Foundation
import Lumen

/// Pixel bytes in a `CIFormat` and colour space ↔ Lumen's working space (linear sRGB
/// primaries, premultiplied Float32, rows from the bottom).
enum BitmapImport {
    /// Reads `width × height` pixels (rows from the top, `bytesPerRow` apart). Values in
    /// `colorSpace` are linearised and, for Display P3, moved to sRGB primaries; with no
    /// colour space they are taken as working-space values.
    static func image(_ data: Data, bytesPerRow: Int, width: Int, height: Int, format: CIFormat, colorSpace: CGColorSpace?,
                      premultiplied: Bool, opaque: Bool) throws -> Image {
        guard let layout = format.layout else {
            throw CIError.unsupported("CIFormat \(format.rawValue) (use RGBA8, BGRA8, ARGB8, ABGR8, RGBA16, RGBAh or RGBAf)")
        }
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20, bytesPerRow >= width * layout.bytesPerPixel,
              bytesPerRow.multipliedReportingOverflow(by: height).overflow == false, data.count >= bytesPerRow * (height - 1) + width * layout.bytesPerPixel
        else { throw CIError.unsupported("a \(width)×\(height) bitmap needs \(bytesPerRow) × \(height) bytes; got \(data.count)") }
        var pixels = [SIMD4<Float>](repeating: .zero, count: width * height)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            for row in 0..<height {
                let y = height - 1 - row
                for x in 0..<width {
                    let base = row * bytesPerRow + x * layout.bytesPerPixel
                    var v = SIMD4<Float>.zero
                    for k in 0..<4 {
                        let at = base + k * layout.component
                        let value: Float
                        switch (layout.component, format) {
                        case (1, _): value = Float(raw[at]) / 255
                        case (2, .RGBAh): value = Float(Float16(bitPattern: raw.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
                        case (2, _): value = Float(raw.loadUnaligned(fromByteOffset: at, as: UInt16.self)) / 65535
                        default: value = raw.loadUnaligned(fromByteOffset: at, as: Float.self)
                        }
                        v[layout.order[k]] = value
                    }
                    if opaque { v.w = 1 }
                    pixels[y * width + x] = working(v, premultiplied: premultiplied, colorSpace: colorSpace)
                }
            }
        }
        return try Image(workingSpacePixels: pixels, width: width, height: height, colorManaged: colorSpace != nil)
    }

    /// A CGImage's bytes as `image(_:…)` reads them: four-component layouts as they are (the
    /// format from the alpha position and byte order), grey and grey-alpha ones expanded to
    /// premultiplied RGBA8.
    static func layout(of cgImage: CGImage) -> (data: Data, bytesPerRow: Int, format: CIFormat, premultiplied: Bool, opaque: Bool) {
        let alpha = cgImage.alphaInfo
        let premultiplied = alpha == .premultipliedLast || alpha == .premultipliedFirst
        let opaque = alpha == .none || alpha == .noneSkipLast || alpha == .noneSkipFirst
        let components = cgImage.bitsPerPixel / max(1, cgImage.bitsPerComponent)
        if components == 4 {
            switch cgImage.bitsPerComponent {
            case 32: return (cgImage.data, cgImage.bytesPerRow, .RGBAf, premultiplied, opaque)
            case 16: return (cgImage.data, cgImage.bytesPerRow, .RGBA16, premultiplied, opaque)
            default:
                let first = alpha == .premultipliedFirst || alpha == .first || alpha == .noneSkipFirst
                let little = cgImage.bitmapInfo.intersection(.byteOrderMask) == .byteOrder32Little
                let format: CIFormat = first ? (little ? .BGRA8 : .ARGB8) : (little ? .ABGR8 : .RGBA8)
                return (cgImage.data, cgImage.bytesPerRow, format, premultiplied, opaque)
            }
        }
        guard let reader = PixelReader(cgImage) else { return (Data(), 0, .RGBA8, true, false) }
        var out = Data(count: cgImage.width * cgImage.height * 4)
        out.withUnsafeMutableBytes { raw in
            let dst = raw.bindMemory(to: UInt8.self)
            for y in 0..<cgImage.height {
                for x in 0..<cgImage.width {
                    let v = reader.pixel(x, y), o = (y * cgImage.width + x) * 4
                    for k in 0..<4 { dst[o + k] = UInt8((min(1, max(0, v[k])) * 255).rounded()) }
                }
            }
        }
        return (out, cgImage.width * 4, .RGBA8, true, opaque)
    }

    /// One straight or premultiplied value in `colorSpace` → premultiplied linear sRGB.
    static func working(_ v: SIMD4<Float>, premultiplied: Bool, colorSpace: CGColorSpace?) -> SIMD4<Float> {
        guard let space = colorSpace else { return premultiplied ? v : SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w) }
        let a = v.w
        var c = premultiplied ? (a > 0 ? SIMD3(v.x, v.y, v.z) / a : .zero) : SIMD3(v.x, v.y, v.z)
        if !space.isLinear { c = SIMD3(linear(c.x), linear(c.y), linear(c.z)) }
        if space.isGray { c = SIMD3(repeating: c.x) }
        if space.isWide { c = ColorMatrices.p3ToSRGB(c) }
        return SIMD4(c.x * a, c.y * a, c.z * a, a)
    }

    /// The inverse: premultiplied linear sRGB → values in `colorSpace` (straight unless
    /// `premultiplied`); nil colour space writes working values unchanged.
    static func output(_ p: SIMD4<Float>, premultiplied: Bool, colorSpace: CGColorSpace?) -> SIMD4<Float> {
        guard let space = colorSpace else { return premultiplied ? p : (p.w > 0 ? SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w) : .zero) }
        let a = p.w
        var c = a > 0 ? SIMD3(p.x, p.y, p.z) / a : .zero
        if space.isWide { c = ColorMatrices.sRGBToP3(c) }
        if space.isGray { let l = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z; c = SIMD3(repeating: l) }
        if !space.isLinear { c = SIMD3(encoded(c.x), encoded(c.y), encoded(c.z)) }
        return premultiplied ? SIMD4(c.x * a, c.y * a, c.z * a, a) : SIMD4(c.x, c.y, c.z, a)
    }

    /// sRGB curves, mirrored for negative (extended-range) values.
    static func linear(_ v: Float) -> Float {
        let x = Swift.abs(v), l = x <= 0.04045 ? x / 12.92 : powf((x + 0.055) / 1.055, 2.4)
        return v < 0 ? -l : l
    }
    static func encoded(_ v: Float) -> Float {
        let x = Swift.abs(v), e = x <= 0.0031308 ? x * 12.92 : 1.055 * powf(x, 1 / 2.4) - 0.055
        return v < 0 ? -e : e
    }
}

/// Display P3 ↔ sRGB primaries (both D65), linear.
enum ColorMatrices {
    static func p3ToSRGB(_ c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(1.2249 * c.x - 0.2247 * c.y + 0.0000 * c.z, -0.0420 * c.x + 1.0419 * c.y + 0.0000 * c.z, -0.0197 * c.x - 0.0786 * c.y + 1.0979 * c.z)
    }
    static func sRGBToP3(_ c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(0.8225 * c.x + 0.1774 * c.y + 0.0000 * c.z, 0.0332 * c.x + 0.9669 * c.y + 0.0000 * c.z, 0.0171 * c.x + 0.0724 * c.y + 0.9108 * c.z)
    }
}

/// Errors LumenCoreImage reports where Core Image would return nil or raise.
public enum CIError: Error, CustomStringConvertible {
    /// A format, option or value Lumen does not support, named.
    case unsupported(String)
    /// A kernel that cannot be built here (Metal source or libraries), and why.
    case kernel(String)
    /// The message, prefixed `LumenCoreImage:`.
    public var description: String {
        switch self {
        case let .unsupported(what): return "LumenCoreImage: unsupported: \(what)"
        case let .kernel(why): return "LumenCoreImage: the kernel cannot be built: \(why)"
        }
    }
}
