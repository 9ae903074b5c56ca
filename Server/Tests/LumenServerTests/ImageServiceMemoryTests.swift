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
    /// A 16 MiB budget: bodies may hold 2 MiB. One upload holding 1.5 MiB leaves no room for
    /// a second of 1 MiB (503, Retry-After); a body dripped slower than the 2 s deadline is
    /// cut off with 408; once the first is gone, an upload is served and nothing stays held.
    @Test func bodiesHoldTheirShareOfTheBudget() async throws {
        let service = try Self.service { $0.allowUnsigned = true; $0.memoryBudget = 16 << 20; $0.renderTimeout = 2 }
        #expect(service.bodies.capacity == 2 << 20)
        try await Self.app(service).test(.live) { client in
            let port = try #require(client.port)
            // Larger than the share: refused from its Content-Length, whatever maxBodyBytes says.
            let big = ByteBuffer(repeating: 0, count: 3 << 20)
            try await client.execute(uri: "/unsafe/w:100/upload", method: .post, body: big) { response in
                #expect(response.status == .contentTooLarge, "\(String(buffer: response.body))")
                #expect(String(buffer: response.body).contains("at most 2097152"), "\(String(buffer: response.body))")
            }
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/bodies.py")
            let report = Data(try await Self.python([script.path, "\(port)", Self.repository.appendingPathComponent("testdata/photo.jpg").path]).utf8)
            let result = try JSONSerialization.jsonObject(with: report) as? [String: Any] ?? [:]
            #expect((result["held_bytes"] as? Double ?? 0) >= 1_500_000, "the waiting upload's bytes are held: \(result)")
            #expect(result["held_then_full"] as? Int == 503 && result["retry_after"] as? String == "1", "\(result)")
            let drip = result["drip_seconds"] as? Double ?? 0
            #expect(result["drip"] as? Int == 408 && drip >= 1.5 && drip < 5, "a dripped body ends at the deadline: \(result)")
            #expect(result["after"] as? Int == 200, "the share came back: \(result)")
            #expect(result["held_after"] as? Double == 0, "nothing held once answered: \(result)")
        }
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
                // PNG, about 100–200 KB each: a dozen or so fill the cache.
                try await client.execute(uri: Self.signed("/w:\(width)/plain/photos/2024/photo.jpg@png"), method: .get) { #expect($0.status == .ok) }
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
