import LumenPlatform

extension FilterDescriptor {
    /// k-means clustering of the colours in the extent. Colours are first counted in a
    /// 32³ grid (each cell keeps its count and the sum of its colours, unpremultiplied
    /// linear RGB, or sRGB-encoded when perceptual), per 128-pixel block and merged in
    /// order; Lloyd's algorithm then runs `passes` times on the cells' means, weighted by
    /// their counts. Seeds: the means image's first `count` pixels when given, otherwise
    /// the heaviest cell, then repeatedly the cell farthest from the seeds so far. Output
    /// (0, 0, count, 1): each mean's colour, its alpha the fraction of pixels it holds.
    static let kMeans = FilterDescriptor(
        name: "kMeans", coreImageName: "CIKMeans", category: .reduction,
        summary: "The k dominant colors of a rectangle, as a count × 1 palette.",
        details: "Colours binned 32³, Lloyd's k-means for `passes` rounds; output pixel i = mean i with α = its share of the pixels.",
        parameters: [.inputImage, .reductionExtent,
                     ParameterDescriptor("means", .image, default: .image(.empty), "Optional seed colors (its first count pixels)."),
                     .number("count", .integer, default: 8, min: 1, max: 128, "Number of clusters."),
                     .number("passes", .integer, default: 5, min: 0, max: 20, "Rounds of Lloyd's algorithm."),
                     .number("perceptual", .boolean, default: 0, min: 0, max: 1, "1 clusters sRGB-encoded colors.")]
    ) { args in
        let area = PixelRect(covering: args.rect("extent"))
        guard !area.isEmpty else { return .empty }
        let kernel = ColorClusters(area: area, count: Int(args.number("count").rounded()), passes: Int(args.number("passes").rounded()),
                                   perceptual: args.number("perceptual") >= 0.5, output: .palette)
        let means = try args.image("means")
        return kernel.apply(to: means.extent.isEmpty ? [try args.image("image")] : [try args.image("image"), means])
    }

    /// The palette image with each colour replaced by the mean of the input pixels whose
    /// nearest palette colour it is (one k-means step seeded by the palette); a colour no
    /// pixel chose keeps its value. Reads the input's whole extent.
    static let paletteCentroid = FilterDescriptor(
        name: "paletteCentroid", coreImageName: "CIPaletteCentroid", category: .colorEffect,
        summary: "Moves each palette color to the mean of the pixels nearest to it.",
        details: "Output = the palette's extent; colour i = mean of the input pixels whose nearest palette colour is i (binned 32³).",
        parameters: [.inputImage, ParameterDescriptor("paletteImage", .image, "The palette (at most 4096 pixels)."),
                     .number("perceptual", .boolean, default: 0, min: 0, max: 1, "1 measures distances on sRGB-encoded colors.")]
    ) { args in
        let image = try args.image("image"), palette = try args.image("paletteImage")
        guard !image.extent.isInfinite, !palette.extent.isInfinite, PixelRect(covering: palette.extent).area <= 4096 else {
            throw LumenError.invalidValue(filter: "paletteCentroid", key: "paletteImage", reason: "both images need finite extents, the palette at most 4096 pixels")
        }
        let area = PixelRect(covering: image.extent), shape = PixelRect(covering: palette.extent)
        guard !area.isEmpty, !shape.isEmpty else { return .empty }
        return ColorClusters(area: area, count: shape.area, passes: 1, perceptual: args.number("perceptual") >= 0.5, output: .shaped(shape))
            .apply(to: [image, palette])
    }

    /// Each pixel takes the nearest colour of the palette image (Euclidean distance on
    /// unpremultiplied linear RGB, or sRGB-encoded when perceptual); alpha kept.
    static let palettize = FilterDescriptor(
        name: "palettize", coreImageName: "CIPalettize", category: .colorEffect,
        summary: "Replaces each color by the nearest color of a palette image.",
        details: "nearest palette colour by Euclidean distance (linear RGB, or sRGB-encoded if perceptual); alpha kept.",
        parameters: [.inputImage, ParameterDescriptor("paletteImage", .image, "The palette (at most 4096 pixels)."),
                     .number("perceptual", .boolean, default: 0, min: 0, max: 1, "1 measures distances on sRGB-encoded colors.")]
    ) { args in
        let palette = try args.image("paletteImage")
        guard !palette.extent.isInfinite, !palette.extent.isEmpty, PixelRect(covering: palette.extent).area <= 4096 else {
            throw LumenError.invalidValue(filter: "palettize", key: "paletteImage", reason: "needs a finite extent of 1 to 4096 pixels")
        }
        return Palettize(palette: PixelRect(covering: palette.extent), perceptual: args.number("perceptual") >= 0.5)
            .apply(to: [try args.image("image"), palette])
    }
}

/// Unpremultiplied colour in the clustering space.
@inline(__always)
func clusterSpace(_ p: SIMD4<Float>, perceptual: Bool) -> SIMD3<Double> {
    guard p.w > 0 else { return .zero }
    let c = SIMD3(Double(p.x / p.w), Double(p.y / p.w), Double(p.z / p.w))
    guard perceptual else { return c }
    return SIMD3(TransferFunction.srgb(fromLinear: max(0, c.x)), TransferFunction.srgb(fromLinear: max(0, c.y)), TransferFunction.srgb(fromLinear: max(0, c.z)))
}

@inline(__always)
func fromClusterSpace(_ c: SIMD3<Double>, perceptual: Bool) -> SIMD3<Double> {
    guard perceptual else { return c }
    return SIMD3(TransferFunction.linear(fromSRGB: c.x), TransferFunction.linear(fromSRGB: c.y), TransferFunction.linear(fromSRGB: c.z))
}

/// Colour counts of an area in a 32³ grid, then k-means on them.
struct ColorClusters: ReductionKernel {
    enum Output: Hashable, Sendable { case palette, shaped(PixelRect) }
    let area: PixelRect
    let count: Int
    let passes: Int
    let perceptual: Bool
    let output: Output

    var name: String {
        if case .palette = output { return "kMeans" }
        return "paletteCentroid"
    }

    func extent(inputs: [Rect]) -> Rect {
        switch output {
        case .palette: return Rect(x: 0, y: 0, width: Double(count), height: 1)
        case let .shaped(shape): return shape.rect
        }
    }

    struct Cell: Sendable { var count: Double; var sum: SIMD3<Double> }

    static func cellIndex(_ c: SIMD3<Double>) -> Int {
        func q(_ v: Double) -> Int { min(31, max(0, Int((v * 32).rounded(.down).clamped(-1, 40)))) }
        return (q(c.z) * 32 + q(c.y)) * 32 + q(c.x)
    }

    func summarize(_ pixels: Sampler, _ rect: PixelRect) -> [Int: Cell] {
        var cells: [Int: Cell] = [:]
        for y in rect.y..<rect.maxY {
            let row = pixels.row(y, from: rect.x)
            for i in 0..<rect.width {
                let c = clusterSpace(row[i], perceptual: perceptual)
                cells[Self.cellIndex(c), default: Cell(count: 0, sum: .zero)].count += 1
                cells[Self.cellIndex(c), default: Cell(count: 0, sum: .zero)].sum += c
            }
        }
        return cells
    }

    func finish(_ summaries: [[Int: Cell]], covered: Int) -> [SIMD4<Float>] { finish(summaries, covered: covered, others: []) }

    func finish(_ summaries: [[Int: Cell]], covered: Int, others: [Sampler]) -> [SIMD4<Float>] {
        var merged: [Int: Cell] = [:]
        for s in summaries { for (k, v) in s { merged[k, default: Cell(count: 0, sum: .zero)].count += v.count; merged[k, default: Cell(count: 0, sum: .zero)].sum += v.sum } }
        // Transparent pixels of the area outside the input: black, like any other.
        let outside = Double(area.area - covered)
        if outside > 0 { merged[Self.cellIndex(.zero), default: Cell(count: 0, sum: .zero)].count += outside }
        let points = merged.keys.sorted().map { k -> (SIMD3<Double>, Double) in let c = merged[k]!; return (c.sum / c.count, c.count) }
        // Seeds: the second input's pixels, or farthest-point from the heaviest cell.
        var means: [SIMD3<Double>] = []
        if let seeds = others.first {
            let r = seeds.rect
            // Bottom row first, left to right: the order outputs are laid out in.
            for y in r.y..<r.maxY { for x in r.x..<r.maxX where means.count < count { means.append(clusterSpace(seeds.pixel(x, y), perceptual: perceptual)) } }
        }
        if means.isEmpty, let heaviest = points.max(by: { $0.1 < $1.1 }) { means.append(heaviest.0) }
        while means.count < count, !points.isEmpty {
            let far = points.max { a, b in
                means.map { ((a.0 - $0) * (a.0 - $0)).sum() }.min()! < means.map { ((b.0 - $0) * (b.0 - $0)).sum() }.min()!
            }!
            means.append(far.0)
        }
        var weights = [Double](repeating: 0, count: means.count)
        for pass in 0...passes {
            var sums = [SIMD3<Double>](repeating: .zero, count: means.count)
            weights = [Double](repeating: 0, count: means.count)
            for (p, w) in points {
                var best = 0, bestDistance = Double.infinity
                for (j, m) in means.enumerated() { let d = ((p - m) * (p - m)).sum(); if d < bestDistance { bestDistance = d; best = j } }
                sums[best] += p * w
                weights[best] += w
            }
            guard pass < passes else { break }  // the last round only counts
            for j in means.indices where weights[j] > 0 { means[j] = sums[j] / weights[j] }
        }
        let total = max(1, Double(area.area))
        var result = means.enumerated().map { j, m -> SIMD4<Float> in
            let c = fromClusterSpace(m, perceptual: perceptual), a = Float(weights[j] / total)
            return SIMD4(Float(c.x), Float(c.y), Float(c.z), 1) * (output == .palette ? a : 1)
        }
        if case .palette = output { while result.count < count { result.append(.zero) } }
        return result
    }
}

extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(high, Swift.max(low, self)) }
}

/// Nearest palette colour per pixel.
struct Palettize: ImageKernel {
    let palette: PixelRect
    let perceptual: Bool
    var name: String { "palettize" }
    func extent(inputs: [Rect]) -> Rect { inputs[0] }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { index == 0 ? rect : palette }

    func render(_ destination: Destination, inputs: [Sampler]) {
        var colors: [(SIMD3<Double>, SIMD3<Float>)] = []
        for y in palette.y..<palette.maxY { for x in palette.x..<palette.maxX {
            let p = inputs[1].pixel(x, y)
            let straight = p.w > 0 ? SIMD3(p.x / p.w, p.y / p.w, p.z / p.w) : SIMD3<Float>.zero
            colors.append((clusterSpace(p, perceptual: perceptual), straight))
        } }
        let x0 = destination.rect.x
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: x0)
            for i in 0..<count {
                let p = source[i], c = clusterSpace(p, perceptual: perceptual)
                var best = colors[0].1, bestDistance = Double.infinity
                for (k, straight) in colors { let d = ((c - k) * (c - k)).sum(); if d < bestDistance { bestDistance = d; best = straight } }
                row[i] = SIMD4(best.x * p.w, best.y * p.w, best.z * p.w, p.w)
            }
        }
    }
}
