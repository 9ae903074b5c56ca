import LumenPlatform

extension FilterDescriptor {
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
