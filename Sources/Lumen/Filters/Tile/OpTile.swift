import LumenPlatform

extension FilterDescriptor {
    /// Op art: square cells of side `width` on a grid with a corner at `center`; each
    /// cell shows the image around the cell's own centre m, turned by `angle` and shrunk
    /// by `scale`: out(d) = in(m + R(angle)·(d − m)·scale). Infinite extent.
    static let opTile = FilterDescriptor(
        name: "opTile", coreImageName: "CIOpTile", category: .tileEffect,
        summary: "Cuts the image into square cells, each showing its surroundings turned and shrunk (op art).",
        details: "m = centre of d's cell (grid of side width with a corner at center); out(d) = in(m + R(angle)·(d − m)·scale); infinite.",
        parameters: [.inputImage, .tileCenter, .tileAngle,
                     .number("scale", default: 2.8, min: 0.01, max: 1e3, "How much of the image each cell shows, relative to its size."),
                     .number("width", .distance, default: 65, min: 1, max: 1e6, "Side of a cell in pixels.")]
    ) { args in
        let c = args.point("center")
        return OpTiling(center: SIMD2(c.x, c.y), angle: args.number("angle"), scale: args.number("scale"), width: args.number("width"))
            .apply(to: try args.image("image"))
    }
}

struct OpTiling: WarpMapping {
    let center: SIMD2<Double>
    let angle: Double, scale: Double, width: Double
    var name: String { "opTile" }

    func extent(input: Rect) -> Rect { .infinite }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let q = (d - center) / width
        guard Swift.abs(q.x) < 1e12, Swift.abs(q.y) < 1e12 else { return nil }
        let m = center + (SIMD2(q.x.rounded(.down), q.y.rounded(.down)) + 0.5) * width
        let v = (d - m) * scale, (s, c) = (sin(angle), cos(angle))
        return m + SIMD2(v.x * c - v.y * s, v.x * s + v.y * c)
    }
}
