/// Every error Lumen throws: what went wrong and where (file, line:column, filter, key).
public enum LumenError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A file could not be read, or is not an image Lumen can decode.
    case unreadable(file: String, reason: String)
    /// A file decoded partway and then failed (truncated, corrupt data).
    case corrupt(file: String, reason: String)
    /// A valid file of a variant Lumen does not support.
    case unsupported(file: String, reason: String)
    /// The header announces more pixels than the configured limit.
    case tooLarge(file: String, pixels: Int, limit: Int)
    /// Decoding the file would need more memory than the process may use (bytes).
    case outOfMemory(file: String, needed: Int, limit: Int)
    /// Writing an output failed; no partial file is left behind.
    case unwritable(file: String, reason: String)
    /// A filter name that is not in the registry.
    case unknownFilter(name: String, suggestions: [String])
    /// A parameter key the filter does not have.
    case unknownKey(filter: String, key: String, suggestions: [String])
    /// A parameter value of the wrong type, out of range, or not finite.
    case invalidValue(filter: String, key: String, reason: String)
    /// A required image input was not given.
    case missingInput(filter: String, key: String)
    /// An image that cannot be rendered as asked (infinite extent with no rect, empty rect…).
    case unrenderable(reason: String)
    /// A filter-chain error at a position in its text.
    case chain(file: String, line: Int, column: Int, message: String, excerpt: String)
    /// An asset that could not be found or whose catalog is malformed.
    case asset(name: String, reason: String)
    /// The render was stopped from outside (`RenderCancellation`).
    case cancelled

    /// The message as the command line prints it: what went wrong and where (file and line, filter and key), with suggestions for misspelt names.
    public var description: String {
        switch self {
        case let .unreadable(file, reason): return "\(file): cannot read image: \(reason)"
        case let .corrupt(file, reason): return "\(file): corrupt image: \(reason)"
        case let .unsupported(file, reason): return "\(file): unsupported image: \(reason)"
        case let .outOfMemory(file, needed, limit):
            return "\(file): decoding it needs \(MemoryLimit.text(needed)) of memory, more than the \(MemoryLimit.text(limit)) this process may use (--memory-limit, ulimit -v or the container's memory limit)"
        case let .tooLarge(file, pixels, limit):
            return "\(file): image has \(pixels) pixels, more than the limit of \(limit)"
        case let .unwritable(file, reason): return "\(file): cannot write: \(reason)"
        case let .unknownFilter(name, suggestions):
            return "unknown filter '\(name)'" + Self.didYouMean(suggestions)
        case let .unknownKey(filter, key, suggestions):
            return "\(filter): unknown key '\(key)'" + Self.didYouMean(suggestions)
        case let .invalidValue(filter, key, reason): return "\(filter): \(key): \(reason)"
        case let .missingInput(filter, key): return "\(filter): missing input '\(key)'"
        case let .unrenderable(reason): return "cannot render: \(reason)"
        case let .chain(file, line, column, message, excerpt):
            let quoted = excerpt.isEmpty ? "" : "\n    \(excerpt)"
            return "\(file):\(line):\(column): \(message)\(quoted)"
        case let .asset(name, reason): return "asset '\(name)': \(reason)"
        case .cancelled: return "the render was cancelled"
        }
    }

    private static func didYouMean(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?)"
    }
}
