import Foundation

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

    /// The curve sampled at 16,385 points over 0…1, read with linear interpolation: within
    /// 2·10⁻⁶ of the formula there (a tenth of a 16-bit step), six times cheaper than two
    /// `pow` calls per pixel; values outside 0…1 take the formula.
    private static let samples = 16_384
    private static let encodeTable: [Float] = (0...samples).map { TransferFunction.srgbMirrored(fromLinear: Float($0) / Float(samples)) }
    private static let decodeTable: [Float] = (0...samples).map { TransferFunction.linearMirrored(fromSRGB: Float($0) / Float(samples)) }

    @inline(__always)
    private static func curve(_ v: Float, _ table: UnsafeBufferPointer<Float>, encoding: Bool) -> Float {
        guard v >= 0, v <= 1 else {
            return encoding ? TransferFunction.srgbMirrored(fromLinear: v) : TransferFunction.linearMirrored(fromSRGB: v)
        }
        let x = v * Float(samples)
        let i = min(Int(x), samples - 1), t = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * t
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        if exact {
            for i in 0..<count {
                let p = row[i]
                row[i] = encoding
                    ? SIMD4(TransferFunction.srgbMirrored(fromLinear: p.x), TransferFunction.srgbMirrored(fromLinear: p.y),
                            TransferFunction.srgbMirrored(fromLinear: p.z), p.w)
                    : SIMD4(TransferFunction.linearMirrored(fromSRGB: p.x), TransferFunction.linearMirrored(fromSRGB: p.y),
                            TransferFunction.linearMirrored(fromSRGB: p.z), p.w)
            }
            return
        }
        (encoding ? Self.encodeTable : Self.decodeTable).withUnsafeBufferPointer { table in
            for i in 0..<count {
                let p = row[i]
                row[i] = SIMD4(Self.curve(p.x, table, encoding: encoding), Self.curve(p.y, table, encoding: encoding),
                               Self.curve(p.z, table, encoding: encoding), p.w)
            }
        }
    }
}
