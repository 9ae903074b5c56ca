import LumenPlatform

/// Stops renders from outside: a server's deadline, a client gone. Renders started inside
/// `whileRendering` check it before each tile and each band they decode or write, and
/// throw `LumenError.cancelled` once it is cancelled; nothing is written (a file being
/// written is removed, as for any failed write).
public final class RenderCancellation: Sendable {
    private let flag = LockedValue(false)

    /// A cancellation not yet cancelled.
    public init() {}

    /// Asks the renders to stop; safe from any thread, at any time.
    public func cancel() { flag.withLock { $0 = true } }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.withLock { $0 } }

    /// Runs `body`; renders it starts stop at their next tile once this is cancelled.
    public func whileRendering<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// The cancellation renders started here check (set by `whileRendering`).
    @TaskLocal static var current: RenderCancellation?

    /// Throws when cancelled.
    func check() throws {
        if isCancelled { throw LumenError.cancelled }
    }
}
