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
        try blurCombined(args, .unsharp(Float(args.number("intensity"))), sigma: args.number("radius"), skipIf: args.number("intensity") == 0)
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
        try blurCombined(args, .luminance(Float(args.number("sharpness"))), sigma: args.number("radius"), skipIf: args.number("sharpness") == 0)
    }
}
