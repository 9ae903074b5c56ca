import Foundation
import Hummingbird
import HummingbirdTesting
import Lumen
import Testing
@testable import LumenServer

/// The memory budget's shares as clients meet them: bodies held while they arrive and wait
/// (a full share is 503 with Retry-After, a dripped body 408 at the deadline), and the
/// output cache dropping its least recently used output first.
extension ImageServiceTests {
    /// What Fixtures/bodies.py reports in `mode` against `client`'s server.
    static func bodies(_ mode: String, _ client: some TestClientProtocol) async throws -> [String: Any] {
        let port = try #require(client.port)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/bodies.py")
        let report = try await python([script.path, "\(port)", repository.appendingPathComponent("testdata/photo.jpg").path, mode])
        return try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any] ?? [:]
    }

    /// A 16 MiB budget: bodies may hold 2 MiB. A body announced larger is refused from its
    /// Content-Length; one upload that announced 1.6 MB holds all of it while it arrives, so
    /// a second of 1 MiB gets 503 with Retry-After; both refusals leave their bodies unread,
    /// and their connections are closed while the clients still send (`ResponseCloseHandler`:
    /// without it they stay open). Once the first is gone an upload is served, and nothing
    /// stays held.
    @Test func bodiesHoldTheirShareOfTheBudget() async throws {
        let service = try Self.service { $0.allowUnsigned = true; $0.memoryBudget = 16 << 20 }
        #expect(service.bodies.capacity == 2 << 20)
        try await Self.app(service).test(.live) { client in
            let big = ByteBuffer(repeating: 0, count: 3 << 20)
            try await client.execute(uri: "/unsafe/w:100/upload", method: .post, body: big) { response in
                #expect(response.status == .contentTooLarge && String(buffer: response.body).contains("at most 2097152"), "\(String(buffer: response.body))")
            }
            let result = try await Self.bodies("share", client)
            #expect((result["held_bytes"] as? Double ?? 0) >= 1_600_000, "the waiting upload's whole length is held: \(result)")
            #expect(result["held_then_full"] as? Int == 503 && result["retry_after"] as? String == "1", "\(result)")
            #expect(result["closed_after_full"] as? Double != nil, "the refused upload's connection is closed: \(result)")
            #expect(result["too_large"] as? Int == 413 && result["closed_after_too_large"] as? Double != nil, "\(result)")
            #expect(result["after"] as? Int == 200, "the share came back: \(result)")
            #expect(result["held_after"] as? Double == 0, "nothing held once answered: \(result)")
        }
        for _ in 0..<20 where service.bodies.bytesHeld != 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(service.bodies.bytesHeld == 0)
    }

    /// A body dripped slower than the 2 s deadline is cut off with 408 at the deadline, and
    /// the connection is closed (what else the client sends is not read).
    @Test func aDrippedBodyEndsAtTheDeadline() async throws {
        let service = try Self.service { $0.allowUnsigned = true; $0.renderTimeout = 2 }
        try await Self.app(service).test(.live) { client in
            let result = try await Self.bodies("drip", client)
            let seconds = result["drip_seconds"] as? Double ?? 0
            #expect(result["drip"] as? Int == 408 && seconds >= 1.5 && seconds < 10, "a dripped body ends at the deadline: \(result)")
            #expect(result["closed_after_drip"] as? Double != nil, "and its connection is closed: \(result)")
        }
        for _ in 0..<20 where service.bodies.bytesHeld != 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(service.bodies.bytesHeld == 0)
    }

    /// The output cache through the service: with a 16 MiB budget it keeps 2 MiB of outputs.
    /// A, then B, then A again (a hit, so A is now the more recent), then new outputs until
    /// the first is dropped: that one is B, and A is still served from the cache.
    @Test func theOutputCacheDropsTheLeastRecentlyUsedFirst() async throws {
        let service = try Self.service { $0.memoryBudget = 16 << 20 }
        #expect(service.outputs.byteLimit == 2 << 20)
        try await Self.app(service).test(.live) { client in
            func get(_ width: Int) async throws {
                // PNG, about 100–200 KB each: a dozen or so fill the cache. Each must be small
                // enough to be kept (an eighth of the cache), or a count that did not grow
                // would not mean an eviction.
                try await client.execute(uri: Self.signed("/w:\(width)/plain/photos/2024/photo.jpg@png"), method: .get) { response in
                    #expect(response.status == .ok && response.body.readableBytes <= service.outputs.byteLimit / 8)
                }
            }
            try await get(300)
            try await get(301)
            try await get(300)
            #expect(service.outputs.statistics.hits == 1 && service.outputs.statistics.count == 2)
            var width = 302, evicted = false
            while !evicted && width < 360 {
                let before = service.outputs.statistics.count
                try await get(width)
                evicted = service.outputs.statistics.count <= before
                width += 1
            }
            #expect(evicted, "the cache filled: \(service.outputs.statistics)")
            #expect(service.outputs.statistics.bytes <= 2 << 20)
            let hits = service.outputs.statistics.hits
            try await get(300)
            #expect(service.outputs.statistics.hits == hits + 1, "A, used again after B, is kept")
            try await get(301)
            #expect(service.outputs.statistics.hits == hits + 1, "B, the least recently used, was dropped")
        }
    }
}
