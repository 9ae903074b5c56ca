import LumenPlatform

/// Warnings the codec libraries raise while decoding — libjpeg's "Corrupt JPEG data: …",
/// libpng's and libtiff's warnings — collected for one render, each with its file; or,
/// with `failOnWarning` (libvips's `fail` option, `--fail-on warning`), errors instead.
public final class DecodeWarnings: Sendable {
    /// Whether a warning stops the decode as an error.
    public let failOnWarning: Bool
    private let messages = LockedValue([String]())

    /// A collector; with `failOnWarning` the first warning becomes an error.
    public init(failOnWarning: Bool = false) { self.failOnWarning = failOnWarning }

    /// "file: message" lines, in the order they were raised, each once.
    public var all: [String] { messages.withLock { $0 } }

    /// Where decoders on this thread report (set around a decode by the render).
    @TaskLocal static var current: DecodeWarnings?

    /// Reports a warning about `file` to the current collector; throws when it fails on warnings.
    static func report(file: String, _ message: String) throws {
        guard let sink = current else { return }
        if sink.failOnWarning {
            throw LumenError.corrupt(file: file, reason: "\(message) (a decoder warning, an error with --fail-on warning)")
        }
        let line = "\(file): \(message)"
        sink.messages.withLock { if !$0.contains(line) && $0.count < 100 { $0.append(line) } }
    }
}
