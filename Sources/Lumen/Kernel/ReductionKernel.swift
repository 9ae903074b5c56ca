/// A kernel that reduces a rectangle of its one input to a small image (Core Image's
/// reductions: `CIAreaAverage`, `CIAreaHistogram`…). The renderer does not hand it an
/// input tile: the area is read in fixed 128 × 128 blocks aligned to the area's corner,
/// spread over the render's threads, each summarised by `summarize`; the summaries are
/// then merged in block order by `finish`. Blocks never depend on the tile size or the
/// thread count, so neither does the result, bit for bit.
protocol ReductionKernel: ImageKernel {
    associatedtype Summary: Sendable
    /// The input rectangle reduced (already in whole pixels).
    var area: PixelRect { get }
    /// The summary of `rect` (a block of `area` inside the input's extent), read from `pixels`.
    func summarize(_ pixels: Sampler, _ rect: PixelRect) -> Summary
    /// The output pixels (rows from the bottom, the extent's width per row) from the
    /// blocks' summaries in order; `area` pixels outside the input's extent are
    /// transparent and are not in any block (`covered` pixels are).
    func finish(_ summaries: [Summary], covered: Int) -> [SIMD4<Float>]
    /// As `finish`, also given the pixels of the kernel's other inputs over their extents
    /// (k-means seeds, a palette); the default ignores them.
    func finish(_ summaries: [Summary], covered: Int, others: [Sampler]) -> [SIMD4<Float>]
}

extension ReductionKernel {
    static var blockSize: Int { 128 }

    /// The output lies at the origin (Core Image renders reductions from (0, 0)).
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { index == 0 ? area : .unbounded }
    /// Reductions are read whole: keep the small result from the first render.
    var cachePolicy: CachePolicy { .always }

    func finish(_ summaries: [Summary], covered: Int, others: [Sampler]) -> [SIMD4<Float>] { finish(summaries, covered: covered) }

    /// Never called: the renderer calls `reduce` for reductions instead of handing them tiles.
    func render(_ destination: Destination, inputs: [Sampler]) {}

    func reduce(_ node: ImageNode, into output: Tile, renderer: Renderer) throws {
        let input = node.inputs[0]
        let inside = area.intersection(input.pixelExtent)
        guard inside.area <= renderer.pixelLimit else {
            throw LumenError.unrenderable(reason: "\(name): the area \(area) holds \(inside.area) pixels of its input, more than the pixel limit \(renderer.pixelLimit)")
        }
        var blocks: [PixelRect] = []
        if !inside.isEmpty {
            let b = Self.blockSize
            // Block edges on the grid anchored at the area's corner, clipped to the input.
            let firstX = area.x + (inside.x - area.x) / b * b, firstY = area.y + (inside.y - area.y) / b * b
            var y = firstY
            while y < inside.maxY {
                var x = firstX
                while x < inside.maxX {
                    blocks.append(PixelRect(x: x, y: y, width: b, height: b).intersection(inside))
                    x += b
                }
                y += b
            }
        }
        let summaries = LockedValue([Summary?](repeating: nil, count: blocks.count))
        try forEachConcurrently(blocks.count, threads: renderer.threads) { index in
            let tile = try renderer.evaluate(input, blocks[index])
            defer { renderer.pool.give(tile) }
            let summary = summarize(Sampler(tile), blocks[index])
            summaries.withLock { $0[index] = summary }
        }
        // Other inputs (small: seeds, palettes) are read whole.
        var others: [Tile] = []
        defer { others.forEach(renderer.pool.give) }
        for other in node.inputs.dropFirst() {
            guard other.pixelExtent.area <= 1 << 20 else {
                throw LumenError.unrenderable(reason: "\(name): a second input of \(other.pixelExtent.area) pixels; at most 1048576")
            }
            others.append(try renderer.evaluate(other, other.pixelExtent))
        }
        let pixels = finish(summaries.withLock { $0.map { $0! } }, covered: inside.area, others: others.map(Sampler.init))
        let extent = PixelRect(covering: extent(inputs: [input.extent]))
        for y in output.rect.y..<output.rect.maxY {
            let row = output.row(y)
            for x in output.rect.x..<output.rect.maxX {
                let i = (y - extent.y) * extent.width + (x - extent.x)
                let inside = x >= extent.x && x < extent.maxX && y >= extent.y && y < extent.maxY
                row[x - output.rect.x] = inside && i < pixels.count ? pixels[i] : .zero
            }
        }
    }
}
