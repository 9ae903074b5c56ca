import LumenPlatform

extension FilterDescriptor {
    /// Luma-guided smoothing, then luminance sharpening: each pixel becomes the weighted
    /// mean of its 3 × 3 neighbours, weight max(0, 1 − |ΔY|/noiseLevel) (ΔY the luma
    /// difference to the centre, so edges are not averaged across), followed by
    /// sharpenLuminance with σ = 1 and `sharpness`.
    static let noiseReduction = FilterDescriptor(
        name: "noiseReduction", coreImageName: "CINoiseReduction", category: .blur,
        summary: "Smooths noise while keeping edges, then restores detail.",
        details: "3×3 mean weighted by max(0, 1 − |ΔY|/noiseLevel), then sharpenLuminance(σ 1, sharpness).",
        parameters: [.inputImage,
                     .number("noiseLevel", default: 0.02, min: 0, max: 1, "Luma differences below this count as noise."),
                     .number("sharpness", default: 0.4, min: 0, max: 10, "Luminance sharpening afterwards.")]
    ) { args in
        let image = try args.image("image")
        let level = args.number("noiseLevel")
        let smooth = level > 0 ? LumaGuidedMean(level: Float(level)).apply(to: [image]) : image
        let k = args.number("sharpness")
        guard k > 0 else { return smooth }
        return try FilterDescriptor.sharpenLuminance.apply(["image": .image(smooth), "sharpness": .number(k), "radius": .number(1)])
    }
}

struct LumaGuidedMean: ImageKernel {
    let level: Float
    var name: String { "noiseReductionMean" }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: 1, dy: 1) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, s = inputs[0]
        for y in r.y..<r.maxY {
            let out = destination.row(y)
            for i in 0..<r.width {
                let x = r.x + i, centre = s.pixel(x, y), yc = (centre * lumaWeights).sum()
                var sum = SIMD4<Float>.zero, total: Float = 0
                for dy in -1...1 { for dx in -1...1 {
                    let p = s.pixel(x + dx, y + dy)
                    let w = max(0, 1 - abs((p * lumaWeights).sum() - yc) / level)
                    sum += p * w
                    total += w
                } }
                out[i] = total > 0 ? sum / total : centre
            }
        }
    }
}
