import Foundation

extension FilterDescriptor {
    /// Nine-slice stretching: the extent grows by growAmount; left of breakpoint0.x and
    /// below breakpoint0.y nothing moves, right of breakpoint1.x and above breakpoint1.y
    /// the image moves out by growAmount, and the middle band is stretched linearly
    /// between (corners stay sharp, like a resizable button image).
    static let ninePartStretched = FilterDescriptor(
        name: "ninePartStretched", coreImageName: "CINinePartStretched", category: .distortionEffect,
        summary: "Grows an image by stretching its middle, keeping the corners.",
        details: "Per axis: x < b0 unchanged; x > b1 + grow samples x − grow; between, b0 + (x − b0)·(b1 − b0)/(b1 − b0 + grow).",
        parameters: [.inputImage,
                     .point("breakpoint0", default: [50, 50], "Lower-left end of the stretched band."),
                     .point("breakpoint1", default: [150, 150], "Upper-right end of the stretched band."),
                     ParameterDescriptor("growAmount", .offset, default: .vector([100, 100]), "How much wider and taller the result is.")]
    ) { args in try ninePart(args, tiled: false, flipY: false) }

    /// As ninePartStretched, but the middle band repeats (tiles) instead of stretching;
    /// with flipYTiles every other vertical repeat is mirrored.
    static let ninePartTiled = FilterDescriptor(
        name: "ninePartTiled", coreImageName: "CINinePartTiled", category: .distortionEffect,
        summary: "Grows an image by repeating its middle, keeping the corners.",
        details: "Per axis: the band b0…b1 repeats over b0…b1 + grow; outside it as ninePartStretched; flipYTiles mirrors odd rows.",
        parameters: [.inputImage,
                     .point("breakpoint0", default: [50, 50], "Lower-left end of the repeated band."),
                     .point("breakpoint1", default: [150, 150], "Upper-right end of the repeated band."),
                     ParameterDescriptor("growAmount", .offset, default: .vector([100, 100]), "How much wider and taller the result is."),
                     .number("flipYTiles", .boolean, default: 1, min: 0, max: 1, "1 mirrors every other row of tiles.")]
    ) { args in try ninePart(args, tiled: true, flipY: args.number("flipYTiles") >= 0.5) }

    static func ninePart(_ args: FilterArguments, tiled: Bool, flipY: Bool) throws -> Image {
        let image = try args.image("image"), b0 = args.point("breakpoint0"), b1 = args.point("breakpoint1"), g = args.vector("growAmount")
        guard b1.x > b0.x, b1.y > b0.y else {
            throw LumenError.invalidValue(filter: tiled ? "ninePartTiled" : "ninePartStretched", key: "breakpoint1", reason: "must be above and right of breakpoint0")
        }
        guard g[0] >= 0, g[1] >= 0 else {
            throw LumenError.invalidValue(filter: tiled ? "ninePartTiled" : "ninePartStretched", key: "growAmount", reason: "must not be negative")
        }
        return NinePart(low: SIMD2(b0.x, b0.y), high: SIMD2(b1.x, b1.y), grow: SIMD2(g[0], g[1]), tiled: tiled, flipY: flipY).apply(to: image)
    }

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

    /// A clear capsule (the segment point0–point1 with `radius`) refracting what is
    /// behind it: at distance t·radius from the segment (t < 1) the output samples at
    /// distance radius·sin(asin(t)/refraction) from the same point of the segment.
    static let glassLozenge = FilterDescriptor(
        name: "glassLozenge", coreImageName: "CIGlassLozenge", category: .distortionEffect,
        summary: "A glass lozenge (capsule) that magnifies what is under it.",
        details: "t = distance to the segment / radius < 1: sample at radius·sin(asin(t)/refraction) along the same normal.",
        parameters: [.inputImage,
                     .point("point0", default: [150, 150], "One end of the lozenge's axis."),
                     .point("point1", default: [350, 150], "The other end."),
                     .number("radius", .distance, default: 100, min: 0, max: 1e6, "Half the lozenge's thickness."),
                     .number("refraction", default: 1.7, min: 1, max: 10, identity: 1, "Refractive index of the glass.")]
    ) { args in
        let image = try args.image("image")
        guard args.number("refraction") != 1, args.number("radius") > 0 else { return image }
        let p0 = args.point("point0"), p1 = args.point("point1")
        return Lozenge(a: SIMD2(p0.x, p0.y), b: SIMD2(p1.x, p1.y), radius: args.number("radius"), refraction: args.number("refraction")).apply(to: image)
    }

    /// Core Image's `clamped(to:)`: every pixel reads the nearest pixel of the rectangle
    /// (the rectangle's edges extend to infinity).
    static let clamp = FilterDescriptor(
        name: "clamp", coreImageName: "CIClamp", category: .tileEffect,
        summary: "Extends the edge pixels of a rectangle to infinity.",
        details: "out(x, y) = in(clamp(x, left, right − 1), clamp(y, bottom, top − 1)) in whole pixels; infinite extent.",
        parameters: [.inputImage, .reductionExtent]
    ) { args in
        let rect = PixelRect(covering: args.rect("extent"))
        guard !rect.isEmpty else { return .empty }
        return ClampToRect(rect: rect).apply(to: [try args.image("image")])
    }
}

struct NinePart: WarpMapping {
    let low: SIMD2<Double>
    let high: SIMD2<Double>
    let grow: SIMD2<Double>
    let tiled: Bool
    let flipY: Bool
    var name: String { tiled ? "ninePartTiled" : "ninePartStretched" }

    func extent(input: Rect) -> Rect {
        input.isInfinite ? input : Rect(x: input.minX, y: input.minY, width: input.width + grow.x, height: input.height + grow.y)
    }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        func axis(_ v: Double, _ i: Int) -> (Double, Bool) {
            let lo = low[i], hi = high[i], g = grow[i]
            if v < lo { return (v, false) }
            if v > hi + g { return (v - g, false) }
            let band = hi - lo
            if !tiled { return (lo + (v - lo) * band / (band + g), false) }
            let k = ((v - lo) / band).rounded(.down)
            return (lo + (v - lo - k * band), Swift.abs(k.truncatingRemainder(dividingBy: 2)) == 1)
        }
        let (x, _) = axis(d.x, 0)
        var (y, odd) = axis(d.y, 1)
        if flipY && odd { y = low.y + high.y - y }
        return SIMD2(x, y)
    }
}

struct Lozenge: WarpMapping {
    let a: SIMD2<Double>
    let b: SIMD2<Double>
    let radius: Double
    let refraction: Double
    var name: String { "glassLozenge" }
    func extent(input: Rect) -> Rect { input }
    var affectedArea: Rect? {
        Rect(x: min(a.x, b.x) - radius, y: min(a.y, b.y) - radius, width: Swift.abs(a.x - b.x) + 2 * radius, height: Swift.abs(a.y - b.y) + 2 * radius)
    }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let ab = b - a, length2 = (ab * ab).sum()
        let t = length2 > 0 ? min(1, max(0, ((d - a) * ab).sum() / length2)) : 0
        let q = a + ab * t, v = d - q, r = (v * v).sum().squareRoot()
        guard r < radius, r > 0 else { return d }
        return q + v * (radius * sin(asin(r / radius) / refraction) / r)
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

/// Reads the nearest pixel of `rect`.
struct ClampToRect: ImageKernel {
    let rect: PixelRect
    var name: String { "clamp" }
    func extent(inputs: [Rect]) -> Rect { .infinite }

    func regionOfInterest(for r: PixelRect, input index: Int) -> PixelRect {
        let x0 = min(max(r.x, rect.x), rect.maxX - 1), x1 = min(max(r.maxX - 1, rect.x), rect.maxX - 1)
        let y0 = min(max(r.y, rect.y), rect.maxY - 1), y1 = min(max(r.maxY - 1, rect.y), rect.maxY - 1)
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect
        for y in r.y..<r.maxY {
            let row = inputs[0].row(min(max(y, rect.y), rect.maxY - 1))
            let source = inputs[0].rect.x
            let out = destination.row(y)
            for i in 0..<r.width { out[i] = row[min(max(r.x + i, rect.x), rect.maxX - 1) - source] }
        }
    }
}
