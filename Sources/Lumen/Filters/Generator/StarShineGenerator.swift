import LumenPlatform

extension FilterDescriptor {
    /// Intensity = exp(−(d/radius)²) for the glow plus, along two perpendicular lines at
    /// crossAngle, 10^crossOpacity·exp(−|a|/(crossScale·radius·10^(epsilon/8)))·exp(−(b/crossWidth)²)
    /// (a along the line, b across it); color·min(1, intensity), premultiplied; infinite.
    static let starShine = FilterDescriptor(
        name: "starShine", coreImageName: "CIStarShineGenerator", category: .generator,
        summary: "A star-burst: a glowing disc with a cross of light.",
        details: "glow exp(−(d/radius)²) + two perpendicular spikes (length crossScale·radius, width crossWidth, strength 10^crossOpacity).",
        parameters: [
            .point("center", default: [150, 150], "Centre of the star."),
            .color("color", default: Color(red: 1, green: 0.8, blue: 0.6), "Color of the light."),
            .number("radius", .distance, default: 50, min: 0, "Radius of the glow, pixels."),
            .number("crossScale", default: 15, min: 0, "Length of the spikes relative to the radius."),
            .number("crossAngle", .angle, default: 0.6, "Rotation of the spikes, radians."),
            .number("crossOpacity", default: -2, min: -8, "Brightness of the spikes (log10)."),
            .number("crossWidth", .distance, default: 2.5, min: 0, "Width of the spikes, pixels."),
            .number("epsilon", default: -2, min: -8, "Sharpness of the spike ends (log scale)."),
        ]
    ) { args in
        StarShine(center: args.point("center"), color: args.color("color"), radius: args.number("radius"),
                                      crossScale: args.number("crossScale"), crossAngle: args.number("crossAngle"),
                                      crossOpacity: args.number("crossOpacity"), crossWidth: args.number("crossWidth"),
                                      epsilon: args.number("epsilon")).apply()
    }
}

struct StarShine: PixelGenerator {
    let center: Point, color: Color, radius: Double, crossScale: Double, crossAngle: Double, crossOpacity: Double, crossWidth: Double, epsilon: Double
    var name: String { "starShine" }
    var isOpaque: Bool { false }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        let c = color.working, (cs, sn) = (cos(crossAngle), sin(crossAngle))
        let spike = pow(10, crossOpacity), length = max(crossScale * radius * pow(10, epsilon / 8), 1e-9)
        let width = max(crossWidth, 1e-9)
        let dy = Double(y) + 0.5 - center.y
        for i in 0..<count {
            let dx = Double(x + i) + 0.5 - center.x
            let glow = radius > 0 ? exp(-(dx * dx + dy * dy) / (radius * radius)) : 0
            let a = dx * cs + dy * sn, b = -dx * sn + dy * cs
            let cross = spike * (exp(-abs(a) / length) * exp(-(b / width) * (b / width)) + exp(-abs(b) / length) * exp(-(a / width) * (a / width)))
            row[i] = c * Float(min(1, glow + cross))
        }
    }
}
