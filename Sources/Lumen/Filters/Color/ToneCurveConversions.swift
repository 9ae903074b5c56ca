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
    var name: String { encoding ? "linearToSRGBToneCurve" : "sRGBToneCurveToLinear" }
    var isChannelSeparable: Bool { true }

    @inline(__always)
    private func curve(_ v: Float) -> Float {
        encoding ? TransferFunction.srgbMirrored(fromLinear: v) : TransferFunction.linearMirrored(fromSRGB: v)
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            row[i] = SIMD4(curve(p.x), curve(p.y), curve(p.z), p.w)
        }
    }
}
