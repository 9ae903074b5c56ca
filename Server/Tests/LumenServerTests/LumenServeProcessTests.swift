import Foundation
import Testing
@testable import LumenServer

/// The `lumen-serve` executable as an operator runs it, on loopback: it starts from flags,
/// answers, and on SIGTERM stops listening but finishes the render in flight before it exits 0.
@Suite(.serialized) struct LumenServeProcessTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lumen-serve")

    /// A free loopback port (bound, read, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(fd, raw, length) == 0, getsockname(fd, raw, &length) == 0 else { throw ServiceError.configuration("no free port") }
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `curl` of `url`: status code and body bytes (status 0 when it could not connect).
    static func curl(_ url: String) throws -> (status: Int, bytes: Int) {
        try curlBody(url).map { ($0.status, $0.body.count) }!
    }

    static func curlBody(_ url: String) throws -> (status: Int, body: Data)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString.prefix(8))")
        process.arguments = ["-s", "-o", body.path, "-w", "%{http_code}", "--max-time", "60", url]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (Int(code) ?? 0, (try? Data(contentsOf: body)) ?? Data())
    }

    /// lumen-serve on loopback at `port` over the repository's testdata, unsigned URLs and
    /// inline chains allowed, plus `arguments`; returned once /health answers.
    static func start(port: Int, _ arguments: [String]) async throws -> Process {
        let server = Process()
        server.executableURL = binary
        server.arguments = ["--listen", "127.0.0.1:\(port)", "--root", "photos=\(ImageServiceTests.repository.path)/testdata",
                            "--allow-unsigned", "--allow-inline-chains"] + arguments
        server.standardError = FileHandle.nullDevice
        try server.run()
        var up = false
        for _ in 0..<100 where !up {
            up = try curl("http://127.0.0.1:\(port)/health").status == 200
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(up, "lumen-serve answers /health")
        return server
    }

    @Test func sigtermFinishesTheRenderInFlightThenExits() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "swift build --build-tests builds lumen-serve beside the tests")
        let port = try Self.freePort(), base = "http://127.0.0.1:\(port)"
        let server = try await Self.start(port: port, ["--log-level", "warning", "--timeout", "120"])
        defer { if server.isRunning { server.terminate() } }
        // Two megapixels blurred and encoded as PNG: a second or more in a debug build, so the
        // render is surely in flight when the signal comes (σ 5.5 keeps the exact convolution;
        // from σ 6 the blur shrinks first and is over too soon).
        let slow = Base64URL.encode(Array("lanczosScale scale=3 | gaussianBlur radius=5.5".utf8))
        async let inFlight = Task.detached { try Self.curl("\(base)/unsafe/chain:\(slow)/plain/photos/photo.jpg@png") }.value
        // SIGTERM once the render is running (the metrics say so), not before.
        var rendering = false
        for _ in 0..<500 where !rendering {
            let metrics = try Self.curlBody("\(base)/metrics").map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            rendering = metrics.contains("lumen_renders_in_flight 1")
            if !rendering { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(rendering, "the render started")
        kill(server.processIdentifier, SIGTERM)
        let answer = try await inFlight
        #expect(answer.status == 200 && answer.bytes > 1000, "the render in flight finished: \(answer)")
        for _ in 0..<100 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.isRunning && server.terminationStatus == 0, "exited 0 after draining")
        #expect(try Self.curl("\(base)/health").status == 0, "nothing listens any more")
    }

    /// Hostile clients (Fixtures/hostile.py, raw sockets): a 100 KB header is refused with
    /// 431, half a request is cut off after the idle timeout (slowloris), and a client that
    /// drops its connection mid-render leaves the server answering with nothing in flight.
    @Test func hostileClientsAreCutOffAndTheServerKeepsAnswering() async throws {
        let port = try Self.freePort(), base = "http://127.0.0.1:\(port)"
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString.prefix(8)).json")
        try Data(#"{"idleTimeout": 2}"#.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let server = try await Self.start(port: port, ["--log-level", "error", "--config", config.path])
        defer { if server.isRunning { server.terminate() } }
        let slow = Base64URL.encode(Array("lanczosScale scale=3 | gaussianBlur radius=5.5".utf8))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hostile.py")
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", script.path, "\(port)", "/unsafe/chain:\(slow)/plain/photos/photo.jpg@png"]
        let out = Pipe()
        client.standardOutput = out
        try client.run()
        let report = out.fileHandleForReading.readDataToEndOfFile()
        client.waitUntilExit()
        let result = try JSONSerialization.jsonObject(with: report) as? [String: Any] ?? [:]
        #expect(result["huge_header"] as? Int == 431, "a 100 KB header: \(result)")
        let closedAfter = result["slowloris_closed_after"] as? Double
        #expect(closedAfter != nil && closedAfter! >= 1.5 && closedAfter! < 6, "half a request is cut off after the 2 s idle timeout: \(result)")
        #expect(result["health_after_disconnect"] as? Int == 200 && result["renders_drained"] as? Bool == true,
                "a client gone mid-render leaves the server answering and nothing in flight: \(result)")
        #expect(server.isRunning, "still running")
        #expect(try Self.curl("\(base)/health").status == 200, "and answers a plain client afterwards")
    }
}
