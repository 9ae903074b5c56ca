extension FilterDescriptor {
    private static let linearGradientParameters: [ParameterDescriptor] = [
        .point("point0", default: [0, 0], "Where color0 is."),
        .point("point1", default: [200, 200], "Where color1 is."),
        .color("color0", default: .white, "The first color."),
        .color("color1", default: .black, "The second color."),
    ]

    /// t = dot(p − p0, p1 − p0) / |p1 − p0|², clamped to 0…1; color = mix(color0, color1, t)
    /// in linear premultiplied space; infinite extent.
    static let linearGradient = FilterDescriptor(
        name: "linearGradient", coreImageName: "CILinearGradient", category: .gradient,
        summary: "A gradient from color0 at point0 to color1 at point1.",
        details: "t = dot(p − p0, p1 − p0)/|p1 − p0|² clamped to 0…1; linear premultiplied interpolation; infinite.",
        parameters: linearGradientParameters
    ) { args in linearGradient(args, smooth: false) }

    /// As linearGradient with t eased by smoothstep t²(3 − 2t).
    static let smoothLinearGradient = FilterDescriptor(
        name: "smoothLinearGradient", coreImageName: "CISmoothLinearGradient", category: .gradient,
        summary: "A linear gradient eased with an S-curve.",
        details: "As linearGradient with t' = t²(3 − 2t).",
        parameters: linearGradientParameters
    ) { args in linearGradient(args, smooth: true) }

    private static func linearGradient(_ args: FilterArguments, smooth: Bool) -> Image {
        LinearGradient(point0: args.point("point0"), point1: args.point("point1"),
                                           color0: args.color("color0"), color1: args.color("color1"), smooth: smooth).apply()
    }
}

struct LinearGradient: PixelGenerator {
    let point0: Point
    let point1: Point
    let color0: Color
    let color1: Color
    let smooth: Bool

    var name: String { smooth ? "smoothLinearGradient" : "linearGradient" }
    var isOpaque: Bool { color0.alpha >= 1 && color1.alpha >= 1 }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        let c0 = color0.working, c1 = color1.working
        let dx = point1.x - point0.x, dy = point1.y - point0.y
        let length2 = dx * dx + dy * dy
        let py = Double(y) + 0.5 - point0.y
        for i in 0..<count {
            var t = length2 > 0 ? ((Double(x + i) + 0.5 - point0.x) * dx + py * dy) / length2 : 0
            t = min(max(t, 0), 1)
            if smooth { t = t * t * (3 - 2 * t) }
            row[i] = mix(c0, c1, Float(t))
        }
    }
}
