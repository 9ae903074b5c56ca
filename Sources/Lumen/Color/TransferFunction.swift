/// The sRGB transfer function and the tables that move 8- and 16-bit encoded values
/// into linear light and back.
///
/// Encoding back to 8 bits is exact for every decoded value: each output code is chosen
/// by comparing against the linear value of the midpoint between neighbouring codes,
/// so 8-bit → linear → 8-bit gives the input back.
enum TransferFunction {
    /// sRGB encoded (0…1) → linear light.
    static func linear(fromSRGB v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Linear light → sRGB encoded (0…1).
    static func srgb(fromLinear v: Double) -> Double {
        v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// The sRGB encoding extended to negative (out-of-gamut) values by odd symmetry.
    static func srgbMirrored(fromLinear v: Float) -> Float {
        v < 0 ? -Float(srgb(fromLinear: Double(-v))) : Float(srgb(fromLinear: Double(v)))
    }

    /// The sRGB decoding extended to negative values by odd symmetry.
    static func linearMirrored(fromSRGB v: Float) -> Float {
        v < 0 ? -Float(linear(fromSRGB: Double(-v))) : Float(linear(fromSRGB: Double(v)))
    }

    /// Linear value of each 8-bit code.
    static let linearFrom8: [Float] = (0..<256).map { Float(linear(fromSRGB: Double($0) / 255)) }
    /// Linear value of each 16-bit code.
    static let linearFrom16: [Float] = (0..<65536).map { Float(linear(fromSRGB: Double($0) / 65535)) }

    /// Linear light → nearest 8-bit sRGB code (clamped). For loops, fetch
    /// `EncodeTables.shared` once and call its `encode8` instead.
    @inline(__always)
    static func encode8(_ linear: Float) -> UInt8 { EncodeTables.shared.encode8(linear) }

    /// Linear light → nearest 16-bit sRGB code (clamped).
    @inline(__always)
    static func encode16(_ linear: Float) -> UInt16 {
        guard linear > 0 else { return 0 }
        guard linear < 1 else { return 65535 }
        return UInt16(srgb(fromLinear: Double(linear)) * 65535 + 0.5)
    }
}

/// Tables for encoding linear light to 8-bit sRGB, kept at fixed addresses so the hot
/// loop reads them through plain pointers (no global-initialization checks per pixel).
///
/// `threshold[c]` is the linear value of the sRGB midpoint between codes c and c+1;
/// `firstCode[bin]` is the smallest code whose threshold lies at or above the start of
/// one of 4,096 equal bins of [0, 1]. Thresholds are at least 1/3294 apart in linear light
/// (the curve's linear toe), wider than a bin (1/4096), so a bin holds at most one: one
/// lookup and one comparison per sample. `binThreshold[bin]` is `threshold[firstCode[bin]]`,
/// so the code and the value it is compared with are two independent loads, not a chain.
final class EncodeTables: @unchecked Sendable {  // immutable lookup tables in raw memory, filled once in init
    static let shared = EncodeTables()
    static let bins = 4096
    let threshold: UnsafeMutablePointer<Float>
    let firstCode: UnsafeMutablePointer<UInt8>
    let binThreshold: UnsafeMutablePointer<Float>

    private init() {
        threshold = .allocate(capacity: 256)
        for c in 0..<256 {
            // Past code 255 there is nothing to reach: NaN compares false even with +∞ (an
            // infinite threshold let +∞ step 255 on to 0).
            threshold[c] = c == 255 ? .nan : Float(TransferFunction.linear(fromSRGB: (Double(c) + 0.5) / 255))
        }
        firstCode = .allocate(capacity: Self.bins + 1)
        var code = 0
        for bin in 0...Self.bins {
            let lower = Float(bin) / Float(Self.bins)
            while code < 255 && threshold[code] < lower { code += 1 }  // stops at 255 before its NaN
            firstCode[bin] = UInt8(code)
        }
        binThreshold = .allocate(capacity: Self.bins + 1)
        for bin in 0...Self.bins { binThreshold[bin] = threshold[Int(firstCode[bin])] }
    }

    /// Branch-free: the bin is read from the top 12 bits of the mantissa of 1 + x (x
    /// clamped below 1), which equal ⌊x · 4096⌋, without a float-to-int conversion.
    @inline(__always)
    func encode8(_ linear: Float) -> UInt8 {
        let x = min(max(linear, 0), 0x1.fffffcp-1)  // 1 − 2⁻²³: 1 + x stays below 2
        let bin = Int(truncatingIfNeeded: (x + 1).bitPattern >> 11) & 0xFFF
        return firstCode[bin] &+ (linear >= binThreshold[bin] ? 1 : 0)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
