extension FilterDescriptor {
    /// Per-pixel Gaussian blur of σ = radius·m, m = the mask's green channel (clamped
    /// 0…1). Computed from a stack of five clamped Gaussian blurs at σ = radius·k/4
    /// (k = 0…4), interpolated linearly in m; the extent is the input's.
    static let maskedVariableBlur = FilterDescriptor(
        name: "maskedVariableBlur", coreImageName: "CIMaskedVariableBlur", category: .blur,
        summary: "Blurs more where the mask is brighter (black sharp, white fully blurred).",
        details: "σ = radius·mask.green; blend of blurs at σ = radius·k/4, k = 0…4, linear in the mask value; edges clamped.",
        parameters: [
            .inputImage,
            ParameterDescriptor("mask", .image, "Where to blur: its green channel scales the radius."),
            .number("radius", default: 5, min: 0, max: 10000, identity: 0, "σ where the mask is white, pixels (at most 10000)."),
        ]
    ) { args in
        let image = try args.image("image"), mask = try args.image("mask"), radius = args.number("radius")
        guard radius > 0 else { return image }
        let extent = image.extent
        guard !extent.isInfinite else { throw LumenError.invalidValue(filter: "maskedVariableBlur", key: "image", reason: "needs a finite extent") }
        let clamped = image.clampedToExtent()
        let levels = [image] + (1...4).map { clamped.applyingGaussianBlur(sigma: radius * Double($0) / 4).cropped(to: extent) }
        return VariableBlurKernel(bounds: extent).apply(to: levels + [mask])
    }
}

/// Picks, per pixel, between blur levels by the mask's green channel.
struct VariableBlurKernel: ImageKernel {
    /// The input image's extent.
    let bounds: Rect

    var name: String { "maskedVariableBlur" }
    func extent(inputs: [Rect]) -> Rect { bounds }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect, levels = inputs.count - 1, mask = inputs[levels]
        let top = Float(levels - 1)
        for y in r.y..<r.maxY {
            let out = output.row(y), m = mask.row(y, from: r.x)
            for i in 0..<r.width {
                let position = min(max(m[i].y, 0), 1) * top
                let lower = min(Int(position), levels - 2), f = position - Float(lower)
                let a = inputs[lower].row(y, from: r.x)[i], b = inputs[lower + 1].row(y, from: r.x)[i]
                out[i] = a + (b - a) * f
            }
        }
    }
}
