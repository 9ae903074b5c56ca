import Foundation
import Lumen
import NIOCore

/// Requests for the same output while it is being rendered wait for that render instead of
/// starting their own (no stampede when a popular image's cached output is missing). Each
/// render is watched: it is cancelled at its deadline (counted from its first request's
/// arrival, so time spent queued for a slot counts), or once every client waiting for it
/// has closed its connection (when the request context knows its connection).
actor InFlightRenders {
    /// Why a render was cancelled.
    enum Stop: Sendable { case deadline, clientsGone }

    /// The connections waiting for one render, and why it was stopped, shared with its watcher.
    final class Waiters: Sendable {
        private let state = LockedValueBox((connections: [(any Channel)?](), finished: false, stop: Stop?.none))
        init(_ first: (any Channel)?) { state.withLock { $0.connections = [first] } }
        /// Joins the render unless it was stopped (then the caller starts another).
        func join(_ connection: (any Channel)?) -> Bool {
            state.withLock { s in
                guard s.stop == nil else { return false }
                s.connections.append(connection)
                return true
            }
        }
        func finish() { state.withLock { $0.finished = true } }
        var finished: Bool { state.withLock { $0.finished } }
        var stop: Stop? { state.withLock { $0.stop } }
        /// Decides, in one step with `join`, whether the render stops now: at `deadline`, or
        /// when every waiter's connection is closed (a waiter whose connection is unknown,
        /// nil, counts as listening to the end). Nothing stops a finished render.
        func stopIfDue(deadline: ContinuousClock.Instant) -> Bool {
            state.withLock { s in
                guard !s.finished, s.stop == nil else { return false }
                if ContinuousClock.now >= deadline {
                    s.stop = .deadline
                } else if s.connections.allSatisfy({ $0.map { !$0.isActive } ?? false }) {
                    s.stop = .clientsGone
                }
                return s.stop != nil
            }
        }
    }

    private struct Entry {
        let task: Task<Data, Error>
        let waiters: Waiters
    }
    private var running: [String: Entry] = [:]
    private static let watchQueue = DispatchQueue(label: "lumen-serve.render-watch", qos: .userInitiated)
    /// How often a watcher looks at the clock and the connections.
    let pollInterval: Duration

    init(pollInterval: Duration = .milliseconds(50)) { self.pollInterval = pollInterval }

    /// The output for `key`: rendered by `render` unless a render of it is already running,
    /// in which case this waits for that one. Throws `Stopped` when the render was cancelled
    /// at its deadline or because its clients left.
    func value(for key: String, connection: (any Channel)?, deadline: ContinuousClock.Instant,
               _ render: @escaping @Sendable () async throws -> Data) async throws -> Data {
        if let entry = running[key], entry.waiters.join(connection) {
            return try await Self.outcome(of: entry)
        }
        // A new render, also when one for the same key was stopped and is still unwinding.
        let entry = Entry(task: Task { try await render() }, waiters: Waiters(connection))
        running[key] = entry
        // A Dispatch timer on a queue of its own (which gets a thread even when the global
        // pool is busy), not a task: neither a busy cooperative pool nor busy workers delay it.
        let timer = DispatchSource.makeTimerSource(queue: Self.watchQueue)
        let interval = DispatchTimeInterval.nanoseconds(Int(pollInterval.components.seconds * 1_000_000_000 + pollInterval.components.attoseconds / 1_000_000_000))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [entry] in
            guard !entry.waiters.finished else { return timer.cancel() }
            guard entry.waiters.stopIfDue(deadline: deadline) else { return }
            entry.task.cancel()
            timer.cancel()
        }
        timer.resume()
        defer {
            entry.waiters.finish()
            timer.cancel()
            if running[key]?.waiters === entry.waiters { running[key] = nil }
        }
        return try await Self.outcome(of: entry)
    }

    /// A render's data, or why it was stopped (when it ended by being cancelled: a render
    /// that failed on its own just before the stop keeps its own error).
    private static func outcome(of entry: Entry) async throws -> Data {
        do {
            return try await entry.task.value
        } catch {
            let cancelled = error is CancellationError || (error as? LumenError).map { if case .cancelled = $0 { true } else { false } } ?? false
            if cancelled, let stop = entry.waiters.stop { throw Stopped(reason: stop) }
            throw error
        }
    }

    /// A render cancelled at its deadline or because nobody was waiting for it any more.
    struct Stopped: Error { let reason: Stop }
}
