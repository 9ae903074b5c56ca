#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock (a pthread mutex): what Foundation's `NSLock` is, without
/// Foundation.
public final class Lock: @unchecked Sendable {  // safe: the mutex is only reached through pthread calls
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// A new, unlocked lock.
    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting while another thread holds it.
    public func lock() { pthread_mutex_lock(mutex) }
    /// Gives the lock back (the thread that took it).
    public func unlock() { pthread_mutex_unlock(mutex) }
}

/// A lock with a condition variable (pthread): `NSCondition`'s lock, unlock, wait and
/// broadcast.
public final class Condition: @unchecked Sendable {  // safe: as Lock
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A new condition, its lock not taken.
    public init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Takes the condition's lock.
    public func lock() { mutex.lock() }
    /// Gives the condition's lock back.
    public func unlock() { mutex.unlock() }
    /// Waits, the lock held, until signalled (or woken spuriously: wait in a loop).
    public func wait() { pthread_cond_wait(condition, mutex.mutex) }
    /// Wakes every thread waiting on the condition.
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts `body` on a new thread of its own (detached), as `Thread.detachNewThread` does.
public func detachThread(_ body: @escaping @Sendable () -> Void) {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    defer { pthread_attr_destroy(&attributes) }
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(&thread, &attributes, { context in
        #if canImport(Darwin)
        let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
        #else
        let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
        #endif
        box.body()
        return nil
    }, box)
    precondition(status == 0, "pthread_create failed (\(status))")
}

/// Sleeps the calling thread for `seconds` (at most 10⁹: a longer wait is no wait to make).
public func sleepThread(seconds: Double) {
    guard seconds > 0, seconds.isFinite else { return }
    let seconds = min(seconds, 1e9)
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
