import LumenPlatform

extension FilterDescriptor {
    /// Escher's Droste spiral (Lenstra's construction). The inset rectangle (the two
    /// points are opposite corners) is where the picture recurs: r₁ = half its shorter
    /// side, r₂ = the distance from its centre c to the nearest edge of the image, so the
    /// picture repeats with ratio R = r₂/r₁ and L = ln R. For the output at d,
    /// w = ln((d − c)/(r₁·zoom)) (complex), s = w·(periodicity − i·strands·L/2π) + i·rotation,
    /// Re s wrapped into [0, L), and the source is c + r₁·e^s. Going once round the centre
    /// moves `strands` turns of the spiral inwards; strands 0 gives plain nested copies.
    /// Output extent: the image's.
    static let droste = FilterDescriptor(
        name: "droste", coreImageName: "CIDroste", category: .distortionEffect,
        summary: "Recursively draws the image inside itself along a spiral (the Droste effect).",
        details: "s = ln((d − c)/(r₁·zoom))·(periodicity − i·strands·ln(r₂/r₁)/2π) + i·rotation, Re s mod ln(r₂/r₁); source c + r₁·eˢ; r₁ = half the inset's shorter side, r₂ = c's distance to the image's edge.",
        parameters: [
            .inputImage,
            .point("insetPoint0", default: [200, 200], "One corner of the inset rectangle where the picture recurs."),
            .point("insetPoint1", default: [400, 400], "The opposite corner."),
            .number("strands", default: 1, min: -10, max: 10, "Spiral arms: turns inward per turn around the centre (whole numbers join seamlessly)."),
            .number("periodicity", .integer, default: 1, min: 1, max: 10, "Copies of the picture per turn."),
            .number("rotation", .angle, default: 0, min: -1e4, max: 1e4, "Turns the picture around the centre, radians."),
            .number("zoom", default: 1, min: 0.01, max: 100, "Magnification of the whole spiral."),
        ]
    ) { args in
        let image = try args.image("image"), e = image.extent
        guard !e.isInfinite, e.width >= 1, e.height >= 1 else {
            throw LumenError.invalidValue(filter: "droste", key: "image", reason: "needs a finite extent (the picture recurs inside its own edges)")
        }
        let p0 = args.point("insetPoint0"), p1 = args.point("insetPoint1")
        let c = SIMD2((p0.x + p1.x) / 2, (p0.y + p1.y) / 2)
        let r1 = min(Swift.abs(p1.x - p0.x), Swift.abs(p1.y - p0.y)) / 2
        let r2 = min(c.x - e.minX, e.maxX - c.x, c.y - e.minY, e.maxY - c.y)
        guard r1 >= 0.5 else { throw LumenError.invalidValue(filter: "droste", key: "insetPoint1", reason: "the inset rectangle must be at least a pixel each way") }
        guard r2 > r1 * 1.01 else {
            throw LumenError.invalidValue(filter: "droste", key: "insetPoint0", reason: "the inset rectangle must lie well inside the image (its centre \(r2 < 0 ? "is outside" : "is too close to the edge"))")
        }
        return DrosteMapping(center: c, r1: r1, period: log(r2 / r1), strands: args.number("strands"),
                             periodicity: args.number("periodicity").rounded(), rotation: args.number("rotation"),
                             zoom: args.number("zoom"), bounds: e).apply(to: image)
    }

}

struct DrosteMapping: WarpMapping {
    let center: SIMD2<Double>
    let r1: Double, period: Double
    let strands: Double, periodicity: Double, rotation: Double, zoom: Double
    let bounds: Rect
    var name: String { "droste" }

    func extent(input: Rect) -> Rect { bounds }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let v = (d - center) / (r1 * zoom)
        let r2 = (v * v).sum()
        guard r2 > 1e-24 else { return nil }
        // w = ln v; s = w·(p − i·q) + i·rotation with q = strands·L/2π.
        let wr = 0.5 * log(r2), wi = atan2(v.y, v.x)
        let p = periodicity, q = strands * period / (2 * .pi)
        var sr = wr * p + wi * q
        let si = wi * p - wr * q + rotation
        sr -= period * (sr / period).rounded(.down)
        let m = r1 * exp(sr)
        return center + SIMD2(cos(si), sin(si)) * m
    }
}
