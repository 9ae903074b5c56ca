import LumenPlatform

extension FilterDescriptor {
    /// A lens's diffraction halo: three rings, one per colour channel, each a Gaussian
    /// profile exp(−((d − R_c)/(haloWidth/2))²) around radius R_c = haloRadius + (c − 1)·
    /// (1 − haloOverlap)·haloWidth/2 (red outside, blue inside: overlap 1 makes them
    /// coincide), modulated around the circle by striations 1 + strength·contrast·
    /// sin(37θ + 2πt)·sin(11θ − 2πt) (clamped at 0), tinted by `color`; alpha is the
    /// brightest channel. Infinite extent, meant to be composited over a photo.
    static let lenticularHaloGenerator = FilterDescriptor(
        name: "lenticularHaloGenerator", coreImageName: "CILenticularHaloGenerator", category: .generator,
        summary: "A rainbow halo ring, as a lens flare shows.",
        details: "Per channel c: exp(−((d − R_c)/(w/2))²), R_c = haloRadius + (c − 1)(1 − overlap)·w/2; × striations; × color.",
        parameters: [
            .point("center", default: [150, 150], "Centre of the halo."),
            .color("color", default: Color(red: 1, green: 0.9, blue: 0.8), "Tint of the halo."),
            .number("haloRadius", .distance, default: 70, min: 0, max: 1e6, "Radius of the ring."),
            .number("haloWidth", .distance, default: 87, min: 0, max: 1e6, "Thickness of the ring."),
            .number("haloOverlap", default: 0.77, min: 0, max: 1, "How much the colour rings overlap (1: fully)."),
            .number("striationStrength", default: 0.5, min: 0, max: 10, "Strength of the radial striations."),
            .number("striationContrast", default: 1, min: 0, max: 10, "Contrast of the striations."),
            .number("time", default: 0, min: 0, max: 1, "Animates the striations."),
        ]
    ) { args in
        let c = args.point("center")
        return LenticularHalo(center: SIMD2(c.x, c.y), color: args.color("color").linearStraight, radius: args.number("haloRadius"),
                              width: args.number("haloWidth"), overlap: args.number("haloOverlap"),
                              striation: args.number("striationStrength") * args.number("striationContrast"), time: args.number("time")).apply()
    }
}

struct LenticularHalo: PixelGenerator {
    let center: SIMD2<Double>
    let color: SIMD4<Float>
    let radius: Double
    let width: Double
    let overlap: Double
    let striation: Double
    let time: Double
    var name: String { "lenticularHaloGenerator" }
    var isOpaque: Bool { false }

    static func value(_ d: SIMD2<Double>, center: SIMD2<Double>, radius: Double, width: Double, overlap: Double, striation: Double, time: Double) -> SIMD3<Double> {
        let v = d - center, r = (v * v).sum().squareRoot(), half = max(width / 2, 1e-9)
        let theta = atan2(v.y, v.x)
        let s = max(0, 1 + striation * sin(37 * theta + 2 * .pi * time) * sin(11 * theta - 2 * .pi * time))
        let shift = (1 - overlap) * half
        func ring(_ k: Double) -> Double { let t = (r - (radius + k * shift)) / half; return exp(-t * t) * s }
        return SIMD3(ring(1), ring(0), ring(-1))
    }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        for i in 0..<count {
            let v = Self.value(SIMD2(Double(x + i) + 0.5, Double(y) + 0.5), center: center, radius: radius, width: width,
                               overlap: overlap, striation: striation, time: time)
            let rgb = SIMD3(Float(v.x) * color.x, Float(v.y) * color.y, Float(v.z) * color.z)
            let a = min(1, max(rgb.x, rgb.y, rgb.z))
            row[i] = SIMD4(min(rgb.x, a), min(rgb.y, a), min(rgb.z, a), a)
        }
    }
}
