/// The structural identity of a graph node: its kernel (type and stored values) and
/// its inputs' identities. Equal recipes built separately have equal identities; the
/// render cache keys on it. Hashing is O(1) (computed once); equality compares
/// structurally, through each kernel's own `Hashable` conformance.
public final class NodeIdentity: Hashable, Sendable, CustomStringConvertible {
    let kernel: any ImageKernel
    /// The identities of the node's inputs, in order.
    nonisolated(unsafe) public private(set) var inputs: [NodeIdentity]
    private let hash: Int

    init(kernel: any ImageKernel, inputs: [NodeIdentity]) {
        self.kernel = kernel
        self.inputs = inputs
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(type(of: kernel)))
        hasher.combine(kernel)
        for input in inputs { hasher.combine(input.hash) }
        hash = hasher.finalize()
    }

    /// Releases a deep chain of identities from a loop, not by recursion (as `ImageNode` does).
    deinit { releaseIteratively(&inputs, children: \.inputs) }

    /// The kernel's name (`gaussianBlur`, `source`).
    public var kind: String { kernel.name }

    /// The kernel's values as text, for people (not used for equality).
    public var parameters: String { KernelDescription.values(of: kernel) }

    /// Equal when the kernels are of the same type with equal values and the inputs are equal (structural, so two separately built recipes compare equal).
    public static func == (l: NodeIdentity, r: NodeIdentity) -> Bool {
        l === r || (l.hash == r.hash && l.kernel.isEqual(to: r.kernel) && l.inputs == r.inputs)
    }

    /// Feeds the precomputed structural hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The graph under this node as text: `kind(values)[inputs…]`.
    public var description: String {
        let values = parameters
        let args = values.isEmpty ? "" : "(\(values))"
        return inputs.isEmpty ? "\(kind)\(args)" : "\(kind)\(args)[\(inputs.map(\.description).joined(separator: ", "))]"
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
