extension FilterDescriptor {
    /// In linear light, in this order: saturation (lerp from Rec. 709 luma, s > 1
    /// extrapolates), brightness (rgb + b), contrast ((rgb − 0.5)·k + 0.5). Expressed as
    /// one color matrix, so it fuses with neighbouring matrices.
    static let colorControls = FilterDescriptor(
        name: "colorControls", coreImageName: "CIColorControls", category: .colorAdjustment,
        summary: "Adjusts saturation, brightness and contrast.",
        details: "Linear light; saturation lerps from Rec. 709 luma, then rgb + brightness, then (rgb − 0.5)·contrast + 0.5.",
        parameters: [
            .inputImage,
            .number("saturation", default: 1, min: 0, identity: 1, "0 gray, 1 unchanged, above 1 more saturated."),
            .number("brightness", default: 0, min: -1, identity: 0, "Added to red, green and blue."),
            .number("contrast", default: 1, min: 0, identity: 1, "Scale around 0.5; 1 unchanged."),
        ]
    ) { args in
        let image = try args.image("image")
        let matrix = colorControlsMatrix(saturation: args.float("saturation"), brightness: args.float("brightness"), contrast: args.float("contrast"))
        return matrix.isIdentity ? image : image.applyingColor(matrix)
    }
}

/// The single matrix for saturation, then brightness, then contrast.
func colorControlsMatrix(saturation s: Float, brightness: Float, contrast k: Float) -> ColorMatrix {
    let w = lumaWeights
    let saturate = ColorMatrix(r: SIMD4(w.x * (1 - s) + s, w.y * (1 - s), w.z * (1 - s), 0),
                               g: SIMD4(w.x * (1 - s), w.y * (1 - s) + s, w.z * (1 - s), 0),
                               b: SIMD4(w.x * (1 - s), w.y * (1 - s), w.z * (1 - s) + s, 0),
                               a: SIMD4(0, 0, 0, 1), bias: .zero)
    let brighten = ColorMatrix(r: [1, 0, 0, 0], g: [0, 1, 0, 0], b: [0, 0, 1, 0], a: [0, 0, 0, 1],
                               bias: SIMD4(brightness, brightness, brightness, 0))
    let offset = 0.5 * (1 - k)
    let contrast = ColorMatrix(r: [k, 0, 0, 0], g: [0, k, 0, 0], b: [0, 0, k, 0], a: [0, 0, 0, 1],
                               bias: SIMD4(offset, offset, offset, 0))
    return saturate.followed(by: brighten).followed(by: contrast)
}
