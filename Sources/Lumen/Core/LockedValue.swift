import LumenPlatform

/// A value behind a lock: the one place where shared mutable state is reached from
/// several threads. Everything else is immutable or confined, and checked as such by
/// the compiler.
final class LockedValue<Value>: @unchecked Sendable {  // safe: `value` is only touched under the condition's lock
    private let condition = Condition()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Waits until `ready` holds for the value (the lock given up meanwhile; another thread
    /// that changes what `ready` reads calls `wakeWaiters`), then runs `body` with it.
    func withLock<R>(waitingUntil ready: (Value) -> Bool, _ body: (inout Value) throws -> R) rethrows -> R {
        condition.lock()
        defer { condition.unlock() }
        while !ready(value) { condition.wait() }
        return try body(&value)
    }

    /// Wakes the threads waiting in `withLock(waitingUntil:)`, to test the value again.
    func wakeWaiters() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
