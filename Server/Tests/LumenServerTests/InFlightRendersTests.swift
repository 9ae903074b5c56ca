import Foundation
import Testing
@testable import LumenServer

/// Coalescing and stopping of renders (`InFlightRenders`), without a server.
@Suite struct InFlightRendersTests {
    /// Two requests for one key while it renders: one render, both get its data.
    @Test func waitersShareOneRender() async throws {
        let renders = InFlightRenders(pollInterval: .milliseconds(10))
        let started = LockedValueBox(0)
        let deadline = ContinuousClock.now + .seconds(30)
        async let first = renders.value(for: "k", connection: nil, deadline: deadline) {
            started.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(300))
            return Data([1])
        }
        try await Task.sleep(for: .milliseconds(100))
        let second = try await renders.value(for: "k", connection: nil, deadline: deadline) {
            started.withLock { $0 += 1 }
            return Data([2])
        }
        #expect(try await first == Data([1]) && second == Data([1]))
        #expect(started.withLock { $0 } == 1)
    }

    /// A render past its deadline is cancelled and its waiter told why; a request for the
    /// same key that arrives while the stopped render is still unwinding starts its own
    /// render instead of joining the stopped one (which would answer a live client 504).
    @Test func aStoppedRenderIsNotJoined() async throws {
        let renders = InFlightRenders(pollInterval: .milliseconds(10))
        await #expect(throws: InFlightRenders.Stopped.self) {
            try await renders.value(for: "d", connection: nil, deadline: .now + .milliseconds(30)) {
                try await Task.sleep(for: .seconds(30))  // throws CancellationError when stopped
                return Data()
            }
        }
        async let stopped = renders.value(for: "s", connection: nil, deadline: .now + .milliseconds(20)) {
            // Takes 300 ms to notice it was cancelled.
            let end = ContinuousClock.now + .milliseconds(300)
            while ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(5)) }
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(120))
        let fresh = try await renders.value(for: "s", connection: nil, deadline: .now + .seconds(30)) { Data([3]) }
        #expect(fresh == Data([3]))
        do {
            _ = try await stopped
            Issue.record("the stopped render answered")
        } catch is InFlightRenders.Stopped {}
    }
}
