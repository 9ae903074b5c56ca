import LumenPlatform

extension FilterDescriptor {
    /// HDR to a smaller headroom (macOS 15's CIToneMapHeadroom). Headroom is the peak
    /// linear value relative to SDR white (1). With m = max(r, g, b) of the
    /// unpremultiplied linear colour, W = sourceHeadroom/targetHeadroom and
    /// f(m) = T·g(m/T), g(x) = x(1 + x/W²)/(1 + x) (extended Reinhard), the colour is
    /// scaled by f(m)/m: hue kept, f(0) = 0, f′(0) ≈ 1 near black, f(source) = target.
    /// When the target is at least the source, nothing changes. Apple's curve is
    /// unpublished.
    static let toneMapHeadroom = FilterDescriptor(
        name: "toneMapHeadroom", coreImageName: "CIToneMapHeadroom", category: .colorAdjustment,
        summary: "Tone maps an HDR image from its headroom to a smaller one.",
        details: "m = max(r, g, b); rgb·f(m)/m with f(m) = T·g(m/T), g(x) = x(1 + x/W²)/(1 + x), W = S/T, so f(S) = T; identity when T ≥ S. Alpha kept.",
        parameters: [
            .inputImage,
            .number("sourceHeadroom", default: 1, min: 1, max: 1e4, "Peak of the input, relative to SDR white."),
            .number("targetHeadroom", default: 1, min: 1, max: 1e4, "Peak of the output, relative to SDR white."),
        ]
    ) { args in
        let source = args.number("sourceHeadroom"), target = args.number("targetHeadroom")
        let image = try args.image("image")
        guard target < source else { return image }
        return image.applyingColor(HeadroomToneMap(source: Float(source), target: Float(target)))
    }
}

struct HeadroomToneMap: ColorOperation {
    let source: Float, target: Float
    var name: String { "toneMapHeadroom" }

    /// The curve for the largest component m ≥ 0.
    static func curve(_ m: Float, source: Float, target: Float) -> Float {
        let w = source / target, x = m / target
        return target * x * (1 + x / (w * w)) / (1 + x)
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i], m = max(p.x, p.y, p.z)
            guard m > 0, m.isFinite else { continue }
            let k = Self.curve(m, source: source, target: target) / m
            row[i] = SIMD4(p.x * k, p.y * k, p.z * k, p.w)
        }
    }
}
