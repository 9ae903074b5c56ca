/// A description of one render for people: the graph as built and as optimized, each
/// node's extent, region of interest, tiles, pixels and time, and the cache figures.
public struct RenderReport: Sendable, CustomStringConvertible {
    /// One node of a listed graph: its kind and parameters, extent, region of interest,
    /// and what rendering it cost.
    public struct Node: Sendable {
        /// How deep the node sits below the root (0 for the output).
        public var depth: Int
        /// The node's kind: its filter or kernel name (`gaussianBlurX`, `source`…).
        public var kind: String
        /// The node's parameters as its identity records them.
        public var parameters: String
        /// The node's extent (`Rect.infinite` for generators).
        public var extent: Rect
        /// Pixels the render needed from this node (`nil` in the unoptimized listing).
        public var regionOfInterest: String?
        /// Tiles of this node the render computed.
        public var tiles: Int
        /// Pixels of this node the render computed.
        public var pixels: Int
        /// Time spent computing this node's tiles, summed over threads.
        public var seconds: Double
        /// Whether the plan keeps this node's output in the cache (it is read more than once).
        public var kept: Bool
    }

    /// The graph as it was built, one node per line, depth first (empty when the context's
    /// `Options.listsGraphs` is off).
    public let original: [Node]
    /// The graph the renderer ran after its rewrites, with the figures of this render (empty
    /// when the context's `Options.listsGraphs` is off).
    public let optimized: [Node]
    /// The cache's figures after the render.
    public let cache: RenderCache.Statistics
    /// Wall time of the render.
    public let seconds: Double
    /// Source rows decoded by this render (cache hits decode none).
    public let decodedRows: Int
    /// Rows held at once by sources that streamed through a window instead of being
    /// decoded whole into the cache (0 when none did; see `RenderContext.Options.streamingBytes`).
    public let streamedWindowRows: Int
    /// Warnings decoders raised during this render ("file: message"), e.g. libjpeg's
    /// "Corrupt JPEG data" for a damaged photo it decoded around.
    public internal(set) var warnings: [String]

    init(original: ImageNode, plan: RenderPlan, statistics: RenderStatistics?, cache: RenderCache.Statistics, seconds: Double,
         listsGraphs: Bool) {
        self.original = listsGraphs ? Self.listing(original, plan: nil, statistics: nil) : []
        self.optimized = listsGraphs ? Self.listing(plan.root, plan: plan, statistics: statistics) : []
        self.cache = cache
        self.seconds = seconds
        self.decodedRows = statistics?.decodedRows ?? 0
        self.streamedWindowRows = statistics?.windowRows ?? 0
        self.warnings = statistics?.warnings.all ?? []
    }

    private static func listing(_ root: ImageNode, plan: RenderPlan?, statistics: RenderStatistics?) -> [Node] {
        var nodes: [Node] = []
        // Depth first, inputs in order, without recursion (a recipe built in code can be
        // deeper than a stack allows recursing).
        var stack: [(node: ImageNode, depth: Int)] = [(root, 0)]
        while let (node, depth) = stack.popLast() {
            let figures = statistics?.figures[ObjectIdentifier(node)]
            nodes.append(Node(depth: depth, kind: node.kind, parameters: node.identity.parameters, extent: node.extent,
                              regionOfInterest: plan.map { $0.region(of: node).description },
                              tiles: figures?.tiles ?? 0, pixels: figures?.pixels ?? 0,
                              seconds: Double(figures?.nanoseconds ?? 0) / 1e9,
                              kept: plan?.materialized.contains(ObjectIdentifier(node)) ?? false))
            for input in node.inputs.reversed() { stack.append((input, depth + 1)) }
        }
        return nodes
    }

    /// The two listings and the figures, as `lumen apply --explain` prints them.
    public var description: String {
        func lines(_ nodes: [Node], figures: Bool) -> String {
            nodes.map { n in
                // Indented by depth up to 32 levels; deeper lines say their depth instead
                // (a recipe 100,000 deep would otherwise indent by gigabytes).
                var line = String(repeating: "  ", count: min(n.depth, 32)) + (n.depth > 32 ? "[\(n.depth)] " : "") + n.kind
                if !n.parameters.isEmpty { line += "(\(n.parameters))" }
                line += "  extent \(n.extent)"
                if let roi = n.regionOfInterest { line += "  roi \(roi)" }
                if n.kept { line += "  [kept in cache]" }
                if figures && n.tiles > 0 {
                    line += "  \(n.tiles) tiles, \(n.pixels) px, \(String(printf: "%.1f", n.seconds * 1000)) ms"
                }
                return line
            }.joined(separator: "\n")
        }
        return """
        graph as built:
        \(lines(original, figures: false))
        optimized:
        \(lines(optimized, figures: true))
        source rows decoded: \(decodedRows)\(streamedWindowRows > 0 ? ", streamed through a window of \(streamedWindowRows) rows" : "")
        \(cache)
        total: \(String(printf: "%.1f", seconds * 1000)) ms
        """
    }
}

import LumenPlatform
