import LumenPlatform

extension FilterDescriptor {
    /// Displaces each pixel by the displacement image: the output at d samples
    /// d + scale·(r − ½, g − ½) of the displacement image's unpremultiplied colour there
    /// (clamped 0…1, so the reach is scale/2).
    static let displacementDistortion = FilterDescriptor(
        name: "displacementDistortion", coreImageName: "CIDisplacementDistortion", category: .distortionEffect,
        summary: "Moves each pixel by the red and green of a second image.",
        details: "out(d) = in(d + scale·(clamp(r) − ½, clamp(g) − ½)), r, g of the displacement image at d (unpremultiplied).",
        parameters: [.inputImage, ParameterDescriptor("displacementImage", .image, "Red and green give the offsets (½ = none)."),
                     .number("scale", .distance, default: 50, min: -1e4, max: 1e4, identity: 0, "Offset at full red or green, pixels.")]
    ) { args in
        let image = try args.image("image"), scale = args.number("scale")
        if scale == 0 { return image }
        return Displacement(mode: .map(scale: scale)).apply(to: [image, try args.image("displacementImage")])
    }

    /// A textured-glass look: the output at d samples d + scale·∇T, ∇T the central
    /// difference gradient of the texture's Rec. 709 luma at d − center (the texture is
    /// read relative to the centre), each component clamped to ±scale/2.
    static let glassDistortion = FilterDescriptor(
        name: "glassDistortion", coreImageName: "CIGlassDistortion", category: .distortionEffect,
        summary: "Distorts the image as if seen through textured glass.",
        details: "out(d) = in(d + clamp(scale·∇luma(texture)(d − center), ±scale/2)), central differences.",
        parameters: [.inputImage, ParameterDescriptor("textureImage", .image, "The glass's texture (its brightness is the glass's height)."),
                     .point("center", default: [150, 150], "Where the texture's origin sits."),
                     .number("scale", .distance, default: 200, min: 0, max: 1e4, identity: 0, "Strength of the refraction.")]
    ) { args in
        let image = try args.image("image"), scale = args.number("scale")
        if scale == 0 { return image }
        let c = args.point("center")
        let texture = try args.image("textureImage").transformed(by: AffineTransform(translationX: c.x, y: c.y))
        return Displacement(mode: .gradient(scale: scale)).apply(to: [image, texture])
    }
}

/// Displacement by a second image: a map of offsets, or the gradient of a texture.
struct Displacement: ImageKernel {
    enum Mode: Hashable, Sendable { case map(scale: Double), gradient(scale: Double) }
    let mode: Mode
    var name: String {
        if case .map = mode { return "displacementDistortion" }
        return "glassDistortion"
    }
    private var reach: Int {
        switch mode {
        case let .map(scale), let .gradient(scale): return Int(min(1e6, Swift.abs(scale) / 2).rounded(.up)) + 2
        }
    }

    func extent(inputs: [Rect]) -> Rect { inputs[0] }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        if index == 0 { return rect.outset(dx: reach, dy: reach) }
        if case .gradient = mode { return rect.outset(dx: 1, dy: 1) }
        return rect
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, image = inputs[0], other = inputs[1]
        for y in r.y..<r.maxY {
            let out = destination.row(y)
            for i in 0..<r.width {
                let x = r.x + i
                var offset: SIMD2<Double>
                switch mode {
                case let .map(scale):
                    let p = other.pixel(x, y)
                    let u = p.w > 0 ? SIMD2(Double(p.x / p.w), Double(p.y / p.w)) : SIMD2(0.5, 0.5)
                    offset = (SIMD2(min(1, max(0, u.x)), min(1, max(0, u.y))) - 0.5) * scale
                case let .gradient(scale):
                    func luma(_ px: Int, _ py: Int) -> Double { Double((other.pixelOrClear(px, py) * lumaWeights).sum()) }
                    let g = SIMD2(luma(x + 1, y) - luma(x - 1, y), luma(x, y + 1) - luma(x, y - 1)) / 2
                    let limit = scale / 2
                    offset = SIMD2(min(limit, max(-limit, g.x * scale)), min(limit, max(-limit, g.y * scale)))
                }
                let s = SIMD2(Double(x) + 0.5, Double(y) + 0.5) + offset
                out[i] = image.bilinear(s.x - 0.5, s.y - 0.5)
            }
        }
    }
}
