import LumenPlatform

extension FilterDescriptor {
    /// A color wheel centred on the origin: hue = polar angle (0 along +x, counter-
    /// clockwise), saturation = (d/radius)^(1/softness)… clamped, brightness = value
    /// (HSV in sRGB, then linearized); transparent outside the disc; extent
    /// [−r, −r, 2r, 2r]. `dither` adds ±dither/255 of position-hashed noise.
    static let hueSaturationValueGradient = FilterDescriptor(
        name: "hueSaturationValueGradient", coreImageName: "CIHueSaturationValueGradient", category: .gradient,
        summary: "A color wheel of all hues and saturations at one brightness.",
        details: "HSV(hue = atan2(y, x), sat = (d/r)^softness, value) in sRGB inside the disc of radius r at the origin; clear outside.",
        parameters: [
            .number("value", default: 1, min: 0, max: 1, "Brightness of the wheel."),
            .number("radius", .distance, default: 300, min: 0, "Radius of the wheel, pixels."),
            .number("softness", default: 1, min: 0, "Shapes saturation along the radius."),
            .number("dither", default: 1, min: 0, "Noise against banding, in 8-bit steps."),
        ]
    ) { args in
        let r = args.number("radius")
        return ColorWheel(value: args.number("value"), radius: r, softness: args.number("softness"), dither: args.number("dither")).apply()
    }
}

struct ColorWheel: PixelGenerator {
    let value: Double, radius: Double, softness: Double, dither: Double
    var name: String { "hueSaturationValueGradient" }
    var isOpaque: Bool { false }
    func extent(inputs: [Rect]) -> Rect { Rect(x: -radius, y: -radius, width: 2 * radius, height: 2 * radius) }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        let py = Double(y) + 0.5
        for i in 0..<count {
            let px = Double(x + i) + 0.5
            let d = (px * px + py * py).squareRoot()
            guard d <= radius, radius > 0 else { row[i] = .zero; continue }
            let hue = (atan2(py, px) / (2 * .pi) + 1).truncatingRemainder(dividingBy: 1) * 6
            let saturation = pow(d / radius, max(softness, 1e-6))
            let noise = (Double(cellNoise(x + i, y)) - 0.5) * dither / 255
            // Standard HSV → RGB: chroma c, second component x, offset m.
            let c = value * saturation, xc = c * (1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1)), m = value - c
            let (r, g, b): (Double, Double, Double)
            switch Int(hue) {
            case 0: (r, g, b) = (c + m, xc + m, m)
            case 1: (r, g, b) = (xc + m, c + m, m)
            case 2: (r, g, b) = (m, c + m, xc + m)
            case 3: (r, g, b) = (m, xc + m, c + m)
            case 4: (r, g, b) = (xc + m, m, c + m)
            default: (r, g, b) = (c + m, m, xc + m)
            }
            func linear(_ v: Double) -> Float { Float(TransferFunction.linear(fromSRGB: min(1, max(0, v + noise)))) }
            row[i] = SIMD4(linear(r), linear(g), linear(b), 1)
        }
    }
}
