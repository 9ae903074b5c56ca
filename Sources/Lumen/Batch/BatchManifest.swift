import LumenPlatform

/// One input of a batch: its path, an output path when the manifest names one, and
/// chain parameters for this input only (`--set` values, as text).
public struct BatchItem: Sendable, Hashable {
    /// The input file's path.
    public var input: String
    /// The output path the manifest gives (relative to the output folder), or nil to name it after the input.
    public var output: String?
    /// Values of the chain's `param`s for this input, as text (`--set` syntax).
    public var settings: [String: String]

    /// An item with an optional output path and per-input settings.
    public init(input: String, output: String? = nil, settings: [String: String] = [:]) {
        self.input = input
        self.output = output
        self.settings = settings
    }
}

/// The inputs of a batch, from the command line or a manifest: one path per line, or
/// JSON lines `{"input": "a.jpg", "output": "out/a.png", "set": {"strength": "0.6"}}`.
/// Blank lines and lines starting with `#` are skipped.
public enum BatchManifest {
    /// Parses manifest text; `name` names the manifest in errors (`file:line: message`).
    public static func parse(_ text: String, name: String) throws -> [BatchItem] {
        var items: [BatchItem] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard line.hasPrefix("{") else { items.append(BatchItem(input: line)); continue }
            func fail(_ message: String) -> LumenError {
                .chain(file: name, line: index + 1, column: 1, message: message, excerpt: String(line.prefix(120)))
            }
            guard let object = JSONValue.parse(Data(line.utf8))?.object else {
                throw fail("not a JSON object")
            }
            guard let input = object["input"]?.string, !input.isEmpty else { throw fail("needs \"input\": a path") }
            if let unknown = object.keys.first(where: { !["input", "output", "set"].contains($0) }) {
                throw fail("unknown key \"\(unknown)\" (expected input, output, set)")
            }
            var settings: [String: String] = [:]
            if let set = object["set"] {
                guard let set = set.object else { throw fail("\"set\" must be an object of parameter values") }
                for (key, value) in set {
                    switch value {
                    case .string(let text): settings[key] = text
                    case .number: settings[key] = value.numberText
                    case .bool(let flag): settings[key] = flag ? "1" : "0"  // as JSONSerialization's NSNumber gave it
                    default: throw fail("\"set\".\(key) must be a number or text")
                    }
                }
            }
            let output = object["output"]?.string
            if object["output"] != nil && output == nil { throw fail("\"output\" must be a path") }
            items.append(BatchItem(input: input, output: output, settings: settings))
        }
        return items
    }

    /// Shard `index` of `count` (0 ≤ index < count): the items whose position in the
    /// manifest is `index` modulo `count`. The same manifest and K/N always give the
    /// same items, and the N shards cover it exactly once (as Kubernetes Indexed Jobs'
    /// `JOB_COMPLETION_INDEX` and array jobs expect).
    public static func shard(_ items: [BatchItem], index: Int, count: Int) -> [BatchItem] {
        guard count > 1 else { return items }
        return items.enumerated().filter { $0.offset % count == index }.map(\.element)
    }
}
