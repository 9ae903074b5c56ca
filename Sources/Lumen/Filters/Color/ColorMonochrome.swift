extension FilterDescriptor {
    /// rgb' = mix(rgb, luma(rgb)·color, intensity), luma with Rec. 709 weights in linear
    /// light and color in linear light (its alpha ignored). One color matrix.
    static let colorMonochrome = FilterDescriptor(
        name: "colorMonochrome", coreImageName: "CIColorMonochrome", category: .colorEffect,
        summary: "Remaps colors to shades of one color.",
        details: "mix(rgb, luma(rgb)·color, intensity); Rec. 709 luma, linear light.",
        parameters: [
            .inputImage,
            .color("color", default: Color(red: 0.6, green: 0.45, blue: 0.3), "The tint (alpha ignored)."),
            .number("intensity", default: 1, min: 0, identity: 0, "0 unchanged, 1 fully monochrome."),
        ]
    ) { args in
        let image = try args.image("image"), k = args.float("intensity")
        guard k != 0 else { return image }
        var tint = args.color("color")
        tint.alpha = 1
        let t = tint.working, w = lumaWeights
        let identity: [SIMD4<Float>] = [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0)]
        let rows = (0..<3).map { identity[$0] * (1 - k) + w * t[$0] * k }
        return image.applyingColor(ColorMatrix(r: rows[0], g: rows[1], b: rows[2], a: SIMD4(0, 0, 0, 1), bias: .zero))
    }
}
