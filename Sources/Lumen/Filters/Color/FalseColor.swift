extension Color {
    /// Linear-light, unpremultiplied RGBA.
    var linearStraight: SIMD4<Float> {
        let w = working
        return w.w > 0 ? SIMD4(w.x / w.w, w.y / w.w, w.z / w.w, w.w) : SIMD4(Float(TransferFunction.linear(fromSRGB: red)),
            Float(TransferFunction.linear(fromSRGB: green)), Float(TransferFunction.linear(fromSRGB: blue)), 0)
    }
}

extension FilterDescriptor {
    /// t = clamp(luma, 0, 1) with Rec. 709 weights on linear unpremultiplied RGB;
    /// rgb' = mix(color0, color1, t) (linear), alpha' = alpha · mix(α0, α1, t).
    static let falseColor = FilterDescriptor(
        name: "falseColor", coreImageName: "CIFalseColor", category: .colorEffect,
        summary: "Maps luminance to a blend of two colors.",
        details: "t = clamp(Rec. 709 luma, 0, 1); rgb' = mix(color0, color1, t) in linear light; alpha' = alpha·mix(α0, α1, t).",
        parameters: [
            .inputImage,
            .color("color0", default: Color(red: 0.3, green: 0, blue: 0), "The color of black."),
            .color("color1", default: Color(red: 1, green: 0.9, blue: 0.8), "The color of white."),
        ]
    ) { args in
        try args.image("image").applyingColor(FalseColor(color0: args.color("color0").linearStraight, color1: args.color("color1").linearStraight))
    }

}

struct FalseColor: ColorOperation {
    var name: String { "falseColor" }
    let color0: SIMD4<Float>
    let color1: SIMD4<Float>
    var preservesAlpha: Bool { color0.w == 1 && color1.w == 1 }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            let t = min(1, max(0, (p * lumaWeights).sum()))
            let c = color0 + (color1 - color0) * t
            row[i] = SIMD4(c.x, c.y, c.z, p.w * c.w)
        }
    }
}
