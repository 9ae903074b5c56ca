import LumenPlatform

extension FilterDescriptor {
    /// Irregular holes open around `center`: the plane is cut into cells in polar
    /// coordinates (rings `radius` wide, sectors shrinking with `compression`, rotated by
    /// angle·t); each cell has a random threshold and shows the target once t passes it.
    static let modTransition = transition(
        "modTransition", "CIModTransition", summary: "The target appears through irregular holes around a point.",
        details: "Cell (⌊d/radius⌋, ⌊(θ + angle·t)·d/compression⌋) shows the target when t > noise(cell).",
        parameters: [
            .point("center", default: [150, 150], "Centre of the pattern."),
            .number("angle", .angle, default: 2, identity: 0, "Twist of the pattern over the transition, radians."),
            .number("radius", .distance, default: 150, min: 1, "Ring width, pixels."),
            .number("compression", .distance, default: 300, min: 1, "Sector length along a ring, pixels."),
        ]
    ) { args, t in
        Mod(time: t, center: args.point("center"), angle: args.float("angle"), radius: args.float("radius"), compression: args.float("compression"))
    }
}

struct Mod: TransitionKernel {
    let time: Float, center: Point, angle: Float, radius: Float, compression: Float
    var name: String { "modTransition" }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        for i in 0..<count {
            let dx = Float(Double(x + i) + 0.5 - center.x), dy = Float(Double(y) + 0.5 - center.y)
            let d = (dx * dx + dy * dy).squareRoot()
            let ring = Int((d / radius).rounded(.down))
            let sector = Int(((atan2f(dy, dx) + .pi + angle * time) * max(d, radius) / compression).rounded(.down))
            out[i] = time > cellNoise(ring, sector) ? target.pixel(x + i, y) : source.pixel(x + i, y)
        }
    }
}
