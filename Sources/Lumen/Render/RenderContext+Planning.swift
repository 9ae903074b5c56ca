import LumenPlatform

// How a context turns a request into a plan: the region to render, the optimized graph's
// plan (refused when its tile recursion would need too much memory) and the tile size.
extension RenderContext {
    func outputRegion(_ image: Image, _ rect: Rect?) throws -> PixelRect {
        let wanted = rect ?? image.extent
        guard !wanted.isInfinite else {
            throw LumenError.unrenderable(reason: "the image has an infinite extent; crop it or give a size")
        }
        let region = PixelRect(covering: wanted)
        guard !region.isEmpty else { throw LumenError.unrenderable(reason: "the rectangle \(wanted) is empty") }
        guard region.area <= options.pixelLimit else {
            // Usually an input is what is too large: name it.
            if let (file, pixels) = Self.sourceOverLimit(image.node, limit: options.pixelLimit) {
                throw LumenError.tooLarge(file: file, pixels: pixels, limit: options.pixelLimit)
            }
            throw LumenError.unrenderable(reason: "the output, \(region.width)×\(region.height), is more than the pixel limit of \(options.pixelLimit)")
        }
        return region
    }

    /// The first file under `node` whose header has more pixels than `limit` (a loop, not a recursion).
    static func sourceOverLimit(_ node: ImageNode, limit: Int) -> (String, Int)? {
        var stack = [node], seen = Set<ObjectIdentifier>()
        while let next = stack.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            if let source = next.kernel as? any RowSource {
                let area = source.header.width.multipliedReportingOverflow(by: source.header.height)
                if area.overflow || area.partialValue > limit { return (source.sourceName, area.overflow ? Int.max : area.partialValue) }
            }
            stack += next.inputs
        }
        return nil
    }

    /// `image`'s graph rewritten for `region` as this context's options ask (whether to
    /// optimize, and the shrink-on-load margin): what every render, plan and direct copy uses.
    func optimizedGraph(_ image: Image, _ region: PixelRect) -> ImageNode {
        GraphOptimizer.optimize(image.node, outputRect: region, optimizations: options.optimizes,
                                shrinkOnLoadMargin: options.shrinkOnLoadMargin)
    }

    /// The optimized graph's plan for `region`, and the tile size to render it with.
    func makePlan(_ image: Image, _ region: PixelRect) throws -> (RenderPlan, tile: (width: Int, height: Int)) {
        let root = optimizedGraph(image, region)
        let plan = RenderPlan(root: root, outputRect: region, cache: cache)
        try plan.checkRecursionMemory(threads: options.threads)
        return (plan, tileSize(for: plan, in: region))
    }

    /// Intermediate pixels one tile may need before its size is reduced.
    static let tileMemoryBudget = 32 << 20
    /// Decoded source rows one band of tiles may need before the tile height is reduced.
    static let bandRowBudget = 48 << 20

    /// The configured tile size, halved (longer side first, down to 8×8) while one tile
    /// would need more than `tileMemoryBudget` of Float32 pixels at some node, or one band
    /// of tiles more than `bandRowBudget` of decoded source rows: a large shrink reads
    /// thousands of input pixels per output pixel, and its tiles must stay small for
    /// memory to stay bounded.
    private func tileSize(for plan: RenderPlan, in region: PixelRect) -> (width: Int, height: Int) {
        var width = options.tileWidth, height = options.tileHeight
        while width > 8 || height > 8 {
            let probe = PixelRect(x: region.x, y: region.maxY - min(height, region.height),
                                  width: min(width, region.width), height: min(height, region.height))
            let probePlan = RenderPlan(root: plan.root, outputRect: probe, cache: nil)
            let largest = probePlan.order.map { probePlan.region(of: $0).area }.max() ?? 0
            let rowBytes = probePlan.order.compactMap { node -> Int? in
                guard let source = node.kernel as? any RowSource else { return nil }
                return source.rows(for: probePlan.region(of: node)).count * source.decodedWidth * 4
            }.max() ?? 0
            // Divided, not multiplied: an area can be near Int.max (extreme parameters).
            if largest <= Self.tileMemoryBudget / MemoryLayout<SIMD4<Float>>.stride && rowBytes <= Self.bandRowBudget { break }
            if rowBytes > Self.bandRowBudget && height > 8 { height /= 2 }
            else if width >= height && width > 8 { width /= 2 } else if height > 8 { height /= 2 } else { width /= 2 }
        }
        return (max(8, width), max(8, height))
    }
}
