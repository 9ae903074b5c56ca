import LumenPlatform

extension OutputFormat {
    /// How an output's codes stand for light. HDR transfers keep values above 1 (above SDR
    /// white) in 16-bit PNG: BT.709 primaries (the working space's), the transfer signalled
    /// by a `cICP` chunk (PNG's third edition), SDR white (1.0) at ITU-R BT.2408's reference
    /// white of 203 cd/m².
    public enum Transfer: String, Sendable, CaseIterable {
        /// sRGB's curve (or the output profile's), values clipped at 1: every format.
        case sRGB = "srgb"
        /// SMPTE ST 2084 (PQ), absolute: values up to 10000 cd/m², 49× SDR white.
        case pq
        /// ARIB STD-B67 (HLG), its OETF on scene light with SDR white at 75 % of the signal
        /// (BT.2408): values up to 3.77× SDR white.
        case hlg

        /// The transfer characteristics code of ITU-T H.273 (cICP), nil for sRGB.
        var cicp: UInt8? {
            switch self {
            case .sRGB: return nil
            case .pq: return 16
            case .hlg: return 18
            }
        }

        /// The transfer a cICP code stands for, when it is one of the HDR ones.
        init?(cicp: UInt8) {
            switch cicp {
            case 16: self = .pq
            case 18: self = .hlg
            default: return nil
            }
        }
    }
}

/// PQ and HLG: working-space linear light (1 = SDR white) to signal (0…1) and back.
enum HDRCurve {
    /// ITU-R BT.2408's reference white, cd/m².
    static let referenceWhite = 203.0

    private static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
    private static let a = 0.17883277, b = 1 - 4 * 0.17883277, c = 0.5 - 0.17883277 * log(4 * 0.17883277)
    /// HLG's scene light for SDR white: the OETF gives 0.75 there.
    static let hlgWhite = (exp((0.75 - c) / a) + b) / 12

    /// The signal for working-space value `linear` (negative values as 0).
    static func encode(_ linear: Double, _ transfer: OutputFormat.Transfer) -> Double {
        let v = linear.isNaN ? 0 : max(0, linear)
        switch transfer {
        case .sRGB:
            return TransferFunction.srgb(fromLinear: min(v, 1))
        case .pq:
            let y = pow(min(1, v * referenceWhite / 10000), m1)
            return pow((c1 + c2 * y) / (1 + c3 * y), m2)
        case .hlg:
            let e = min(1, v * hlgWhite)
            return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
        }
    }

    /// The working-space value of signal `code` (0…1).
    static func decode(_ code: Double, _ transfer: OutputFormat.Transfer) -> Double {
        let e = max(0, min(1, code))
        switch transfer {
        case .sRGB:
            return TransferFunction.linear(fromSRGB: e)
        case .pq:
            let p = pow(e, 1 / m2)
            return pow(max(0, p - c1) / (c2 - c3 * p), 1 / m1) * 10000 / referenceWhite
        case .hlg:
            let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
            return scene / hlgWhite
        }
    }

    /// Every 16-bit code's working-space value, per transfer (built on first use).
    static let pqFrom16: [Float] = (0..<65536).map { Float(decode(Double($0) / 65535, .pq)) }
    static let hlgFrom16: [Float] = (0..<65536).map { Float(decode(Double($0) / 65535, .hlg)) }

    /// `count` working-space pixels as 16-bit signal with `channels` 1–4 (alpha straight,
    /// as PNG stores it).
    static func encode16(_ pixels: UnsafePointer<SIMD4<Float>>, count: Int, channels: Int, transfer: OutputFormat.Transfer,
                         into out: UnsafeMutablePointer<UInt16>) {
        func code(_ v: Float) -> UInt16 { UInt16(encode(Double(v), transfer) * 65535 + 0.5) }
        for i in 0..<count {
            let p = pixels[i]
            let hasAlpha = channels == 2 || channels == 4
            let rgb = hasAlpha ? PixelConversion.unpremultiplied(p) : SIMD3(p.x, p.y, p.z)
            let alpha = UInt16(max(0, min(1, p.w)) * 65535 + 0.5)
            switch channels {
            case 1: out[i] = code(PixelConversion.luminance(SIMD4(rgb, 1)))
            case 2: out[2 * i] = code(PixelConversion.luminance(SIMD4(rgb, 1))); out[2 * i + 1] = alpha
            case 3: out[3 * i] = code(rgb.x); out[3 * i + 1] = code(rgb.y); out[3 * i + 2] = code(rgb.z)
            default: out[4 * i] = code(rgb.x); out[4 * i + 1] = code(rgb.y); out[4 * i + 2] = code(rgb.z); out[4 * i + 3] = alpha
            }
        }
    }
}
