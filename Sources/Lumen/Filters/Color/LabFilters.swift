import LumenPlatform

/// CIE L*a*b* (D50, as ICC profiles and Little CMS use it) of linear sRGB, through
/// XYZ with the Bradford-adapted sRGB matrix.
enum Lab {
    static let white = SIMD3<Double>(0.9642, 1, 0.8249)

    static func fromLinearSRGB(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let x = 0.4360747 * c.x + 0.3850649 * c.y + 0.1430804 * c.z
        let y = 0.2225045 * c.x + 0.7168786 * c.y + 0.0606169 * c.z
        let z = 0.0139322 * c.x + 0.0971045 * c.y + 0.7141733 * c.z
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x / white.x), fy = f(y / white.y), fz = f(z / white.z)
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static func toLinearSRGB(_ lab: SIMD3<Double>) -> SIMD3<Double> {
        let fy = (lab.x + 16) / 116, fx = fy + lab.y / 500, fz = fy - lab.z / 200
        func inverse(_ t: Double) -> Double { t * t * t > 216.0 / 24389 ? t * t * t : (116 * t - 16) * 27 / 24389 }
        let x = inverse(fx) * white.x, y = inverse(fy) * white.y, z = inverse(fz) * white.z
        return SIMD3(3.1338561 * x - 1.6168667 * y - 0.4906146 * z,
                     -0.9787684 * x + 1.9161415 * y + 0.0334540 * z,
                     0.0719453 * x - 0.2289914 * y + 1.4052427 * z)
    }

    /// CIE ΔE 1994 (graphic arts: kL = 1, K1 = 0.045, K2 = 0.015).
    static func deltaE94(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let c1 = (a.y * a.y + a.z * a.z).squareRoot(), c2 = (b.y * b.y + b.z * b.z).squareRoot()
        let dL = a.x - b.x, dC = c1 - c2, da = a.y - b.y, db = a.z - b.z
        let dH2 = max(0, da * da + db * db - dC * dC)
        let sC = 1 + 0.045 * c1, sH = 1 + 0.015 * c1
        return (dL * dL + (dC / sC) * (dC / sC) + dH2 / (sH * sH)).squareRoot()
    }
}

extension FilterDescriptor {
    /// Per pixel, ΔE 1994 between the two images' unpremultiplied colours in L*a*b*
    /// (D50); written to red, green and blue (0 identical, 2.3 about a just noticeable
    /// difference, up to ~100), alpha 1.
    static let labDeltaE = FilterDescriptor(
        name: "labDeltaE", coreImageName: "CILabDeltaE", category: .colorEffect,
        summary: "The CIE ΔE 1994 color difference between two images, per pixel.",
        details: "ΔE94 of the two unpremultiplied colours in L*a*b* (D50, Bradford) into r, g, b; alpha 1.",
        parameters: [.inputImage, ParameterDescriptor("image2", .image, "The image to compare with.")]
    ) { args in LabPair(mode: .deltaE).apply(to: [try args.image("image"), try args.image("image2")]) }

    /// |a − b| per colour channel of the unpremultiplied colours; alpha = αa·αb (as Core Image documents).
    static let colorAbsoluteDifference = FilterDescriptor(
        name: "colorAbsoluteDifference", coreImageName: "CIColorAbsoluteDifference", category: .colorAdjustment,
        summary: "The absolute difference of two images' colors.",
        details: "rgb = |a − b| of unpremultiplied linear colours; alpha = αa·αb.",
        parameters: [.inputImage, ParameterDescriptor("image2", .image, "The image to subtract.")]
    ) { args in LabPair(mode: .absoluteDifference).apply(to: [try args.image("image"), try args.image("image2")]) }

    /// rgb ↦ (L*, a*, b*) of the unpremultiplied colour (D50); with normalize, (L/100, a/128, b/128).
    static let convertRGBtoLab = FilterDescriptor(
        name: "convertRGBtoLab", coreImageName: "CIConvertRGBtoLab", category: .colorEffect,
        summary: "Converts colors to CIE L*a*b* values.",
        details: "(L, a, b) of the linear sRGB colour (D50, Bradford) into r, g, b; normalize divides by (100, 128, 128); alpha kept.",
        parameters: [.inputImage, .number("normalize", .boolean, default: 0, min: 0, max: 1, "1 scales L to 0…1 and a, b to about −1…1.")]
    ) { args in try args.image("image").applyingColor(LabConversion(toLab: true, normalized: args.number("normalize") >= 0.5)) }

    /// The inverse of convertRGBtoLab.
    static let convertLabToRGB = FilterDescriptor(
        name: "convertLabToRGB", coreImageName: "CIConvertLabToRGB", category: .colorEffect,
        summary: "Converts CIE L*a*b* values back to colors.",
        details: "Linear sRGB of (L, a, b) read from r, g, b (× (100, 128, 128) when normalize); alpha kept.",
        parameters: [.inputImage, .number("normalize", .boolean, default: 0, min: 0, max: 1, "1 when the values are normalized.")]
    ) { args in try args.image("image").applyingColor(LabConversion(toLab: false, normalized: args.number("normalize") >= 0.5)) }
}

struct LabConversion: ColorOperation {
    let toLab: Bool
    let normalized: Bool
    var name: String { toLab ? "convertRGBtoLab" : "convertLabToRGB" }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let scale = normalized ? SIMD3<Double>(100, 128, 128) : SIMD3(1, 1, 1)
        for i in 0..<count {
            let p = row[i], c = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z))
            let o = toLab ? Lab.fromLinearSRGB(c) / scale : Lab.toLinearSRGB(c * scale)
            row[i] = SIMD4(Float(o.x), Float(o.y), Float(o.z), p.w)
        }
    }
}

/// Two images compared per pixel (premultiplied in and out).
struct LabPair: ImageKernel {
    enum Mode: Hashable, Sendable { case deltaE, absoluteDifference }
    let mode: Mode
    var name: String { mode == .deltaE ? "labDeltaE" : "colorAbsoluteDifference" }

    func extent(inputs: [Rect]) -> Rect { inputs[0].union(inputs[1]) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x
        destination.forEachRow { y, row, count in
            let a = inputs[0].row(y, from: x), b = inputs[1].row(y, from: x)
            for i in 0..<count {
                func straight(_ p: SIMD4<Float>) -> SIMD3<Double> {
                    p.w > 0 ? SIMD3(Double(p.x / p.w), Double(p.y / p.w), Double(p.z / p.w)) : .zero
                }
                switch mode {
                case .deltaE:
                    let e = Float(Lab.deltaE94(Lab.fromLinearSRGB(straight(a[i])), Lab.fromLinearSRGB(straight(b[i]))))
                    row[i] = SIMD4(e, e, e, 1)
                case .absoluteDifference:
                    let diff = straight(a[i]) - straight(b[i]), alpha = a[i].w * b[i].w
                    let d = SIMD3(Swift.abs(diff.x), Swift.abs(diff.y), Swift.abs(diff.z))
                    row[i] = SIMD4(Float(d.x) * alpha, Float(d.y) * alpha, Float(d.z) * alpha, alpha)
                }
            }
        }
    }
}
