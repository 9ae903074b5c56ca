import Foundation

/// A value under a lock.
final class LockedValueBox<Value: Sendable>: @unchecked Sendable {  // `value` only under `lock`
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    /// Runs `body` on the value under the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
    /// Replaces the value with `new` when `condition` holds for it; returns whether it did.
    func exchange(if condition: (Value) -> Bool, with new: Value) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard condition(value) else { return false }
        value = new
        return true
    }
}

/// A flag set once, read from any thread.
final class LockedFlag: @unchecked Sendable {  // `value` only under `lock`
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
