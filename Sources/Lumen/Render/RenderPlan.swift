import LumenPlatform

/// What the renderer works out before computing pixels: the optimized graph, the
/// region of interest of every node (pulled backwards from the output rectangle), how
/// many consumers each node has, and which intermediates to keep in the cache.
struct RenderPlan: Sendable {
    let root: ImageNode
    let outputRect: PixelRect
    /// Nodes with inputs before consumers.
    private(set) var order: [ImageNode] = []
    private(set) var regionOfInterest: [ObjectIdentifier: PixelRect] = [:]
    private(set) var consumers: [ObjectIdentifier: Int] = [:]
    /// Intermediates rendered once over their whole region of interest and kept.
    private(set) var materialized: Set<ObjectIdentifier> = []
    /// Bytes of tile buffers one worker holds at once while pulling a tile from the output
    /// down to the sources (one buffer per level of the recursion), at the worst node, after
    /// intermediates were kept where regions grow; the context refuses a render whose
    /// workers would together hold more than its budget.
    private(set) var tileRecursionPeak: (bytes: Int, node: ImageNode?) = (0, nil)

    init(root: ImageNode, outputRect: PixelRect, cache: RenderCache?) {
        self.root = root
        self.outputRect = outputRect
        collect(root)
        pullRegionsBackwards()
        if let cache {
            keepWhereRegionsGrow(cache: cache)
            chooseIntermediates(cache: cache)
        }
    }

    func region(of node: ImageNode) -> PixelRect { regionOfInterest[ObjectIdentifier(node)] ?? .empty }

    /// Tile buffers all workers may hold at once along their recursions (see
    /// `tileRecursionPeak`): past it a render is refused before it starts.
    static let recursionMemoryBudget = 4 << 30

    /// Throws, naming the deepest node and the figures, when `threads` workers would
    /// together hold more than `recursionMemoryBudget` of tiles.
    func checkRecursionMemory(threads: Int) throws {
        let (held, overflow) = tileRecursionPeak.bytes.multipliedReportingOverflow(by: max(1, threads))
        guard overflow || held > Self.recursionMemoryBudget, let node = tileRecursionPeak.node else { return }
        let gib = Double(tileRecursionPeak.bytes) / Double(1 << 30)
        throw LumenError.unrenderable(reason: "this graph's regions grow from step to step (down to '\(node.kind)'): "
            + "each of \(threads) workers would hold \(gib > 1000 ? ">1000" : String(printf: "%.1f", gib)) GiB of tiles at once, "
            + "more than the \(Self.recursionMemoryBudget >> 30) GiB limit; render a smaller region, use fewer steps, "
            + "or give the cache room to keep intermediate steps (--cache-size)")
    }

    /// Post-order without recursion (graphs can be deep): inputs before consumers.
    private mutating func collect(_ root: ImageNode) {
        var visited: Set<ObjectIdentifier> = []
        var stack: [(node: ImageNode, expanded: Bool)] = [(root, false)]
        while let (node, expanded) = stack.popLast() {
            if expanded { order.append(node); continue }
            let id = ObjectIdentifier(node)
            consumers[id, default: 0] += 1
            guard visited.insert(id).inserted else { continue }
            stack.append((node, true))
            for input in node.inputs.reversed() { stack.append((input, false)) }
        }
        consumers[ObjectIdentifier(root)] = 0
    }

    private mutating func pullRegionsBackwards() {
        regionOfInterest[ObjectIdentifier(root)] = outputRect.intersection(root.pixelExtent)
        for node in order.reversed() {
            let rect = regionOfInterest[ObjectIdentifier(node)] ?? .empty
            guard !rect.isEmpty else { continue }
            for (i, input) in node.inputs.enumerated() {
                let needed = node.kernel.regionOfInterest(for: rect, input: i).intersection(input.pixelExtent)
                regionOfInterest[ObjectIdentifier(input), default: .empty] =
                    regionOfInterest[ObjectIdentifier(input), default: .empty].union(needed)
            }
        }
    }

    /// The side of the tile a pull is estimated with (the renderer's tiles are this size or smaller).
    static let probeSide = 256
    /// Levels a pull goes down before growth may keep a node: a downscale or a distortion
    /// reads a large region at once, which is the work it asks for, not growth to bound.
    static let keepAfterLevels = 16
    /// Levels a pull goes down before a node is kept whatever its growth: a chain of
    /// thousands of steps would otherwise hold a tile per step along the recursion.
    static let keepEveryLevels = 128

    /// A probe tile at the centre of `region` (regions clipped at a corner grow less).
    static func probeTile(in region: PixelRect) -> PixelRect {
        let width = min(probeSide, region.width), height = min(probeSide, region.height)
        return PixelRect(x: region.x + (region.width - width) / 2, y: region.y + (region.height - height) / 2,
                         width: width, height: height)
    }

    /// A long chain whose regions grow from step to step (hundreds of small blurs, each a
    /// pixel wider than the last) makes every output tile recompute, and hold at once, a
    /// larger region of every level below it: work quadratic in the chain's length and
    /// gigabytes of tiles. Following one probe tile from the output down, a node that is at
    /// least `keepAfterLevels` below where the pull started and whose pulled region has
    /// more than doubled is kept whole (computed once, tile by tile, like any kept
    /// intermediate) when its region fits in half the cache; the pull starts again from a
    /// fresh tile there. So is any node `keepEveryLevels` down a pull, which also bounds
    /// how deep the renderer recurses. What stays is measured in `tileRecursionPeak`.
    private mutating func keepWhereRegionsGrow(cache: RenderCache) {
        struct Pull { var rect: PixelRect; var startArea: Int; var levels: Int; var bytes: Int }
        func bytes(_ rect: PixelRect) -> Int {
            let (product, overflow) = rect.area.multipliedReportingOverflow(by: MemoryLayout<SIMD4<Float>>.stride)
            return overflow ? Int.max / 4 : product
        }
        let fits = cache.byteLimit / 2 / MemoryLayout<SIMD4<Float>>.stride
        let probe = Self.probeTile(in: outputRect.intersection(root.pixelExtent))
        guard !probe.isEmpty else { return }
        var pulls: [ObjectIdentifier: Pull] = [ObjectIdentifier(root): Pull(rect: probe, startArea: probe.area, levels: 0, bytes: bytes(probe))]
        for node in order.reversed() {
            let id = ObjectIdentifier(node)
            guard var pull = pulls[id], !pull.rect.isEmpty else { continue }
            if pull.bytes > tileRecursionPeak.bytes { tileRecursionPeak = (pull.bytes, node) }
            let region = self.region(of: node)
            let grown = pull.levels >= Self.keepAfterLevels && pull.rect.area / 2 > pull.startArea
            if !node.inputs.isEmpty, grown || pull.levels >= Self.keepEveryLevels, !region.isEmpty, region.area <= fits {
                materialized.insert(id)
                let fresh = Self.probeTile(in: region)
                pull = Pull(rect: fresh, startArea: fresh.area, levels: 0, bytes: bytes(fresh))
            }
            for (i, input) in node.inputs.enumerated() {
                var needed = node.kernel.regionOfInterest(for: pull.rect, input: i).intersection(input.pixelExtent)
                var next = Pull(rect: needed, startArea: pull.startArea, levels: pull.levels + 1, bytes: 0)
                if node.kernel is any ReductionKernel {
                    // A reduction reads its input block by block: each block starts a pull.
                    needed = Self.probeTile(in: needed)
                    next = Pull(rect: needed, startArea: needed.area, levels: 0, bytes: 0)
                }
                let (sum, overflow) = pull.bytes.addingReportingOverflow(bytes(needed))
                next.bytes = overflow ? Int.max / 4 : sum
                let inputID = ObjectIdentifier(input)
                if let seen = pulls[inputID] {
                    next = Pull(rect: seen.rect.union(next.rect), startArea: min(seen.startArea, next.startArea),
                                levels: max(seen.levels, next.levels), bytes: max(seen.bytes, next.bytes))
                }
                pulls[inputID] = next
            }
        }
    }

    /// Keeps an intermediate whose policy asks for it, when its region fits in half the
    /// cache: generated masks from their first render, blurs and resamples once read
    /// more than once (by several consumers here, or by an earlier render on this cache).
    /// The output itself is not kept for being asked again, nor what it only crops or moves
    /// by whole pixels: an earlier render of the same picture is the caller's to keep (a
    /// server's output cache), and keeping it would cost every repeated render a whole extra
    /// copy, and the cache room of the inputs worth keeping (a server asked for a thumbnail
    /// twice spent 6 MB and 1,600 page faults on it, and pushed the decoded photos out).
    private mutating func chooseIntermediates(cache: RenderCache) {
        let output = outputNodes()
        for node in order where node.kernel.cachePolicy != .never {
            let region = self.region(of: node)
            // Divided, not multiplied: a region's area can be near Int.max (extreme parameters).
            guard !region.isEmpty, region.area <= cache.byteLimit / 2 / MemoryLayout<SIMD4<Float>>.stride else { continue }
            // Noted for the output too: a later render may read it as its input.
            let reused = cache.noteUse(of: node.identity) && !output.contains(ObjectIdentifier(node))
            if node.kernel.cachePolicy == .always || reused || consumers[ObjectIdentifier(node), default: 0] > 1 {
                materialized.insert(ObjectIdentifier(node))
            }
        }
    }

    /// The root and the nodes whose pixels reach it only cropped or moved by whole pixels
    /// (a thumbnail's crop to its box): the output, as far as keeping goes.
    private func outputNodes() -> Set<ObjectIdentifier> {
        var nodes: Set<ObjectIdentifier> = [ObjectIdentifier(root)]
        var node = root
        while node.inputs.count == 1, node.kernel is CropKernel || (node.kernel as? AffineKernel)?.integerTranslation != nil,
              consumers[ObjectIdentifier(node.inputs[0]), default: 0] == 1 {
            node = node.inputs[0]
            nodes.insert(ObjectIdentifier(node))
        }
        return nodes
    }
}
