import LumenPlatform

extension FilterDescriptor {
    /// Rotates colors by `angle` radians about the gray axis (1, 1, 1)/√3 of linear RGB
    /// (Rodrigues' rotation), so grays are unchanged. One color matrix.
    static let hueAdjust = FilterDescriptor(
        name: "hueAdjust", coreImageName: "CIHueAdjust", category: .colorAdjustment,
        summary: "Rotates hues, leaving grays unchanged.",
        details: "Rotation by angle (radians) about the (1, 1, 1) axis of linear RGB.",
        parameters: [.inputImage, .number("angle", .angle, default: 0, identity: 0, "Rotation in radians.")]
    ) { args in
        let image = try args.image("image"), angle = args.number("angle")
        guard angle != 0 else { return image }
        let c = Float(cos(angle)), s = Float(sin(angle)), k = (1 - c) / 3, r = s / Float(3).squareRoot()
        return image.applyingColor(ColorMatrix(r: SIMD4(c + k, k - r, k + r, 0), g: SIMD4(k + r, c + k, k - r, 0),
                                               b: SIMD4(k - r, k + r, c + k, 0), a: SIMD4(0, 0, 0, 1), bias: .zero))
    }
}
