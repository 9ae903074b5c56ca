import LumenPlatform

extension FilterDescriptor {
    /// color = mix(color1, color0, exp(−d²/(2σ²))) with σ = radius/3 (so the gradient has
    /// nearly reached color1 at `radius`); infinite extent.
    static let gaussianGradient = FilterDescriptor(
        name: "gaussianGradient", coreImageName: "CIGaussianGradient", category: .gradient,
        summary: "A soft spot fading from color0 at the centre to color1.",
        details: "mix(color1, color0, exp(−d²/(2σ²))), σ = radius/3; linear premultiplied interpolation; infinite.",
        parameters: [
            .point("center", default: [150, 150], "Centre of the spot."),
            .color("color0", default: .white, "Color at the centre."),
            .color("color1", default: .clear, "Color far away."),
            .number("radius", .distance, default: 300, min: 0, "Where the spot has faded (3σ), pixels."),
        ]
    ) { args in
        GaussianSpot(center: args.point("center"), color0: args.color("color0"), color1: args.color("color1"),
                                         radius: args.number("radius")).apply()
    }
}

struct GaussianSpot: PixelGenerator {
    let center: Point, color0: Color, color1: Color, radius: Double
    var name: String { "gaussianGradient" }
    var isOpaque: Bool { color0.alpha >= 1 && color1.alpha >= 1 }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        let c0 = color0.working, c1 = color1.working
        let sigma = max(radius / 3, 1e-9), dy = Double(y) + 0.5 - center.y
        for i in 0..<count {
            let dx = Double(x + i) + 0.5 - center.x
            row[i] = mix(c1, c0, Float(exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))))
        }
    }
}
