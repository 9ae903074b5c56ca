import LumenPlatform

extension FilterDescriptor {
    /// The Rec. 709 luma t (clamped 0…1) picks a colour on a fixed ramp black → blue →
    /// purple → red → orange → yellow → white (stops every 1/6, linear light); alpha kept.
    static let thermal = FilterDescriptor(
        name: "thermal", coreImageName: "CIThermal", category: .colorEffect,
        summary: "False colors like a thermal camera.",
        details: "luma → ramp black, blue, purple, red, orange, yellow, white (stops every 1/6); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Ramp.thermal) }

    /// An X-ray look: t = 1 − luma (clamped) picks a colour on a ramp from near-black blue
    /// to a pale cyan white; alpha kept.
    static let xRay = FilterDescriptor(
        name: "xRay", coreImageName: "CIXRay", category: .colorEffect,
        summary: "Inverted gray with a cold blue tint, like an X-ray.",
        details: "t = 1 − luma → ramp (0.02, 0.03, 0.08) … (0.55, 0.75, 0.9) … (0.95, 1, 1); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Ramp.xRay) }
}

/// A piecewise-linear colour ramp over luma (linear light stops).
struct Ramp: ColorOperation {
    let label: String
    let stops: [SIMD3<Float>]
    let invert: Bool
    var name: String { label }

    static let thermal = Ramp(label: "thermal", stops: [SIMD3(0, 0, 0), SIMD3(0.02, 0.02, 0.5), SIMD3(0.35, 0.02, 0.45), SIMD3(0.9, 0.05, 0.05),
                                                        SIMD3(1, 0.4, 0), SIMD3(1, 0.9, 0.05), SIMD3(1, 1, 1)], invert: false)
    static let xRay = Ramp(label: "xRay", stops: [SIMD3(0.02, 0.03, 0.08), SIMD3(0.55, 0.75, 0.9), SIMD3(0.95, 1, 1)], invert: true)

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let last = Float(stops.count - 1)
        for i in 0..<count {
            let p = row[i]
            var t = min(1, max(0, (p * lumaWeights).sum()))
            if invert { t = 1 - t }
            let u = t * last, k = min(Int(u), stops.count - 2), f = u - Float(k)
            let c = stops[k] + (stops[k + 1] - stops[k]) * f
            row[i] = SIMD4(c.x, c.y, c.z, p.w)
        }
    }
}
