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

    /// Linear value of each 8-bit code.
    static let linearFrom8: [Float] = (0..<256).map { Float(linear(fromSRGB: Double($0) / 255)) }
    /// Linear value of each 16-bit code.
    static let linearFrom16: [Float] = (0..<65536).map { Float(linear(fromSRGB: Double($0) / 65535)) }

    /// threshold8[i] is the linear value halfway (in sRGB) between codes i and i+1.
    private static let threshold8: [Float] = (0..<256).map {
        $0 == 255 ? .infinity : Float(linear(fromSRGB: (Double($0) + 0.5) / 255))
    }
    private static let binCount = 8192
    /// The smallest code whose threshold may lie in each bin of [0, 1].
    private static let firstCode8: [UInt8] = (0...binCount).map { bin in
        let lower = Float(bin) / Float(binCount)
        return UInt8(threshold8.firstIndex { $0 >= lower } ?? 255)
    }

    /// Linear light → nearest 8-bit sRGB code (clamped).
    @inline(__always)
    static func encode8(_ linear: Float) -> UInt8 {
        guard linear > 0 else { return 0 }
        guard linear < 1 else { return 255 }
        var code = Int(firstCode8[Int(linear * Float(binCount))])
        while linear >= threshold8[code] { code += 1 }
        return UInt8(code)
    }

    /// Linear light → nearest 16-bit sRGB code (clamped).
    @inline(__always)
    static func encode16(_ linear: Float) -> UInt16 {
        guard linear > 0 else { return 0 }
        guard linear < 1 else { return 65535 }
        return UInt16(srgb(fromLinear: Double(linear)) * 65535 + 0.5)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
