import LumenPlatform

extension FilterDescriptor {
    /// A band of `width` crosses `extent` along `angle`; behind it the target, ahead the
    /// source, inside it a linear mix tinted by `color` at `opacity`. The band's centre
    /// moves from −width/2 to length + width/2 along the direction, so t = 0 shows only
    /// the source and t = 1 only the target.
    static let swipeTransition = transition(
        "swipeTransition", "CISwipeTransition", summary: "A band sweeps across, revealing the target behind it.",
        details: "u = projection on (cos angle, sin angle) from the extent's near corner; band centre c = −w/2 + t·(L + w); mix = smoothstep over the band; the band is tinted by color·opacity.",
        parameters: [
            extentParameter,
            .color("color", default: .white, "Tint of the band."),
            .number("angle", .angle, default: 0, identity: 0, "Direction of travel, radians."),
            .number("width", .distance, default: 300, min: 0.1, "Width of the band, pixels."),
            .number("opacity", default: 0, min: 0, identity: 0, "How strongly the band is tinted."),
        ]
    ) { args, t in
        Swipe(time: t, extent: args.rect("extent"), angle: args.number("angle"), width: args.float("width"),
              color: args.color("color").working, opacity: args.float("opacity"))
    }
}

struct Swipe: TransitionKernel {
    let time: Float, extent: Rect, angle: Double, width: Float, color: SIMD4<Float>, opacity: Float
    var name: String { "swipeTransition" }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        let dx = Float(cos(angle)), dy = Float(sin(angle))
        let range = projectionRange(of: extent, dx: dx, dy: dy)
        let start = range.min, length = range.max - range.min
        let centre = start - width / 2 + time * (length + width)
        for i in 0..<count {
            let px = Float(x + i) + 0.5, py = Float(y) + 0.5
            let u = px * dx + py * dy
            let k = smoothstep(centre - width / 2, centre + width / 2, u)  // 0 behind (target), 1 ahead (source)
            let s = source.pixel(x + i, y), g = target.pixel(x + i, y)
            let band = 4 * k * (1 - k) * opacity
            out[i] = (g + (s - g) * k) * (1 - band) + color * band
        }
    }
}
