import LumenPlatform

/// An immutable image recipe with Core Image's semantics: an extent (possibly
/// infinite) in pixels with the origin at the bottom-left, and a graph of operations
/// that computes pixels only when a `RenderContext` renders it. Building costs
/// microseconds per node and touches no pixels.
public struct Image: Sendable, Hashable, CustomStringConvertible {
    let node: ImageNode

    init(_ node: ImageNode) { self.node = node }

    /// Where the image can have non-transparent pixels; `Rect.infinite` for generators.
    public var extent: Rect { node.extent }

    /// The structural identity: equal recipes built separately compare equal.
    public var identity: NodeIdentity { node.identity }

    /// Pixels per point for images from multi-resolution assets (1 otherwise).
    public internal(set) var scale: Double = 1

    /// Equal when the recipes are structurally equal (the same kernels with the same values over equal inputs), however they were built.
    public static func == (l: Image, r: Image) -> Bool { l.node.identity == r.node.identity }
    /// Hashes the recipe's structural identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(node.identity) }
    /// The top node's kind and the extent, for debugging.
    public var description: String { "Image(\(node.kind), extent: \(extent))" }

    /// True when every pixel inside the extent has alpha 1 (Core Image's `isOpaque`).
    public var isOpaque: Bool { node.isOpaque }
}
