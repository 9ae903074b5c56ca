import Foundation

/// A node of the lazy image graph: an extent, inputs, and a kernel that fills an
/// output tile from input tiles covering its regions of interest.
///
/// Nodes are immutable and shared between images and threads. Subclasses override
/// `regionOfInterest(for:input:)` when they read outside the output rectangle, and
/// `render(_:inputs:)` to compute pixels. Kernels see only tiles: never thread counts,
/// tile sizes or the cache (those belong to the renderer).
class ImageNode: @unchecked Sendable {
    /// The area where the node can have non-transparent pixels.
    let extent: Rect
    let inputs: [ImageNode]
    let kind: String
    private let describeParameters: () -> String
    private var cachedIdentity: NodeIdentity?
    /// A small pool of locks shared by all nodes (striped by address), so a node costs
    /// no lock allocation of its own.
    private static let identityLocks = (0..<64).map { _ in NSLock() }

    /// `parameters` is the canonical text of everything besides the inputs that changes
    /// pixels; it is only evaluated when the identity is first needed, so building a
    /// graph costs no formatting.
    init(kind: String, parameters: @autoclosure @escaping () -> String = "", extent: Rect, inputs: [ImageNode] = []) {
        self.extent = extent
        self.inputs = inputs
        self.kind = kind
        self.describeParameters = parameters
    }

    /// The structural identity (computed once, on first use; thread-safe).
    var identity: NodeIdentity {
        let lock = Self.identityLocks[Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self).hashValue)) & 63]
        lock.lock()
        let cached = cachedIdentity
        lock.unlock()
        if let cached { return cached }
        // Computed outside the lock: parameters may mention other nodes' identities, whose
        // locks may be this stripe. Racing threads compute equal values; the first is kept.
        let made = NodeIdentity(kind: kind, parameters: describeParameters(), inputs: inputs.map(\.identity))
        lock.lock()
        defer { lock.unlock() }
        if let cachedIdentity { return cachedIdentity }
        cachedIdentity = made
        return made
    }

    /// The pixels the node can touch.
    var pixelExtent: PixelRect { PixelRect(covering: extent) }

    /// The rectangle of input `index` needed to compute `rect` of this node.
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect }

    /// Fills `output` (whose rect the renderer chose) from `inputs`, one tile per input
    /// covering `regionOfInterest(for: output.rect, input: i)`. Pixels outside `extent`
    /// may hold anything; the renderer clears them.
    func render(_ output: Tile, inputs: [Tile]) {
        preconditionFailure("\(kind) does not render")
    }

    /// True when every pixel inside the extent has alpha 1.
    var isOpaque: Bool { false }

    /// When the renderer keeps this node's pixels in the render cache.
    enum CachePolicy {
        /// Cheap per pixel: recompute.
        case never
        /// Keep once the same node is rendered again (blurs, resamples).
        case whenReused
        /// Keep from the first render (generated masks that batches share).
        case always
    }

    var cachePolicy: CachePolicy { .never }

    /// Tile size for computing this node's kept pixels, when the default would make its
    /// inputs' regions of interest very large (shrinking nodes).
    var preferredTileSize: (width: Int, height: Int)? { nil }

    /// The same node over other inputs (used by graph rewrites).
    func replacingInputs(_ inputs: [ImageNode]) -> ImageNode {
        precondition(inputs.isEmpty, "\(kind) must implement replacingInputs")
        return self
    }
}
