extension FilterDescriptor {
    private static let scaleParameters: [ParameterDescriptor] = [
        .number("scale", default: 1, min: 0, identity: 1, "Vertical scale factor."),
        .number("aspectRatio", default: 1, min: 0, identity: 1, "Extra horizontal scale factor."),
    ]

    /// Lanczos-3, separable, antialiased when shrinking (kernel widened by 1/scale);
    /// output size (round(W·scale·aspectRatio), round(H·scale)); samples outside the
    /// source clamp to its edge. JPEG sources shrink in the DCT first when scale ≤ ½.
    static let lanczosScale = FilterDescriptor(
        name: "lanczosScale", coreImageName: "CILanczosScaleTransform", category: .geometryAdjustment,
        summary: "High-quality Lanczos-3 resampling, mainly for shrinking.",
        details: "Output size (round(W·scale·aspectRatio), round(H·scale)); kernel widened by 1/scale when shrinking; edges clamp.",
        parameters: [.inputImage] + scaleParameters
    ) { args in
        try args.image("image").applyingLanczosScale(args.number("scale"), aspectRatio: args.number("aspectRatio"), filter: "lanczosScale")
    }

    static let bicubicScale = FilterDescriptor(
        name: "bicubicScale", coreImageName: "CIBicubicScaleTransform", category: .geometryAdjustment,
        summary: "Resampling with a Mitchell–Netravali cubic (B, C).",
        details: "Same sizes as lanczosScale; B = 0, C = 0.75 by default (Catmull–Rom is C = 0.5, Mitchell B = C = 1/3).",
        parameters: [.inputImage] + scaleParameters + [
            .number("b", default: 0, min: 0, max: 1, "Cubic parameter B (blur)."),
            .number("c", default: 0.75, min: 0, max: 1, "Cubic parameter C (ringing)."),
        ]
    ) { args in
        let image = try args.image("image")
        let (scale, aspect) = (args.number("scale"), args.number("aspectRatio"))
        guard scale > 0, aspect > 0 else { throw LumenError.invalidValue(filter: "bicubicScale", key: "scale", reason: "must be greater than 0") }
        if scale == 1 && aspect == 1 { return image }
        guard !image.extent.isInfinite else { throw LumenError.invalidValue(filter: "bicubicScale", key: "image", reason: "needs a finite extent") }
        try ScaleKernel.checkSize(of: image.extent, scaleX: scale * aspect, scaleY: scale, filter: "bicubicScale")
        return ScaleKernel(scaleX: scale * aspect, scaleY: scale, kernel: .cubic(b: args.number("b"), c: args.number("c"))).apply(to: [image])
    }
}

extension Image {
    /// Lanczos-3 scaling (see `lanczosScale`).
    public func applyingLanczosScale(_ scale: Double, aspectRatio: Double = 1) throws -> Image {
        try applyingLanczosScale(scale, aspectRatio: aspectRatio, filter: "lanczosScale")
    }

    func applyingLanczosScale(_ scale: Double, aspectRatio: Double, filter: String) throws -> Image {
        guard scale > 0, aspectRatio > 0 else { throw LumenError.invalidValue(filter: filter, key: "scale", reason: "must be greater than 0") }
        if scale == 1 && aspectRatio == 1 { return self }
        guard !extent.isInfinite else { throw LumenError.invalidValue(filter: filter, key: "image", reason: "needs a finite extent (crop it first)") }
        try ScaleKernel.checkSize(of: extent, scaleX: scale * aspectRatio, scaleY: scale, filter: filter)
        return ScaleKernel(scaleX: scale * aspectRatio, scaleY: scale, kernel: .lanczos3).apply(to: [self])
    }
}
