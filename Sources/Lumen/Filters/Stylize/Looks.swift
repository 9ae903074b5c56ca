import Foundation

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

extension FilterDescriptor {
    /// A spotlight on a flat surface (z = 0, normal up): for the point P, L = unit vector
    /// to lightPosition, S = unit vector from the light towards lightPointsAt; the light
    /// reaching P is brightness·color·max(0, −L·S)^(1/concentration)·L.z, which multiplies
    /// the image (alpha kept).
    static let spotLight = FilterDescriptor(
        name: "spotLight", coreImageName: "CISpotLight", category: .stylize,
        summary: "Lights the image with a spotlight from a 3D position.",
        details: "rgb·brightness·color·max(0, −L·S)^(1/concentration)·L.z; L to the light, S the spot's direction.",
        parameters: [.inputImage,
                     ParameterDescriptor("lightPosition", .vector, default: .vector([400, 600, 150]), "x, y, z of the light (z above the image)."),
                     ParameterDescriptor("lightPointsAt", .vector, default: .vector([200, 200, 0]), "x, y, z the light aims at."),
                     .number("brightness", default: 3, min: 0, max: 1000, "Strength of the light."),
                     .number("concentration", default: 0.1, min: 0.001, max: 100, "Smaller is a narrower beam."),
                     .color("color", default: .white, "Color of the light.")]
    ) { args in
        let position = args.vector("lightPosition"), target = args.vector("lightPointsAt")
        guard position.count == 3, target.count == 3 else {
            throw LumenError.invalidValue(filter: "spotLight", key: position.count == 3 ? "lightPointsAt" : "lightPosition", reason: "expected x, y, z")
        }
        let direction = SIMD3(target[0] - position[0], target[1] - position[1], target[2] - position[2])
        guard (direction * direction).sum() > 0 else { throw LumenError.invalidValue(filter: "spotLight", key: "lightPointsAt", reason: "must differ from lightPosition") }
        let c = args.color("color").linearStraight
        return SpotLight(position: SIMD3(position[0], position[1], position[2]), direction: direction / (direction * direction).sum().squareRoot(),
                         brightness: args.number("brightness"), exponent: 1 / args.number("concentration"),
                         color: SIMD3(Double(c.x), Double(c.y), Double(c.z))).apply(to: [try args.image("image")])
    }
}

struct SpotLight: ImageKernel {
    let position: SIMD3<Double>
    let direction: SIMD3<Double>
    let brightness: Double
    let exponent: Double
    let color: SIMD3<Double>
    var name: String { "spotLight" }

    static func light(at p: SIMD2<Double>, position: SIMD3<Double>, direction: SIMD3<Double>, brightness: Double, exponent: Double) -> Double {
        var l = position - SIMD3(p.x, p.y, 0)
        let n = (l * l).sum().squareRoot()
        guard n > 0 else { return 0 }
        l /= n
        let spot = max(0, -(l * direction).sum())
        return brightness * pow(spot, exponent) * max(0, l.z)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x0 = destination.rect.x
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: x0)
            for i in 0..<count {
                let k = Self.light(at: SIMD2(Double(x0 + i) + 0.5, Double(y) + 0.5), position: position, direction: direction,
                                   brightness: brightness, exponent: exponent)
                let g = SIMD4<Float>(Float(k * color.x), Float(k * color.y), Float(k * color.z), 1)
                row[i] = source[i] * g
            }
        }
    }
}
