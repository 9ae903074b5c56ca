import LumenPlatform

extension FilterDescriptor {
    /// A comic look: colours posterized to 4 levels, with black ink where the Sobel
    /// magnitude m of the (σ 1.5) blurred luma is high: ink = clamp((m − 0.04)/0.06, 0, 1),
    /// out = posterized·(1 − ink). Alpha kept.
    static let comicEffect = FilterDescriptor(
        name: "comicEffect", coreImageName: "CIComicEffect", category: .stylize,
        summary: "Posterized colors with black ink outlines, like a comic.",
        details: "posterize(4)·(1 − ink), ink = clamp((m − 0.04)/0.06), m = Sobel magnitude of the blurred luma.",
        parameters: [.inputImage]
    ) { args in
        let image = try args.image("image")
        let flat = try FilterDescriptor.colorPosterize.apply(["image": .image(image), "levels": .number(4)])
        let lines = lineMask(image, sigma: 1.5)
        return InkLines(mode: .comic).apply(to: [flat, lines])
    }

    /// A woodcut: black where the Sobel magnitude m of the luma blurred with σ = radius
    /// is high, white elsewhere: grey = 1 − clamp((m − 0.01)/0.03, 0, 1). Alpha kept.
    static let edgeWork = FilterDescriptor(
        name: "edgeWork", coreImageName: "CIEdgeWork", category: .stylize,
        summary: "Black edges on white, like a woodblock print.",
        details: "grey = 1 − clamp((m − 0.01)/0.03), m = Sobel magnitude of the luma blurred by radius.",
        parameters: [.inputImage, .number("radius", .distance, default: 3, min: 0, max: 1000, "σ of the smoothing before the edges.")]
    ) { args in
        let image = try args.image("image")
        return InkLines(mode: .woodcut).apply(to: [image, lineMask(image, sigma: args.number("radius"))])
    }

    /// A line drawing: noise reduction (nrNoiseLevel, nrSharpness), Sobel magnitude of
    /// the luma × edgeIntensity, then alpha = clamp((m − threshold)·contrast, 0, 1) of
    /// black ink; transparent elsewhere.
    static let lineOverlay = FilterDescriptor(
        name: "lineOverlay", coreImageName: "CILineOverlay", category: .stylize,
        summary: "Black outlines of the image's edges on transparent.",
        details: "m = edgeIntensity·Sobel magnitude of the denoised luma; α = clamp((m − threshold)·contrast); black.",
        parameters: [.inputImage,
                     .number("nrNoiseLevel", default: 0.07, min: 0, max: 1, "Noise reduction level."),
                     .number("nrSharpness", default: 0.71, min: 0, max: 10, "Noise reduction sharpness."),
                     .number("edgeIntensity", default: 1, min: 0, max: 200, "Gain of the edges."),
                     .number("threshold", default: 0.1, min: 0, max: 1, "Edges weaker than this vanish."),
                     .number("contrast", default: 50, min: 0.25, max: 200, "Steepness of the transition to ink.")]
    ) { args in
        let image = try args.image("image")
        let clean = try FilterDescriptor.noiseReduction.apply(["image": .image(image), "noiseLevel": .number(args.number("nrNoiseLevel")),
                                                               "sharpness": .number(args.number("nrSharpness"))])
        let lines = lineMask(clean.cropped(to: image.extent), sigma: 0)
        return InkLines(mode: .overlay(intensity: Float(args.number("edgeIntensity")), threshold: Float(args.number("threshold")),
                                       contrast: Float(args.number("contrast")))).apply(to: [image, lines])
    }

    /// The Sobel magnitude of the (blurred) luma, in red.
    static func lineMask(_ image: Image, sigma: Double) -> Image {
        let luma = image.applyingColor(LumaOperation(perceptual: false))
        let smooth = sigma > 0 ? (image.extent.isInfinite ? luma : luma.clampedToExtent()).applyingGaussianBlur(sigma: sigma).cropped(to: image.extent) : luma
        return EdgeKernel(mode: .edges(1)).apply(to: [smooth])
    }
}

/// Ink from an edge-magnitude mask (its red) over an image.
struct InkLines: ImageKernel {
    enum Mode: Hashable, Sendable { case comic, woodcut, overlay(intensity: Float, threshold: Float, contrast: Float) }
    let mode: Mode
    var name: String {
        switch mode {
        case .comic: return "comicEffect"
        case .woodcut: return "edgeWork"
        case .overlay: return "lineOverlay"
        }
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x
        destination.forEachRow { y, row, count in
            let image = inputs[0].row(y, from: x), mask = inputs[1].row(y, from: x)
            for i in 0..<count {
                let p = image[i], m = mask[i].x
                switch mode {
                case .comic:
                    let ink = min(1, max(0, (m - 0.04) / 0.06))
                    row[i] = SIMD4(p.x * (1 - ink), p.y * (1 - ink), p.z * (1 - ink), p.w)
                case .woodcut:
                    let g = (1 - min(1, max(0, (m - 0.01) / 0.03))) * p.w
                    row[i] = SIMD4(g, g, g, p.w)
                case let .overlay(k, threshold, contrast):
                    let a = min(1, max(0, (m * k - threshold) * contrast)) * p.w
                    row[i] = SIMD4(0, 0, 0, a)
                }
            }
        }
    }
}

