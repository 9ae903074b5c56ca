import LumenPlatform

extension FilterDescriptor {
    /// A sun disc of `sunRadius` (soft edge 1.5 px) plus rays: angular pattern
    /// p(θ) = ½ + ½·sin(13θ + 2πt)·sin(7θ − 2πt) raised to `striationContrast`, times
    /// `striationStrength`, fading linearly to 0 at maxStriationRadius·sunRadius; color ×
    /// min(1, disc + rays), premultiplied; infinite extent.
    static let sunbeams = FilterDescriptor(
        name: "sunbeams", coreImageName: "CISunbeamsGenerator", category: .generator,
        summary: "A sun with rays of light.",
        details: "disc of sunRadius + rays p(θ)^contrast·strength fading to maxStriationRadius·sunRadius; time animates the rays.",
        parameters: [
            .point("center", default: [150, 150], "Centre of the sun."),
            .color("color", default: Color(red: 1, green: 0.5, blue: 0), "Color of the light."),
            .number("sunRadius", .distance, default: 40, min: 0, "Radius of the disc, pixels."),
            .number("maxStriationRadius", default: 2.58, min: 0, "Reach of the rays, in sun radii."),
            .number("striationStrength", default: 0.5, min: 0, "Brightness of the rays."),
            .number("striationContrast", default: 1.375, min: 0, "Contrast of the rays."),
            .number("time", default: 0, min: 0, max: 1, identity: 0, "Animates the rays."),
        ]
    ) { args in
        Sunbeams(center: args.point("center"), color: args.color("color"), sunRadius: args.number("sunRadius"),
                                     reach: args.number("maxStriationRadius"), strength: args.number("striationStrength"),
                                     contrast: args.number("striationContrast"), time: args.number("time")).apply()
    }
}

struct Sunbeams: PixelGenerator {
    let center: Point, color: Color, sunRadius: Double, reach: Double, strength: Double, contrast: Double, time: Double
    var name: String { "sunbeams" }
    var isOpaque: Bool { false }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        let c = color.working, dy = Double(y) + 0.5 - center.y
        let outer = max(reach * sunRadius, sunRadius + 1e-9)
        for i in 0..<count {
            let dx = Double(x + i) + 0.5 - center.x
            let d = (dx * dx + dy * dy).squareRoot(), theta = atan2(dy, dx)
            let disc = min(1, max(0, (sunRadius + 0.75 - d) / 1.5))
            let pattern = 0.5 + 0.5 * sin(13 * theta + 2 * .pi * time) * sin(7 * theta - 2 * .pi * time)
            let fade = max(0, 1 - max(0, d - sunRadius) / (outer - sunRadius))
            let rays = strength * pow(pattern, contrast) * fade
            row[i] = c * Float(min(1, disc + rays))
        }
    }
}
