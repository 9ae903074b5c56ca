import LumenPlatform

extension FilterDescriptor {
    /// Local exposure by brightness: with B the Rec. 709 luma (blurred with σ = radius
    /// when radius > 0, so whole regions move together) and e = sRGB-encoded B, each
    /// pixel's colour is scaled by 2^Δ, Δ = 2·shadowAmount·(1 − e)² − 2·(1 − highlightAmount)·e²
    /// stops: shadowAmount > 0 lifts dark areas, highlightAmount < 1 pulls bright ones
    /// down; (shadowAmount 0, highlightAmount 1) changes nothing. Alpha unchanged.
    static let highlightShadowAdjust = FilterDescriptor(
        name: "highlightShadowAdjust", coreImageName: "CIHighlightShadowAdjust", category: .stylize,
        summary: "Brightens shadows and recovers highlights.",
        details: "e = sRGB(luma, blurred by radius); rgb·2^Δ, Δ = 2·shadowAmount·(1 − e)² − 2·(1 − highlightAmount)·e² stops.",
        parameters: [
            .inputImage,
            .number("radius", .distance, default: 0, min: 0, max: 1000, "σ of the neighbourhood brightness; 0 uses each pixel's own."),
            .number("shadowAmount", default: 0, min: -1, max: 1, identity: 0, "Lifts (> 0) or deepens (< 0) the shadows."),
            .number("highlightAmount", default: 1, min: 0, max: 1, identity: 1, "Below 1 darkens the highlights."),
        ]
    ) { args in
        let image = try args.image("image")
        let shadows = Float(args.number("shadowAmount")), highlights = Float(args.number("highlightAmount"))
        guard shadows != 0 || highlights != 1 else { return image }
        let radius = args.number("radius")
        let base = radius > 0 ? (image.extent.isInfinite ? image : image.clampedToExtent()).applyingGaussianBlur(sigma: radius).cropped(to: image.extent) : image
        return ShadowHighlight(shadows: shadows, highlights: highlights).apply(to: [image, base])
    }
}

struct ShadowHighlight: ImageKernel {
    let shadows: Float
    let highlights: Float
    var name: String { "highlightShadowAdjust" }
    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x
        destination.forEachRow { y, row, count in
            let p = inputs[0].row(y, from: x), b = inputs[1].row(y, from: x)
            for i in 0..<count {
                let q = b[i]
                let luma = q.w > 0 ? (q * lumaWeights).sum() / q.w : 0
                let e = Float(TransferFunction.srgb(fromLinear: Double(min(1, max(0, luma)))))
                let delta = 2 * shadows * (1 - e) * (1 - e) - 2 * (1 - highlights) * e * e
                let gain = exp2(delta)
                row[i] = SIMD4(p[i].x * gain, p[i].y * gain, p[i].z * gain, p[i].w)
            }
        }
    }
}
