import LumenPlatform

extension FilterDescriptor {
    /// Per-channel gain so that `color` (linear light) becomes white: rgb' = rgb / color.
    static let whitePointAdjust = FilterDescriptor(
        name: "whitePointAdjust", coreImageName: "CIWhitePointAdjust", category: .colorAdjustment,
        summary: "Makes a given color white by scaling each channel.",
        details: "rgb' = rgb / color (linear, per channel; a von Kries adaptation in sRGB primaries); alpha kept.",
        parameters: [.inputImage, .color("color", default: .white, "The color that becomes white.")]
    ) { args in
        let c = args.color("color").linearStraight
        guard c.x > 0, c.y > 0, c.z > 0 else {
            throw LumenError.invalidValue(filter: "whitePointAdjust", key: "color", reason: "every component must be above 0")
        }
        let image = try args.image("image")
        if c.x == 1 && c.y == 1 && c.z == 1 { return image }
        return image.applyingColor(ColorMatrix(r: SIMD4(1 / c.x, 0, 0, 0), g: SIMD4(0, 1 / c.y, 0, 0), b: SIMD4(0, 0, 1 / c.z, 0),
                                               a: SIMD4(0, 0, 0, 1), bias: .zero))
    }
}
