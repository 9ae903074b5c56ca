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

    init(root: ImageNode, outputRect: PixelRect, cache: RenderCache?) {
        self.root = root
        self.outputRect = outputRect
        collect(root)
        pullRegionsBackwards()
        if let cache { chooseIntermediates(cache: cache) }
    }

    func region(of node: ImageNode) -> PixelRect { regionOfInterest[ObjectIdentifier(node)] ?? .empty }

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

    /// Keeps an intermediate whose policy asks for it, when its region fits in half the
    /// cache: generated masks from their first render, blurs and resamples once read
    /// more than once (by several consumers here, or by an earlier render on this cache).
    private mutating func chooseIntermediates(cache: RenderCache) {
        for node in order where node.kernel.cachePolicy != .never {
            let region = self.region(of: node)
            // Divided, not multiplied: a region's area can be near Int.max (extreme parameters).
            guard !region.isEmpty, region.area <= cache.byteLimit / 2 / MemoryLayout<SIMD4<Float>>.stride else { continue }
            let reused = cache.noteUse(of: node.identity)
            if node.kernel.cachePolicy == .always || reused || consumers[ObjectIdentifier(node), default: 0] > 1 {
                materialized.insert(ObjectIdentifier(node))
            }
        }
    }
}
