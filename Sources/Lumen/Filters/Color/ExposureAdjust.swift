import LumenPlatform

extension FilterDescriptor {
    /// rgb' = rgb · 2^EV in linear light: an exact photographic stop.
    static let exposureAdjust = FilterDescriptor(
        name: "exposureAdjust", coreImageName: "CIExposureAdjust", category: .colorAdjustment,
        summary: "Changes exposure by EV stops.",
        details: "rgb' = rgb · 2^EV (linear light).",
        parameters: [
            .inputImage,
            .number("ev", default: 0, identity: 0, "Exposure change in stops."),
        ]
    ) { args in
        let image = try args.image("image")
        let ev = args.number("ev")
        guard ev != 0 else { return image }
        let k = Float(pow(2, ev))
        return image.applyingColor(ColorMatrix(r: [k, 0, 0, 0], g: [0, k, 0, 0], b: [0, 0, k, 0], a: [0, 0, 0, 1], bias: .zero))
    }
}
