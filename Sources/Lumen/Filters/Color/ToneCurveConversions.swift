import LumenPlatform

extension FilterDescriptor {
    /// Each unpremultiplied channel through the sRGB encoding (IEC 61966-2-1), mirrored
    /// for negative values: v' = sign(v)·srgb(|v|). Alpha unchanged.
    static let linearToSRGBToneCurve = FilterDescriptor(
        name: "linearToSRGBToneCurve", coreImageName: "CILinearToSRGBToneCurve", category: .colorAdjustment,
        summary: "Applies the sRGB encoding curve to linear values.",
        details: "v' = 1.055·v^(1/2.4) − 0.055 (v > 0.0031308), else 12.92·v; odd-symmetric; unpremultiplied.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(SRGBCurve(encoding: true)) }

    /// Each unpremultiplied channel through the sRGB decoding, mirrored for negative
    /// values: v' = sign(v)·linear(|v|). Alpha unchanged.
    static let sRGBToneCurveToLinear = FilterDescriptor(
        name: "sRGBToneCurveToLinear", coreImageName: "CISRGBToneCurveToLinear", category: .colorAdjustment,
        summary: "Applies the sRGB decoding curve, giving linear values.",
        details: "v' = ((v + 0.055)/1.055)^2.4 (v > 0.04045), else v/12.92; odd-symmetric; unpremultiplied.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(SRGBCurve(encoding: false)) }
}

struct SRGBCurve: ColorOperation {
    let encoding: Bool
    /// The formula for every value (no table): for round trips that must give back the
    /// very values they started from (`Image.unmanaged()`).
    var exact = false
    var name: String { encoding ? "linearToSRGBToneCurve" : "sRGBToneCurveToLinear" }
    var isChannelSeparable: Bool { true }

    private static let encodeTable = SampledCurve { TransferFunction.srgbMirrored(fromLinear: $0) }
    private static let decodeTable = SampledCurve { TransferFunction.linearMirrored(fromSRGB: $0) }

    @inline(__always)
    private func formula(_ v: Float) -> Float {
        encoding ? TransferFunction.srgbMirrored(fromLinear: v) : TransferFunction.linearMirrored(fromSRGB: v)
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        guard !exact else {
            for i in 0..<count {
                let p = row[i]
                row[i] = SIMD4(formula(p.x), formula(p.y), formula(p.z), p.w)
            }
            return
        }
        (encoding ? Self.encodeTable : Self.decodeTable).apply(row, count: count, outside: formula)
    }
}

/// A per-channel curve sampled at 16,385 points over 0…1 and read with linear
/// interpolation (within 2·10⁻⁶ of a transfer curve, a tenth of a 16-bit step; far cheaper
/// than `pow`); values outside 0…1 (and NaN) take the exact formula.
struct SampledCurve: Sendable {
    static let samples = 16_384
    let table: [Float]

    init(_ formula: (Float) -> Float) {
        table = (0...Self.samples).map { formula(Float($0) / Float(Self.samples)) }
    }

    /// Red, green and blue of `count` pixels through the curve; alpha unchanged.
    @inline(__always)
    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int, outside formula: (Float) -> Float) {
        table.withUnsafeBufferPointer { table in
            @inline(__always) func curve(_ v: Float) -> Float {
                guard v >= 0, v <= 1 else { return formula(v) }
                let x = v * Float(Self.samples)
                let i = min(Int(x), Self.samples - 1), t = x - Float(i)
                return table[i] + (table[i + 1] - table[i]) * t
            }
            for i in 0..<count {
                let p = row[i]
                row[i] = SIMD4(curve(p.x), curve(p.y), curve(p.z), p.w)
            }
        }
    }
}
