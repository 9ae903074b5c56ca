import LumenPlatform

extension FilterDescriptor {
    /// Until `fadeThreshold`, a disc of `color` grows from `center` (radius ∝ t up to the
    /// extent's half-diagonal, soft edge, brightness modulated by angular striations of
    /// `striationStrength`/`striationContrast`, reaching `maxStriationRadius` × radius);
    /// then the flash fades linearly into the target.
    static let flashTransition = transition(
        "flashTransition", "CIFlashTransition", summary: "A flash of light grows from a point, then fades into the target.",
        details: "t < fadeThreshold: disc of color, radius = t/fadeThreshold·(half-diagonal of extent), over the image; then mix(color, target, (t − fadeThreshold)/(1 − fadeThreshold)).",
        parameters: [
            .point("center", default: [150, 150], "Where the flash starts."),
            extentParameter,
            .color("color", default: Color(red: 1, green: 0.8, blue: 0.6), "The flash color."),
            .number("maxStriationRadius", default: 2.58, min: 0, "Reach of the rays, as a multiple of the flash radius."),
            .number("striationStrength", default: 0.5, min: 0, "Brightness of the rays."),
            .number("striationContrast", default: 1.375, min: 0, "Contrast of the rays."),
            .number("fadeThreshold", default: 0.85, min: 0, max: 1, "When the flash starts fading into the target."),
        ]
    ) { args, t in
        Flash(time: t, center: args.point("center"), extent: args.rect("extent"), color: args.color("color").working,
              reach: args.float("maxStriationRadius"), strength: args.float("striationStrength"),
              contrast: args.float("striationContrast"), threshold: args.float("fadeThreshold"))
    }
}

struct Flash: TransitionKernel {
    let time: Float, center: Point, extent: Rect, color: SIMD4<Float>, reach: Float, strength: Float, contrast: Float, threshold: Float
    var name: String { "flashTransition" }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        if time >= threshold {
            let k = threshold < 1 ? (time - threshold) / (1 - threshold) : 1
            for i in 0..<count { out[i] = color + (target.pixel(x + i, y) - color) * k }
            return
        }
        let halfDiagonal = Float((extent.width * extent.width + extent.height * extent.height).squareRoot() / 2)
        let radius = time / max(threshold, 1e-6) * halfDiagonal
        for i in 0..<count {
            let dx = Float(Double(x + i) + 0.5 - center.x), dy = Float(Double(y) + 0.5 - center.y)
            let d = (dx * dx + dy * dy).squareRoot()
            let disc = 1 - smoothstep(radius * 0.8, radius, d)
            let rays = strength * powf(max(0, sinf(12 * atan2f(dy, dx))), contrast) * (1 - smoothstep(radius, radius * max(reach, 1), d))
            let k = min(1, disc + rays * (radius > 0 ? 1 : 0))
            let s = source.pixel(x + i, y)
            out[i] = s + (color - s) * k
        }
    }
}
