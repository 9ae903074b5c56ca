/// A node of the lazy image graph: a kernel value, its input nodes and the extent the
/// kernel gives them. Immutable and shared between images and threads; every filter,
/// source and user kernel is this one type with a different kernel.
final class ImageNode: Sendable {
    /// The area where the node can have non-transparent pixels.
    let extent: Rect
    /// Set once in `init`; emptied only in `deinit`, by the node that dies with this one
    /// (see there), when no one else can read it.
    nonisolated(unsafe) private(set) var inputs: [ImageNode]
    let kernel: any ImageKernel
    /// The structural identity: the kernel's type and values plus the inputs'
    /// identities (hashed once, when the node is made).
    let identity: NodeIdentity
    /// True when every pixel inside the extent has alpha 1. Worked out when the node is
    /// made, from its inputs' (already known), so asking never walks the graph.
    let isOpaque: Bool

    init(_ kernel: any ImageKernel, inputs: [ImageNode] = []) {
        self.kernel = kernel
        self.inputs = inputs
        self.extent = kernel.extent(inputs: inputs.map(\.extent))
        self.identity = NodeIdentity(kernel: kernel, inputs: inputs.map(\.identity))
        self.isOpaque = kernel.isOpaque(inputs: inputs.map(Image.init))
    }

    /// Releasing a recipe would otherwise recurse as deep as it is (each node releasing
    /// its inputs from its own deinit), and a recipe built in code can be 100,000 nodes
    /// deep: the inputs of every node that dies with this one are taken and released from
    /// this loop instead, so each of those deinits finds nothing left to release.
    deinit { releaseIteratively(&inputs, children: \.inputs) }

    /// The kernel's name in listings.
    var kind: String { kernel.name }

    /// The pixels the node can touch.
    var pixelExtent: PixelRect { PixelRect(covering: extent) }


    /// The same kernel over other inputs (used by graph rewrites).
    func replacingInputs(_ inputs: [ImageNode]) -> ImageNode { ImageNode(kernel, inputs: inputs) }

    /// The graph rewritten from the inputs up: each node, remade over its rewritten inputs
    /// when they changed, is given to `transform` with the node it was made from, and
    /// `transform` returns what stands for it. Each shared node is rewritten once; no
    /// recursion, as a recipe built in code can be far deeper than a thread's stack allows.
    func rewritten(_ transform: (_ node: ImageNode, _ original: ImageNode) throws -> ImageNode) rethrows -> ImageNode {
        var memo: [ObjectIdentifier: ImageNode] = [:]
        var stack: [(node: ImageNode, expanded: Bool)] = [(self, false)]
        while let (node, expanded) = stack.popLast() {
            if memo[ObjectIdentifier(node)] != nil { continue }
            if expanded {
                let inputs = node.inputs.map { memo[ObjectIdentifier($0)] ?? $0 }
                let changed = zip(inputs, node.inputs).contains { $0 !== $1 }
                memo[ObjectIdentifier(node)] = try transform(changed ? node.replacingInputs(inputs) : node, node)
                continue
            }
            stack.append((node, true))
            for input in node.inputs.reversed() where memo[ObjectIdentifier(input)] == nil { stack.append((input, false)) }
        }
        return memo[ObjectIdentifier(self)] ?? self
    }
}

/// Releases `inputs` — the references a dying object holds to others of its kind — from a
/// loop: every object that dies with it gives up its own `children` here first, so no
/// deinit finds anything left to release and the teardown never recurses, however deep
/// the graph (ImageNode and NodeIdentity both form such chains).
func releaseIteratively<Object: AnyObject>(_ inputs: inout [Object], children: ReferenceWritableKeyPath<Object, [Object]>) {
    guard !inputs.isEmpty else { return }
    var pending = inputs
    inputs = []
    while var object = pending.popLast() {
        if isKnownUniquelyReferenced(&object) {
            pending.append(contentsOf: object[keyPath: children])
            object[keyPath: children] = []
        }
    }
}

/// A kernel whose output can be opaque over part of its extent only: a dilation of an
/// opaque image (each maximum includes the pixel itself) is opaque over its input's
/// extent, not over the margin it grows by.
protocol PartlyOpaqueKernel: ImageKernel {
    /// True when every pixel of `rect` has alpha 1.
    func isOpaque(within rect: Rect, inputs: [ImageNode]) -> Bool
}

extension ImageNode {
    /// True when every pixel of `rect` has alpha 1: within an opaque node's extent, or
    /// where a `PartlyOpaqueKernel` (under at most one crop) says. Looks no deeper, so it
    /// costs the same however deep the recipe is. (An encoder writes no alpha then.)
    func isOpaque(within rect: Rect) -> Bool {
        if isOpaque { return extent.contains(rect) }
        let node = kernel is CropKernel && extent.contains(rect) ? inputs[0] : self
        return (node.kernel as? any PartlyOpaqueKernel)?.isOpaque(within: rect, inputs: node.inputs) ?? false
    }
}
