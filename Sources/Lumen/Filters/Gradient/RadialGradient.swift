extension FilterDescriptor {
    /// t = clamp((d − r0)/(r1 − r0), 0, 1) for distance d from the centre;
    /// color = mix(color0, color1, t); infinite extent. r0 > r1 swaps the roles.
    static let radialGradient = FilterDescriptor(
        name: "radialGradient", coreImageName: "CIRadialGradient", category: .gradient,
        summary: "A gradient between two concentric circles.",
        details: "t = clamp((d − radius0)/(radius1 − radius0), 0, 1); linear premultiplied interpolation; infinite.",
        parameters: [
            .point("center", default: [150, 150], "Centre of both circles."),
            .number("radius0", .distance, default: 5, min: 0, "Radius where color0 ends."),
            .number("radius1", .distance, default: 100, min: 0, "Radius where color1 starts."),
            .color("color0", default: .white, "The inner color."),
            .color("color1", default: .black, "The outer color."),
        ]
    ) { args in
        RadialGradient(center: args.point("center"), radius0: args.number("radius0"), radius1: args.number("radius1"),
                                           color0: args.color("color0"), color1: args.color("color1")).apply()
    }
}

struct RadialGradient: PixelGenerator {
    let center: Point
    let radius0: Double
    let radius1: Double
    let color0: Color
    let color1: Color

    var name: String { "radialGradient" }
    var isOpaque: Bool { color0.alpha >= 1 && color1.alpha >= 1 }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        let c0 = color0.working, c1 = color1.working
        let span = radius1 - radius0
        let dy = Double(y) + 0.5 - center.y
        for i in 0..<count {
            let dx = Double(x + i) + 0.5 - center.x
            let d = (dx * dx + dy * dy).squareRoot()
            let t = span == 0 ? (d < radius0 ? 0 : 1) : min(max((d - radius0) / span, 0), 1)
            row[i] = mix(c0, c1, Float(t))
        }
    }
}
