import LumenPlatform

extension FilterDescriptor {
    /// A scanner bar of `width` moves along `angle` across `extent`; behind it the target,
    /// ahead the source; the bar adds `color`·opacity with a bright leading edge.
    static let copyMachineTransition = transition(
        "copyMachineTransition", "CICopyMachineTransition", summary: "A photocopier light bar sweeps across, leaving the target behind.",
        details: "Bar centre moves from −width to L + width along the direction; behind the trailing edge the target; in the bar, image + color·opacity·(1 − |2k − 1|).",
        parameters: [
            extentParameter,
            .color("color", default: Color(red: 0.6, green: 1, blue: 0.8), "Color of the light."),
            .number("angle", .angle, default: 0, min: 0, identity: 0, "Direction of travel, radians."),
            .number("width", .distance, default: 200, min: 0.1, "Width of the light bar."),
            .number("opacity", default: 1.3, min: 0, "Strength of the light."),
        ]
    ) { args, t in
        CopyMachine(time: t, extent: args.rect("extent"), color: args.color("color").working, angle: args.number("angle"),
                    width: args.float("width"), opacity: args.float("opacity"))
    }
}

struct CopyMachine: TransitionKernel {
    let time: Float, extent: Rect, color: SIMD4<Float>, angle: Double, width: Float, opacity: Float
    var name: String { "copyMachineTransition" }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        let dx = Float(cos(angle)), dy = Float(sin(angle))
        let range = projectionRange(of: extent, dx: dx, dy: dy)
        let start = range.min - width, length = range.max - range.min + 2 * width
        let trailing = start + time * length - width / 2, leading = trailing + width
        for i in 0..<count {
            let u = (Float(x + i) + 0.5) * dx + (Float(y) + 0.5) * dy
            let base = u < trailing ? target.pixel(x + i, y) : source.pixel(x + i, y)
            guard u >= trailing && u < leading else { out[i] = base; continue }
            let k = (u - trailing) / width
            let light = color * (opacity * (1 - abs(2 * k - 1)) * 0.5)
            out[i] = base + light * base.w
        }
    }
}
