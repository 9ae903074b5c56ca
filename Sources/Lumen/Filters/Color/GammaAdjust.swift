import LumenPlatform

extension FilterDescriptor {
    /// rgb' = sign(rgb)·|rgb|^power on unpremultiplied linear values (sign kept for
    /// extended range); power > 1 darkens.
    static let gammaAdjust = FilterDescriptor(
        name: "gammaAdjust", coreImageName: "CIGammaAdjust", category: .colorAdjustment,
        summary: "Raises colors to a power: above 1 darkens, below 1 lightens.",
        details: "rgb' = sign(rgb)·|rgb|^power (unpremultiplied, linear).",
        parameters: [.inputImage, .number("power", default: 1, min: 0, identity: 1, "The exponent.")]
    ) { args in
        let image = try args.image("image"), power = args.float("power")
        return power == 1 ? image : image.applyingColor(Gamma(power: power))
    }
}

struct Gamma: ColorOperation {
    var name: String { "gamma" }
    var isChannelSeparable: Bool { true }
    let power: Float

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            func g(_ v: Float) -> Float { v < 0 ? -powf(-v, power) : powf(v, power) }
            row[i] = SIMD4(g(p.x), g(p.y), g(p.z), p.w)
        }
    }
}
