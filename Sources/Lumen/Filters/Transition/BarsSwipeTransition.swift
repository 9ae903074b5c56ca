import LumenPlatform

extension FilterDescriptor {
    /// Bars `width` pixels wide, perpendicular to `angle`, each reveal the target as a
    /// front moving along `angle`; bar n starts later by n·barOffset/100 of the run.
    static let barsSwipeTransition = transition(
        "barsSwipeTransition", "CIBarsSwipeTransition", summary: "Staggered bars sweep across, revealing the target.",
        details: "Bar n = ⌊v/width⌋ (v across the direction); its front moves along u with delay n·barOffset/100; behind the front the target.",
        parameters: [
            .number("angle", .angle, default: .pi, identity: 0, "Direction the bars move, radians."),
            .number("width", .distance, default: 30, min: 2, "Width of each bar, pixels."),
            .number("barOffset", default: 10, min: 1, "Delay between neighbouring bars."),
        ]
    ) { args, t in
        let extent = try args.image("image").extent.union(try args.image("targetImage").extent)
        return BarsSwipe(time: t, angle: args.number("angle"), width: args.float("width"), offset: args.float("barOffset"),
                         span: Float(extent.isInfinite ? 1e6 : extent.width + extent.height))
    }
}

struct BarsSwipe: TransitionKernel {
    let time: Float, angle: Double, width: Float, offset: Float
    /// Distance the fronts travel: the width plus height of both images' extent.
    let span: Float
    var name: String { "barsSwipeTransition" }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        let dx = Float(cos(angle)), dy = Float(sin(angle))
        for i in 0..<count {
            let px = Float(x + i) + 0.5, py = Float(y) + 0.5
            let u = px * dx + py * dy, v = -px * dy + py * dx
            let bar = Float((v / width).rounded(.down))
            let delay = (bar.truncatingRemainder(dividingBy: 8) + 8).truncatingRemainder(dividingBy: 8) * offset / 100
            // The front runs from −span to +span over the time left after the delay.
            let progress = min(max(time * (1 + 7 * offset / 100) - delay, 0), 1)  // the last bar finishes at t = 1
            let front = -span + 2 * span * progress
            out[i] = u < front ? target.pixel(x + i, y) : source.pixel(x + i, y)
        }
    }
}
