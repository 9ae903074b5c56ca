extension FilterDescriptor {
    /// out = in + intensity·(in − G_σ(in)) on premultiplied linear RGBA, σ = radius (the
    /// blur reads the image clamped at its edges, so borders get no dark halo); extent = input's.
    static let unsharpMask = FilterDescriptor(
        name: "unsharpMask", coreImageName: "CIUnsharpMask", category: .sharpen,
        summary: "Sharpens by adding back the difference to a Gaussian blur.",
        details: "out = in + intensity·(in − G_σ(in)), σ = radius, premultiplied linear; edges clamped for the blur.",
        parameters: [
            .inputImage,
            .number("radius", .distance, default: 2.5, min: 0, max: 1000, identity: 0, "σ of the blur, in pixels."),
            .number("intensity", default: 0.5, min: 0, max: 100, identity: 0, "How much of the difference is added."),
        ]
    ) { args in
        try sharpening(args, .unsharp(Float(args.number("intensity"))), sigma: args.number("radius"), skipIf: args.number("intensity") == 0)
    }

    /// ΔY = sharpness·(Y − G_σ(Y)), Y = Rec. 709 luma; rgb' = rgb + ΔY (each channel moves
    /// by the same amount, so hue and chroma stay); alpha unchanged. σ = radius.
    static let sharpenLuminance = FilterDescriptor(
        name: "sharpenLuminance", coreImageName: "CISharpenLuminance", category: .sharpen,
        summary: "Sharpens detail in luminance only, leaving color untouched.",
        details: "ΔY = sharpness·(Y − G_σ(Y)), σ = radius, Rec. 709 luma; rgb' = rgb + ΔY; alpha unchanged.",
        parameters: [
            .inputImage,
            .number("sharpness", default: 0.4, min: 0, max: 100, identity: 0, "How much luma detail is added."),
            .number("radius", .distance, default: 1.69, min: 0, max: 1000, identity: 0, "σ of the blur, in pixels."),
        ]
    ) { args in
        try sharpening(args, .luminance(Float(args.number("sharpness"))), sigma: args.number("radius"), skipIf: args.number("sharpness") == 0)
    }

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
        try sharpening(args, .bloom(Float(args.number("intensity"))), sigma: args.number("radius"), skipIf: args.number("intensity") == 0)
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
        try sharpening(args, .gloom(Float(args.number("intensity"))), sigma: args.number("radius"), skipIf: args.number("intensity") == 0)
    }

    static func sharpening(_ args: FilterArguments, _ mode: BlurCombine.Mode, sigma: Double, skipIf identity: Bool) throws -> Image {
        let image = try args.image("image")
        if identity { return image }
        let extent = image.extent
        let source = extent.isInfinite ? image : image.clampedToExtent()
        let blurred = source.applyingGaussianBlur(sigma: sigma)
        return BlurCombine(mode: mode).apply(to: [image, extent.isInfinite ? blurred : blurred.cropped(to: extent)])
    }
}

/// An image combined per pixel with its blurred copy (premultiplied in and out).
struct BlurCombine: ImageKernel {
    enum Mode: Hashable, Sendable { case unsharp(Float), luminance(Float), bloom(Float), gloom(Float) }
    let mode: Mode

    var name: String {
        switch mode {
        case .unsharp: return "unsharpMask"
        case .luminance: return "sharpenLuminance"
        case .bloom: return "bloom"
        case .gloom: return "gloom"
        }
    }

    func isOpaque(inputs: [Image]) -> Bool {
        if case .unsharp = mode { return false }
        return inputs[0].isOpaque
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x
        destination.forEachRow { y, row, count in
            let a = inputs[0].row(y, from: x), b = inputs[1].row(y, from: x)
            switch mode {
            case let .unsharp(k):
                for i in 0..<count { row[i] = a[i] + (a[i] - b[i]) * k }
            case let .luminance(k):
                for i in 0..<count {
                    let d = k * ((a[i] - b[i]) * lumaWeights).sum()
                    row[i] = a[i] + SIMD4(d, d, d, 0)
                }
            case let .bloom(k):
                for i in 0..<count { let g = b[i] * k; row[i] = a[i] + g - a[i] * g }
            case let .gloom(k):
                for i in 0..<count {
                    let p = a[i], m = SIMD4<Float>(repeating: 1 - k) + b[i] * k
                    row[i] = SIMD4(p.x * m.x, p.y * m.y, p.z * m.z, p.w)
                }
            }
        }
    }
}
