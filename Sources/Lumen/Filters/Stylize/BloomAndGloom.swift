extension FilterDescriptor {
    /// A glow: the blurred copy, scaled by k = intensity, screened over the image:
    /// p' = p + k·G_σ(p) − p·k·G_σ(p) on every premultiplied channel (alpha too, so glow
    /// spreads onto transparent surroundings; opaque images stay opaque). σ = radius.
    static let bloom = FilterDescriptor(
        name: "bloom", coreImageName: "CIBloom", category: .stylize,
        summary: "Softens edges and makes bright areas glow.",
        details: "p' = p + k·G − p·k·G per premultiplied channel (screen of the blur), k = intensity, G = G_σ(p), σ = radius.",
        parameters: [
            .inputImage,
            .number("radius", .distance, default: 10, min: 0, max: 1000, "σ of the glow, in pixels."),
            .number("intensity", default: 0.5, min: 0, max: 1, identity: 0, "Strength of the glow."),
        ]
    ) { args in
        try blurCombined(args, .bloom(Float(args.number("intensity"))), sigma: args.number("radius"), skipIf: args.number("intensity") == 0)
    }

    /// The opposite of bloom: rgb' = rgb·mix(1, G_σ(rgb), k) (multiplied by the blurred
    /// copy), which dulls highlights most; k = intensity, σ = radius; alpha unchanged.
    static let gloom = FilterDescriptor(
        name: "gloom", coreImageName: "CIGloom", category: .stylize,
        summary: "Dulls the highlights with a blurred copy.",
        details: "rgb' = rgb·(1 − intensity + intensity·G_σ(rgb)), σ = radius; alpha unchanged.",
        parameters: [
            .inputImage,
            .number("radius", .distance, default: 10, min: 0, max: 1000, "σ of the blur, in pixels."),
            .number("intensity", default: 0.5, min: 0, max: 1, identity: 0, "Strength of the effect."),
        ]
    ) { args in
        try blurCombined(args, .gloom(Float(args.number("intensity"))), sigma: args.number("radius"), skipIf: args.number("intensity") == 0)
    }
}
