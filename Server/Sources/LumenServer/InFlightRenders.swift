import Foundation
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
        func add(_ connection: (any Channel)?) { state.withLock { $0.connections.append(connection) } }
        func finish() { state.withLock { $0.finished = true } }
        var finished: Bool { state.withLock { $0.finished } }
        var stop: Stop? { state.withLock { $0.stop } }
        func stopped(_ reason: Stop) { state.withLock { $0.stop = reason } }
        /// True once every waiter's connection is closed; a waiter whose connection is
        /// unknown (nil) counts as listening to the end.
        var allGone: Bool { state.withLock { $0.connections.allSatisfy { $0.map { !$0.isActive } ?? false } } }
    }

    private struct Entry {
        let task: Task<Data, Error>
        let waiters: Waiters
    }
    private var running: [String: Entry] = [:]
    /// How often a watcher looks at the clock and the connections.
    let pollInterval: Duration

    init(pollInterval: Duration = .milliseconds(50)) { self.pollInterval = pollInterval }

    /// The output for `key`: rendered by `render` unless a render of it is already running,
    /// in which case this waits for that one. Throws `Stopped` when the render was cancelled
    /// at its deadline or because its clients left.
    func value(for key: String, connection: (any Channel)?, deadline: ContinuousClock.Instant,
               _ render: @escaping @Sendable () async throws -> Data) async throws -> Data {
        if let entry = running[key] {
            entry.waiters.add(connection)
            return try await Self.outcome(of: entry)
        }
        let entry = Entry(task: Task { try await render() }, waiters: Waiters(connection))
        running[key] = entry
        // A Dispatch timer, not a task: a cooperative pool kept busy cannot delay the stop.
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = DispatchTimeInterval.nanoseconds(Int(pollInterval.components.seconds * 1_000_000_000 + pollInterval.components.attoseconds / 1_000_000_000))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [entry] in
            guard !entry.waiters.finished else { return timer.cancel() }
            let stop: Stop? = ContinuousClock.now >= deadline ? .deadline : entry.waiters.allGone ? .clientsGone : nil
            guard let stop else { return }
            entry.waiters.stopped(stop)
            entry.task.cancel()
            timer.cancel()
        }
        timer.resume()
        defer {
            entry.waiters.finish()
            timer.cancel()
            running[key] = nil
        }
        return try await Self.outcome(of: entry)
    }

    /// A render's data, or why it was stopped.
    private static func outcome(of entry: Entry) async throws -> Data {
        do {
            return try await entry.task.value
        } catch {
            if let stop = entry.waiters.stop { throw Stopped(reason: stop) }
            throw error
        }
    }

    /// A render cancelled at its deadline or because nobody was waiting for it any more.
    struct Stopped: Error { let reason: Stop }
}
