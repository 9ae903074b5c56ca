import LumenPlatform

extension FilterDescriptor {
    /// A lens's out-of-focus blur: a disc with a brighter rim, then softened. The kernel
    /// is w(i, j) = D_R(i, j)·(1 + ringAmount) − ringAmount·D_r(i, j), where D_ρ is 1 when
    /// i² + j² ≤ ρ² (R = radius, r = R·(1 − ringSize): the rim is ringSize of the radius),
    /// normalised to sum 1; then a Gaussian of σ = softness pixels rounds its edge
    /// (convolution is associative, so that is a soft-edged disc). Computed in linear light,
    /// so bright points bloom into discs as they do through a lens. Each disc is summed row
    /// segment by row segment from prefix sums: the cost grows with the radius, not its square.
    static let bokehBlur = FilterDescriptor(
        name: "bokehBlur", coreImageName: "CIBokehBlur", category: .blur,
        summary: "Blurs like an out-of-focus lens: bright points become discs with a brighter rim.",
        details: "Kernel D_R·(1 + ringAmount) − ringAmount·D_{R(1 − ringSize)}, normalised; then a Gaussian of σ = softness; extent outset by ⌈R⌉ + 3σ.",
        parameters: [
            .inputImage,
            .number("radius", .distance, default: 20, min: 0, max: 500, identity: 0, "Radius of the disc, pixels."),
            .number("ringAmount", default: 0, min: 0, max: 1, "Extra brightness of the rim."),
            .number("ringSize", default: 0.1, min: 0, max: 1, "Width of the rim as a share of the radius."),
            .number("softness", .distance, default: 1, min: 0, max: 10, "σ of the Gaussian that softens the disc's edge, pixels."),
        ]
    ) { args in
        let image = try args.image("image"), radius = args.number("radius")
        guard radius >= 0.5 else { return image }
        let disc = BokehKernel(radius: radius, ringAmount: args.number("ringAmount"), ringSize: args.number("ringSize")).apply(to: [image])
        return disc.applyingGaussianBlur(sigma: args.number("softness"))
    }
}

/// The ringed disc of bokehBlur, from per-row prefix sums.
struct BokehKernel: ImageKernel {
    let radius: Double, ringAmount: Double, ringSize: Double

    var name: String { "bokehBlur" }
    var reach: Int { Int(radius.rounded(.down)) }
    var cachePolicy: CachePolicy { .whenReused }

    /// Half-widths of the disc of radius ρ at vertical offsets −reach…reach (−1: no pixel).
    func spans(_ rho: Double) -> [Int] {
        (-reach...reach).map { j in
            let s = rho * rho - Double(j * j)
            return s < 0 ? -1 : Int(s.squareRoot().rounded(.down))
        }
    }

    func extent(inputs: [Rect]) -> Rect { inputs[0].outset(by: Double(reach)) }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: reach, dy: reach) }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect, reach = self.reach
        let outer = spans(radius), inner = spans(radius * (1 - ringSize))
        let wOuter = 1 + ringAmount, wInner = -ringAmount
        let total = wOuter * Double(outer.reduce(0) { $0 + 2 * $1 + 1 }) + wInner * Double(inner.reduce(0) { $0 + max(0, 2 * $1 + 1) })
        guard total > 0 else { return }
        // Prefix sums of the input rows the tile reads: prefix[k][x] = Σ row[< x].
        let x0 = r.x - reach, width = r.width + 2 * reach
        var prefix = [[SIMD4<Double>]](repeating: [], count: r.height + 2 * reach)
        for k in 0..<prefix.count {
            let row = input.row(r.y - reach + k, from: x0)
            var sums = [SIMD4<Double>](repeating: .zero, count: width + 1)
            for x in 0..<width { sums[x + 1] = sums[x] + SIMD4<Double>(row[x]) }
            prefix[k] = sums
        }
        for y in r.y..<r.maxY {
            let out = output.row(y), base = y - r.y  // prefix row of offset −reach
            for i in 0..<r.width {
                var sum = SIMD4<Double>.zero
                let c = i + reach  // the pixel's index in a prefix row (minus one)
                for j in 0..<outer.count {
                    let row = prefix[base + j]
                    let so = outer[j]
                    if so >= 0 { sum += wOuter * (row[c + so + 1] - row[c - so]) }
                    let si = inner[j]
                    if si >= 0, wInner != 0 { sum += wInner * (row[c + si + 1] - row[c - si]) }
                }
                out[i] = SIMD4<Float>(sum / total)
            }
        }
    }
}
