import LumenPlatform

/// A value behind a lock: the one place where shared mutable state is reached from
/// several threads. Everything else is immutable or confined, and checked as such by
/// the compiler.
final class LockedValue<Value>: @unchecked Sendable {  // safe: `value` is only touched under `lock`
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
