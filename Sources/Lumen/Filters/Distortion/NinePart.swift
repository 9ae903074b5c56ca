import LumenPlatform

extension FilterDescriptor {
    /// Nine-slice stretching: the extent grows by growAmount; left of breakpoint0.x and
    /// below breakpoint0.y nothing moves, right of breakpoint1.x and above breakpoint1.y
    /// the image moves out by growAmount, and the middle band is stretched linearly
    /// between (corners stay sharp, like a resizable button image).
    static let ninePartStretched = FilterDescriptor(
        name: "ninePartStretched", coreImageName: "CINinePartStretched", category: .distortionEffect,
        summary: "Grows an image by stretching its middle, keeping the corners.",
        details: "Per axis: x < b0 unchanged; x > b1 + grow samples x − grow; between, b0 + (x − b0)·(b1 − b0)/(b1 − b0 + grow).",
        parameters: [.inputImage,
                     .point("breakpoint0", default: [50, 50], "Lower-left end of the stretched band."),
                     .point("breakpoint1", default: [150, 150], "Upper-right end of the stretched band."),
                     ParameterDescriptor("growAmount", .offset, default: .vector([100, 100]), "How much wider and taller the result is.")]
    ) { args in try ninePart(args, tiled: false, flipY: false) }

    /// As ninePartStretched, but the middle band repeats (tiles) instead of stretching;
    /// with flipYTiles every other vertical repeat is mirrored.
    static let ninePartTiled = FilterDescriptor(
        name: "ninePartTiled", coreImageName: "CINinePartTiled", category: .distortionEffect,
        summary: "Grows an image by repeating its middle, keeping the corners.",
        details: "Per axis: the band b0…b1 repeats over b0…b1 + grow; outside it as ninePartStretched; flipYTiles mirrors odd rows.",
        parameters: [.inputImage,
                     .point("breakpoint0", default: [50, 50], "Lower-left end of the repeated band."),
                     .point("breakpoint1", default: [150, 150], "Upper-right end of the repeated band."),
                     ParameterDescriptor("growAmount", .offset, default: .vector([100, 100]), "How much wider and taller the result is."),
                     .number("flipYTiles", .boolean, default: 1, min: 0, max: 1, "1 mirrors every other row of tiles.")]
    ) { args in try ninePart(args, tiled: true, flipY: args.number("flipYTiles") >= 0.5) }

    static func ninePart(_ args: FilterArguments, tiled: Bool, flipY: Bool) throws -> Image {
        let image = try args.image("image"), b0 = args.point("breakpoint0"), b1 = args.point("breakpoint1"), g = args.vector("growAmount")
        guard b1.x > b0.x, b1.y > b0.y else {
            throw LumenError.invalidValue(filter: tiled ? "ninePartTiled" : "ninePartStretched", key: "breakpoint1", reason: "must be above and right of breakpoint0")
        }
        guard g[0] >= 0, g[1] >= 0 else {
            throw LumenError.invalidValue(filter: tiled ? "ninePartTiled" : "ninePartStretched", key: "growAmount", reason: "must not be negative")
        }
        return NinePart(low: SIMD2(b0.x, b0.y), high: SIMD2(b1.x, b1.y), grow: SIMD2(g[0], g[1]), tiled: tiled, flipY: flipY).apply(to: image)
    }
}

struct NinePart: WarpMapping {
    let low: SIMD2<Double>
    let high: SIMD2<Double>
    let grow: SIMD2<Double>
    let tiled: Bool
    let flipY: Bool
    var name: String { tiled ? "ninePartTiled" : "ninePartStretched" }

    func extent(input: Rect) -> Rect {
        input.isInfinite ? input : Rect(x: input.minX, y: input.minY, width: input.width + grow.x, height: input.height + grow.y)
    }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        func axis(_ v: Double, _ i: Int) -> (Double, Bool) {
            let lo = low[i], hi = high[i], g = grow[i]
            if v < lo { return (v, false) }
            if v > hi + g { return (v - g, false) }
            let band = hi - lo
            if !tiled { return (lo + (v - lo) * band / (band + g), false) }
            let k = ((v - lo) / band).rounded(.down)
            return (lo + (v - lo - k * band), Swift.abs(k.truncatingRemainder(dividingBy: 2)) == 1)
        }
        let (x, _) = axis(d.x, 0)
        var (y, odd) = axis(d.y, 1)
        if flipY && odd { y = low.y + high.y - y }
        return SIMD2(x, y)
    }
}
