extension FilterDescriptor {
    /// Saturation in linear light (lerp from Rec. 709 luma, s > 1 extrapolates), then
    /// brightness (v + b) and contrast ((v − 0.5)·k + 0.5) on sRGB-encoded values, so the
    /// contrast pivots on perceptual mid-grey (sRGB 0.5).
    ///
    /// Decided from what users of Core Image see: in linear light the pivot 0.5 is sRGB
    /// 0.735, and `contrast 1.05` turned every value below sRGB 0.16 black (a third of a
    /// forest photo), which Core Image's colour controls do not do; in the sRGB encoding
    /// 1.05 is the slight lift it is meant to be, and brightness 0.1 a uniform lift rather
    /// than a fog over the shadows. The three steps stay one fused colour pass.
    static let colorControls = FilterDescriptor(
        name: "colorControls", coreImageName: "CIColorControls", category: .colorAdjustment,
        summary: "Adjusts saturation, brightness and contrast.",
        details: "Saturation lerps from Rec. 709 luma in linear light; then, on sRGB-encoded values, v + brightness and (v − 0.5)·contrast + 0.5 (pivot: perceptual mid-grey).",
        parameters: [
            .inputImage,
            .number("saturation", default: 1, min: 0, identity: 1, "0 gray, 1 unchanged, above 1 more saturated."),
            .number("brightness", default: 0, min: -1, identity: 0, "Added to red, green and blue."),
            .number("contrast", default: 1, min: 0, identity: 1, "Scale around 0.5; 1 unchanged."),
        ]
    ) { args in
        var image = try args.image("image")
        let saturation = colorControlsMatrix(saturation: args.float("saturation"), brightness: 0, contrast: 1)
        if !saturation.isIdentity { image = image.applyingColor(saturation) }
        let brightness = args.float("brightness"), contrast = args.float("contrast")
        guard brightness != 0 || contrast != 1 else { return image }
        return image.applyingColor(PerceptualToneAdjust(brightness: brightness, contrast: contrast))
    }
}

/// The single matrix for saturation, then brightness, then contrast.
func colorControlsMatrix(saturation s: Float, brightness: Float, contrast k: Float) -> ColorMatrix {
    let w = lumaWeights
    let saturate = ColorMatrix(r: SIMD4(w.x * (1 - s) + s, w.y * (1 - s), w.z * (1 - s), 0),
                               g: SIMD4(w.x * (1 - s), w.y * (1 - s) + s, w.z * (1 - s), 0),
                               b: SIMD4(w.x * (1 - s), w.y * (1 - s), w.z * (1 - s) + s, 0),
                               a: SIMD4(0, 0, 0, 1), bias: .zero)
    let brighten = ColorMatrix(r: [1, 0, 0, 0], g: [0, 1, 0, 0], b: [0, 0, 1, 0], a: [0, 0, 0, 1],
                               bias: SIMD4(brightness, brightness, brightness, 0))
    let offset = 0.5 * (1 - k)
    let contrast = ColorMatrix(r: [k, 0, 0, 0], g: [0, k, 0, 0], b: [0, 0, k, 0], a: [0, 0, 0, 1],
                               bias: SIMD4(offset, offset, offset, 0))
    return saturate.followed(by: brighten).followed(by: contrast)
}

/// colorControls' brightness and contrast on sRGB-encoded values, as one curve per channel
/// of linear values: v → linear((srgb(v) + b − 0.5)·k + 0.5). Sampled once per (b, k) at
/// 16,385 points over 0…1 and read with linear interpolation (within 10⁻⁶ of the formula);
/// values outside 0…1 take the formula. One table lookup per channel instead of two
/// transfer curves and a matrix.
struct PerceptualToneAdjust: ColorOperation {
    let brightness: Float
    let contrast: Float
    var name: String { "colorControls.tone" }
    var isChannelSeparable: Bool { true }

    @inline(__always)
    func formula(_ v: Float) -> Float {
        TransferFunction.linearMirrored(fromSRGB: (TransferFunction.srgbMirrored(fromLinear: v) + brightness - 0.5) * contrast + 0.5)
    }

    private static let tables = LockedValue([SIMD2<Float>: SampledCurve]())

    /// The sampled curve for these values (made on first use, kept for the process; at most 64 kept).
    private var curve: SampledCurve {
        let key = SIMD2(brightness, contrast)
        if let known = Self.tables.withLock({ $0[key] }) { return known }
        let made = SampledCurve(formula)
        Self.tables.withLock { tables in
            if tables.count >= 64 { tables.removeAll() }
            tables[key] = made
        }
        return made
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        curve.apply(row, count: count, outside: formula)
    }
}
