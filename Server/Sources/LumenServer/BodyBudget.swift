import Foundation
import NIOCore

/// The bytes of bodies held in memory at once: uploads being received or waiting for their
/// render, and origins' answers. They have their share of the memory budget (an eighth), so
/// many large uploads arriving together get 503 instead of taking memory the caches and
/// renders were promised. A body whose length is announced (Content-Length) reserves it
/// whole before a byte is read, so bodies arriving together are taken or refused whole,
/// never all cut off half-way; one sent in chunks reserves its bytes as they arrive. Its
/// `Hold` gives them back when the last reference to it goes: once the request is answered
/// and the render that reads it is done.
final class BodyBudget: @unchecked Sendable {  // `held` only under `lock`
    /// Too many bytes of other bodies are held to take this one now; try again later.
    struct Full: Error {}

    /// The bytes a body holds; given back when it is freed.
    final class Hold: @unchecked Sendable {  // `bytes` grows only while its one body is read
        let budget: BodyBudget
        private(set) var bytes = 0
        init(_ budget: BodyBudget) { self.budget = budget }

        /// Takes `count` more bytes from the budget; false when it has not that many left.
        fileprivate func grow(by count: Int) -> Bool {
            guard budget.reserve(count) else { return false }
            bytes += count
            return true
        }

        deinit { budget.release(bytes) }
    }

    let capacity: Int
    private let lock = NSLock()
    private var held = 0

    init(capacity: Int) { self.capacity = capacity }

    /// Bytes held by bodies now.
    var bytesHeld: Int { lock.lock(); defer { lock.unlock() }; return held }

    private func reserve(_ count: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard held + count <= capacity else { return false }
        held += count
        return true
    }

    private func release(_ count: Int) {
        lock.lock()
        held -= count
        lock.unlock()
    }

    /// `body` read whole, its bytes held from this budget: `tooLarge` is thrown past `limit`
    /// bytes (or past the budget's whole share), `Full` when other bodies hold what this one
    /// needs. `announced`, the length the sender gave, is reserved before anything is read.
    func collect<Body: AsyncSequence>(_ body: Body, announced: Int?, limit: Int, tooLarge: (Int) -> Error) async throws
        -> (data: Data, hold: Hold) where Body.Element == ByteBuffer {
        let hold = Hold(self)
        let limit = min(limit, capacity)
        var data = Data()
        if let announced, announced > 0 {
            guard announced <= limit else { throw tooLarge(limit) }
            guard hold.grow(by: announced) else { throw Full() }
            data.reserveCapacity(announced)
        }
        for try await chunk in body {
            let total = data.count + chunk.readableBytes
            guard total <= limit else { throw tooLarge(limit) }
            if total > hold.bytes, !hold.grow(by: total - hold.bytes) { throw Full() }
            data.append(contentsOf: chunk.readableBytesView)
        }
        return (data, hold)
    }
}
