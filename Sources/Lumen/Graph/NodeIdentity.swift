/// The structural identity of a graph node: its kernel (type and stored values) and
/// its inputs' identities. Equal recipes built separately have equal identities; the
/// render cache keys on it. Hashing and equality are O(1): each identity carries a
/// 128-bit digest of the whole graph under it (two independently keyed hashes, made once
/// from the inputs' digests), and equality compares the kernels themselves and the
/// inputs' digests, so a recipe 100,000 filters deep compares in constant time. Two
/// different graphs would need equal 128-bit digests at every input to compare equal.
public final class NodeIdentity: Hashable, Sendable, CustomStringConvertible {
    let kernel: any ImageKernel
    /// The identities of the node's inputs, in order.
    nonisolated(unsafe) public private(set) var inputs: [NodeIdentity]
    private let hash: Int
    /// A second hash of the same content, keyed differently: with `hash`, the digest.
    private let check: Int
    /// Bytes the kernels of this graph hold themselves (`ImageKernel.retainedBytes`: an
    /// upload's encoded bytes), which whatever keeps this identity keeps alive: the largest
    /// any one kernel under it holds. A graph reads one upload however many times it reads
    /// it (a sum would count it once per path, and a graph that reads it through many
    /// paths would look too large to keep); two different buffers in one graph count as
    /// the larger.
    let retainedBytes: Int

    /// The 128-bit digest alone, for remembering that a graph was seen without keeping it
    /// (and the bytes it holds) alive.
    struct Digest: Hashable { let hash: Int, check: Int }
    var digest: Digest { Digest(hash: hash, check: check) }

    init(kernel: any ImageKernel, inputs: [NodeIdentity]) {
        self.kernel = kernel
        self.inputs = inputs
        var hasher = Hasher(), checker = Hasher()
        checker.combine(0x9E37_79B9_7F4A_7C15 as UInt64)
        for h in [0, 1] {
            var state = h == 0 ? hasher : checker
            state.combine(ObjectIdentifier(type(of: kernel)))
            state.combine(kernel)
            for input in inputs {
                state.combine(input.hash)
                state.combine(input.check)
            }
            if h == 0 { hasher = state } else { checker = state }
        }
        hash = hasher.finalize()
        check = checker.finalize()
        retainedBytes = inputs.reduce(kernel.retainedBytes) { max($0, $1.retainedBytes) }
    }

    /// Releases a deep chain of identities from a loop, not by recursion (as `ImageNode` does).
    deinit { releaseIteratively(&inputs, children: \.inputs) }

    /// The kernel's name (`gaussianBlur`, `source`).
    public var kind: String { kernel.name }

    /// The kernel's values as text, for people (not used for equality).
    public var parameters: String { KernelDescription.values(of: kernel) }

    /// Equal when the kernels are of the same type with equal values and the inputs' graphs
    /// have equal digests (structural, so two separately built recipes compare equal).
    public static func == (l: NodeIdentity, r: NodeIdentity) -> Bool {
        if l === r { return true }
        guard l.hash == r.hash, l.check == r.check, l.inputs.count == r.inputs.count, l.kernel.isEqual(to: r.kernel) else { return false }
        return zip(l.inputs, r.inputs).allSatisfy { $0 === $1 || ($0.hash == $1.hash && $0.check == $1.check) }
    }

    /// Feeds the precomputed structural hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The graph under this node as text: `kind(values)[inputs…]`. Written from a loop
    /// (what is left to write is a stack), so any depth is safe.
    public var description: String {
        enum Piece { case node(NodeIdentity), text(String) }
        var out = ""
        var stack: [Piece] = [.node(self)]
        while let piece = stack.popLast() {
            switch piece {
            case let .text(text): out += text
            case let .node(node):
                let values = node.parameters
                out += values.isEmpty ? node.kind : "\(node.kind)(\(values))"
                guard !node.inputs.isEmpty else { continue }
                out += "["
                stack.append(.text("]"))
                for (i, input) in node.inputs.enumerated().reversed() {
                    stack.append(.node(input))
                    if i > 0 { stack.append(.text(", ")) }
                }
            }
        }
        return out
    }
}

/// Kernel values as text for listings: a kernel's own `description` when it has one,
/// otherwise its stored properties read by reflection (so listings, like identities,
/// never go out of date). Long arrays are summarized.
enum KernelDescription {
    static func values(of kernel: any ImageKernel) -> String {
        if let described = kernel as? any CustomStringConvertible { return described.description }
        return Mirror(reflecting: kernel).children.compactMap { child -> String? in
            guard let label = child.label, let text = short(child.value) else { return nil }
            return "\(label): \(text)"
        }.joined(separator: ", ")
    }

    private static func short(_ value: Any) -> String? {
        let mirror = Mirror(reflecting: value)
        if String(describing: mirror.subjectType).hasPrefix("DeterminedByIdentity") { return nil }
        if mirror.displayStyle == .collection, mirror.children.count > 6 { return "[\(mirror.children.count) values]" }
        if mirror.displayStyle == .struct, mirror.children.count > 0,
           !(value is any CustomStringConvertible) { return nil }
        let text = String(describing: value)
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }
}
