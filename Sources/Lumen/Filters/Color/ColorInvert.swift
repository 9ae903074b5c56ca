extension FilterDescriptor {
    /// rgb' = 1 − rgb on unpremultiplied linear values; alpha unchanged.
    static let colorInvert = FilterDescriptor(
        name: "colorInvert", coreImageName: "CIColorInvert", category: .colorEffect,
        summary: "Inverts the colors.",
        details: "rgb' = 1 − rgb (unpremultiplied, linear); alpha unchanged.",
        parameters: [.inputImage]
    ) { args in
        try args.image("image").applyingColor(ColorMatrix(r: SIMD4(-1, 0, 0, 0), g: SIMD4(0, -1, 0, 0), b: SIMD4(0, 0, -1, 0),
                                                          a: SIMD4(0, 0, 0, 1), bias: SIMD4(1, 1, 1, 0)))
    }
}
