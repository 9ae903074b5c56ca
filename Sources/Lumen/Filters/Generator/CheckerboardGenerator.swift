import LumenPlatform

extension FilterDescriptor {
    /// Squares of side `width` alternate color0/color1 with a corner at `center`.
    /// sharpness s: each edge ramps over (1 − s)·width/2 pixels on each side; s = 1 is
    /// hard, s = 0 gives triangle waves whose product never quite settles.
    static let checkerboard = FilterDescriptor(
        name: "checkerboard", coreImageName: "CICheckerboardGenerator", category: .generator,
        summary: "An infinite checkerboard of two colors.",
        details: "Squares of side width with a corner at center; edges ramp over (1 − sharpness)·width/2 px.",
        parameters: [
            .point("center", default: [150, 150], "A corner of the grid."),
            .color("color0", default: .white, "The first color."),
            .color("color1", default: .black, "The second color."),
            .number("width", .distance, default: 80, min: 0, "Side of a square in pixels."),
            .number("sharpness", default: 1, min: 0, max: 1, "1 hard edges, 0 fully soft."),
        ]
    ) { args in
        Checkerboard(center: args.point("center"), color0: args.color("color0"), color1: args.color("color1"),
                                         width: args.number("width"), sharpness: args.number("sharpness"), stripes: false).apply()
    }
}

struct Checkerboard: PixelGenerator {
    let center: Point
    let color0: Color
    let color1: Color
    let width: Double
    let sharpness: Double
    /// Vary along x only (the stripes generator).
    let stripes: Bool

    var name: String { stripes ? "stripes" : "checkerboard" }
    var isOpaque: Bool { color0.alpha >= 1 && color1.alpha >= 1 }

    /// +1 inside even cells, −1 inside odd ones, ramping linearly across edges.
    @inline(__always)
    private func wave(_ position: Double, ramp: Double) -> Double {
        let u = position / width
        let cell = u.rounded(.down)
        let sign: Double = abs(cell.truncatingRemainder(dividingBy: 2)) < 0.5 ? 1 : -1  // parity without an Int (cells can be huge)
        guard ramp > 0 else { return sign }
        let distance = min(u - cell, cell + 1 - u) * width  // to the nearest edge, pixels
        return sign * min(1, distance / ramp)
    }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        let c0 = color0.working, c1 = color1.working
        guard width > 0 else { row.update(repeating: mix(c0, c1, 0.5), count: count); return }
        let ramp = (1 - sharpness) * width / 2
        let wy = stripes ? 1 : wave(Double(y) + 0.5 - center.y, ramp: ramp)
        for i in 0..<count {
            let p = wave(Double(x + i) + 0.5 - center.x, ramp: ramp) * wy
            row[i] = mix(c0, c1, Float((1 - p) / 2))
        }
    }
}
