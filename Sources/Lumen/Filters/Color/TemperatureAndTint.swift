import LumenPlatform

extension FilterDescriptor {
    /// White balance by von Kries scaling in linear sRGB: each channel is multiplied by
    /// white(target)/white(neutral), where white(K, tint) is the linear-sRGB color of a
    /// blackbody at K kelvin (Kim et al.'s cubic Planckian-locus fit to CIE xy, then XYZ →
    /// linear sRGB), with tint scaling green by 1 − tint/1000 (positive tint = magenta).
    /// The result is normalized so that luma of white is kept. (6500, 0) → (6500, 0) is
    /// the identity.
    static let temperatureAndTint = FilterDescriptor(
        name: "temperatureAndTint", coreImageName: "CITemperatureAndTint", category: .colorAdjustment,
        summary: "Re-balances white from one color temperature and tint to another.",
        details: "Per-channel gains white(target)/white(neutral) in linear sRGB; white(K, tint) from a Planckian-locus fit; luma of white kept.",
        parameters: [
            .inputImage,
            ParameterDescriptor("neutral", .offset, default: .vector([6500, 0]), identity: .vector([6500, 0]), "The image's white: [kelvin, tint]."),
            ParameterDescriptor("targetNeutral", .offset, default: .vector([6500, 0]), identity: .vector([6500, 0]), "The white to map it to: [kelvin, tint]."),
        ]
    ) { args in
        let image = try args.image("image")
        let from = args.vector("neutral"), to = args.vector("targetNeutral")
        guard from != to else { return image }
        for (key, v) in [("neutral", from), ("targetNeutral", to)] where !(1000...40000).contains(v[0]) {
            throw LumenError.invalidValue(filter: "temperatureAndTint", key: key, reason: "temperature \(v[0]) K is outside 1000…40000")
        }
        let gains = whitePoint(kelvin: to[0], tint: to[1]) / whitePoint(kelvin: from[0], tint: from[1])
        let w = SIMD3<Double>(0.2126, 0.7152, 0.0722)
        let g = gains / (gains * w).sum()
        return image.applyingColor(ColorMatrix(r: SIMD4(Float(g.x), 0, 0, 0), g: SIMD4(0, Float(g.y), 0, 0),
                                               b: SIMD4(0, 0, Float(g.z), 0), a: SIMD4(0, 0, 0, 1), bias: .zero))
    }

    /// Linear sRGB of a blackbody at `kelvin` (1667–25000 K fit, clamped), tint applied to green.
    static func whitePoint(kelvin: Double, tint: Double) -> SIMD3<Double> {
        let t = min(max(kelvin, 1667), 25000)
        let x = t <= 4000 ? -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
                          : -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        let y = t <= 2222 ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
            : t <= 4000 ? -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
            : 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        let X = x / y, Z = (1 - x - y) / y
        let rgb = SIMD3(3.2406 * X - 1.5372 - 0.4986 * Z, -0.9689 * X + 1.8758 + 0.0415 * Z, 0.0557 * X - 0.2040 + 1.0570 * Z)
        return SIMD3(max(rgb.x, 1e-4), max(rgb.y, 1e-4) * (1 - tint / 1000), max(rgb.z, 1e-4))
    }
}
