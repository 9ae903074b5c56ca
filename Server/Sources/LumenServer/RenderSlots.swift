import Foundation

/// Back-pressure: at most `slots` renders at once, at most `queueLimit` requests waiting
/// for one (in arrival order); a request beyond them is refused at once (503 with
/// Retry-After) instead of piling up memory and latency.
actor RenderSlots {
    let slots: Int
    let queueLimit: Int
    private(set) var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, Error>)] = []
    private var nextID: UInt64 = 0

    init(slots: Int, queueLimit: Int) {
        self.slots = slots
        self.queueLimit = queueLimit
    }

    struct Full: Error {}

    var queued: Int { waiting.count }
    /// True when a request now would be refused: every slot busy and the queue full.
    var isFull: Bool { running >= slots && waiting.count >= queueLimit }

    /// Waits for a slot; throws `Full` when the queue is full, or CancellationError when the
    /// waiting task is cancelled (the client went away).
    func acquire() async throws {
        if running < slots {
            running += 1
            return
        }
        guard waiting.count < queueLimit else { throw Full() }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.append((id, continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiting(id) }
        }
    }

    private func cancelWaiting(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    /// Gives the slot to the next waiting request, or frees it.
    func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().continuation.resume()
        }
    }
}
