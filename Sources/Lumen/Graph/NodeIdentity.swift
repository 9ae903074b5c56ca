/// The structural identity of a graph node: its kind, its parameter values and its
/// inputs' identities. Equal recipes built separately have equal identities; the render
/// cache keys on it. Hashing is O(1) (computed once); equality compares structurally.
public final class NodeIdentity: Hashable, Sendable, CustomStringConvertible {
    public let kind: String
    /// Canonical text of the parameter values (numbers in full precision).
    public let parameters: String
    public let inputs: [NodeIdentity]
    private let hash: Int

    init(kind: String, parameters: String, inputs: [NodeIdentity]) {
        self.kind = kind
        self.parameters = parameters
        self.inputs = inputs
        var hasher = Hasher()
        hasher.combine(kind)
        hasher.combine(parameters)
        for input in inputs { hasher.combine(input.hash) }
        hash = hasher.finalize()
    }

    public static func == (l: NodeIdentity, r: NodeIdentity) -> Bool {
        l === r || (l.hash == r.hash && l.kind == r.kind && l.parameters == r.parameters && l.inputs == r.inputs)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    public var description: String {
        let args = parameters.isEmpty ? "" : "(\(parameters))"
        return inputs.isEmpty ? "\(kind)\(args)" : "\(kind)\(args)[\(inputs.map(\.description).joined(separator: ", "))]"
    }
}
