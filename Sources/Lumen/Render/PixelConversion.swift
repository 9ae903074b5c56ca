import CKernels

/// Moves working-space pixels out to encoded rows: unpremultiplied sRGB codes, or
/// (for outputs without alpha) the premultiplied color, i.e. the image over black.
enum PixelConversion {
    /// Writes `count` pixels as 8-bit samples with `channels` 1–4 into `out`. Above the
    /// baseline, RGB and RGBA go through `CKernels_encode8`, which evaluates the curve in
    /// registers and uses the tables only near a rounding boundary, with the same codes as
    /// the loop below (an AVX2 version gathering from the tables for every sample measured
    /// 1.3× slower than the loop on Zen 4).
    static func encode8(_ pixels: UnsafePointer<SIMD4<Float>>, count: Int, channels: Int,
                        into out: UnsafeMutablePointer<UInt8>, level: InstructionSet = .current) {
        let tables = EncodeTables.shared
        if level > .baseline, channels >= 3, count > 0 {
            return pixels.withMemoryRebound(to: Float.self, capacity: 4 * count) { floats in
                CKernels_encode8(level.cLevel, floats, Int32(channels), out, count, tables.firstCode, tables.binThreshold)
            }
        }
        switch channels {
        case 3:
            for i in 0..<count {
                let p = pixels[i]
                out[3 * i] = tables.encode8(p.x)
                out[3 * i + 1] = tables.encode8(p.y)
                out[3 * i + 2] = tables.encode8(p.z)
            }
        case 4:
            for i in 0..<count {
                let p = pixels[i]
                let rgb = unpremultiplied(p)
                out[4 * i] = tables.encode8(rgb.x)
                out[4 * i + 1] = tables.encode8(rgb.y)
                out[4 * i + 2] = tables.encode8(rgb.z)
                out[4 * i + 3] = UInt8(max(0, min(1, p.w)) * 255 + 0.5)
            }
        case 1:
            for i in 0..<count { out[i] = tables.encode8(luminance(pixels[i])) }
        default:
            for i in 0..<count {
                let p = pixels[i]
                out[2 * i] = tables.encode8(luminance(SIMD4(unpremultiplied(p), 1)))
                out[2 * i + 1] = UInt8(max(0, min(1, p.w)) * 255 + 0.5)
            }
        }
    }

    /// Writes `count` pixels as 16-bit samples with `channels` 1–4 into `out`.
    static func encode16(_ pixels: UnsafePointer<SIMD4<Float>>, count: Int, channels: Int,
                         into out: UnsafeMutablePointer<UInt16>) {
        for i in 0..<count {
            let p = pixels[i]
            let hasAlpha = channels == 2 || channels == 4
            let rgb = hasAlpha ? unpremultiplied(p) : SIMD3(p.x, p.y, p.z)
            let alpha = UInt16(max(0, min(1, p.w)) * 65535 + 0.5)
            switch channels {
            case 1: out[i] = TransferFunction.encode16(luminance(SIMD4(rgb, 1)))
            case 2:
                out[2 * i] = TransferFunction.encode16(luminance(SIMD4(rgb, 1)))
                out[2 * i + 1] = alpha
            default:
                out[channels * i] = TransferFunction.encode16(rgb.x)
                out[channels * i + 1] = TransferFunction.encode16(rgb.y)
                out[channels * i + 2] = TransferFunction.encode16(rgb.z)
                if channels == 4 { out[4 * i + 3] = alpha }
            }
        }
    }

    /// Working-space pixels as linear-light Float32 (OpenEXR): RGBA stays premultiplied,
    /// as EXR stores it; values above 1 are kept.
    static func encodeLinear(_ pixels: UnsafePointer<SIMD4<Float>>, count: Int, channels: Int,
                             into out: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let p = pixels[i]
            switch channels {
            case 1: out[i] = luminance(p)
            case 2: out[2 * i] = luminance(p); out[2 * i + 1] = p.w
            case 3: out[3 * i] = p.x; out[3 * i + 1] = p.y; out[3 * i + 2] = p.z
            default: out[4 * i] = p.x; out[4 * i + 1] = p.y; out[4 * i + 2] = p.z; out[4 * i + 3] = p.w
            }
        }
    }

    @inline(__always)
    static func unpremultiplied(_ p: SIMD4<Float>) -> SIMD3<Float> {
        p.w > 0 ? SIMD3(p.x, p.y, p.z) / p.w : .zero
    }

    /// Rec. 709 luminance of linear RGB (gray outputs).
    @inline(__always)
    static func luminance(_ p: SIMD4<Float>) -> Float {
        0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z
    }
}
