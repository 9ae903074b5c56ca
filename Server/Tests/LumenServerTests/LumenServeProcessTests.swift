import Foundation
import Hummingbird
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
    static func curl(_ url: String) async throws -> (status: Int, bytes: Int) {
        let answer = try await curlExit(url)
        return (answer.status, answer.body.count)
    }

    static func curlBody(_ url: String) async throws -> (status: Int, body: Data)? {
        let answer = try await curlExit(url)
        return (answer.status, answer.body)
    }

    /// `curl` of `url` with its exit code (0 a whole answer; 7 could not connect; 18, 52
    /// or 56 an answer cut short), the status and the body.
    static func curlExit(_ url: String) async throws -> (exit: Int32, status: Int, body: Data) {
        try await CurlRun(url).finish()
    }

    /// A `curl` started now and finished later, many at once; waited for on a thread of its
    /// own, since blocking the cooperative pool (two threads here) or Dispatch's workers
    /// stalls the servers of the tests running beside this suite.
    struct CurlRun: @unchecked Sendable {  // the process is only read once it has exited
        let process = Process(), out = Pipe()
        let body = ImageServiceTests.temporaryFile("curl", "")

        init(_ url: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "-o", body.path, "-w", "%{http_code}", "--max-time", "120", url]
            process.standardOutput = out
            try process.run()
        }

        func finish() async throws -> (exit: Int32, status: Int, body: Data) {
            await withCheckedContinuation { continuation in
                Thread {
                    defer { try? FileManager.default.removeItem(at: body) }
                    let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, Int(code) ?? 0, (try? Data(contentsOf: body)) ?? Data()))
                }.start()
            }
        }
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
            up = try await curl("http://127.0.0.1:\(port)/health").status == 200
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
        async let inFlight = Task.detached { try await Self.curl("\(base)/unsafe/chain:\(slow)/plain/photos/photo.jpg@png") }.value
        // SIGTERM once the render is running (the metrics say so), not before.
        var rendering = false
        for _ in 0..<500 where !rendering {
            let metrics = try await Self.curlBody("\(base)/metrics").map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            rendering = metrics.contains("lumen_renders_in_flight 1")
            if !rendering { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(rendering, "the render started")
        kill(server.processIdentifier, SIGTERM)
        let answer = try await inFlight
        #expect(answer.status == 200 && answer.bytes > 1000, "the render in flight finished: \(answer)")
        for _ in 0..<100 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.isRunning && server.terminationStatus == 0, "exited 0 after draining")
        #expect(try await Self.curl("\(base)/health").status == 0, "nothing listens any more")
    }

    /// SIGTERM under load: twelve different renders asked for at once (two rendering, the
    /// rest queued), then the signal. Every one of them gets its whole answer (curl exits 0, a
    /// PNG Pillow reads at the right size), nothing is cut short, a new connection is refused,
    /// and the server exits 0.
    @Test func sigtermUnderLoadFinishesEveryAcceptedRequestWhole() async throws {
        let port = try Self.freePort(), base = "http://127.0.0.1:\(port)"
        let server = try await Self.start(port: port, ["--log-level", "warning", "--timeout", "120", "--concurrency", "2", "--queue", "32"])
        defer { if server.isRunning { server.terminate() } }
        let scales = (0..<12).map { 2 + Double($0) / 10 }
        let answers = try scales.map { scale in
            let chain = Base64URL.encode(Array("lanczosScale scale=\(scale) | gaussianBlur radius=5.5".utf8))
            return try CurlRun("\(base)/unsafe/chain:\(chain)/plain/photos/photo.jpg@png")
        }
        // The signal once all twelve have arrived: rendering, queued or answered.
        func value(_ name: String, in metrics: String) -> Double {
            metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) } ?? 0
        }
        var arrived = false, queued = 0.0
        for _ in 0..<500 where !arrived {
            let metrics = try await Self.curlBody("\(base)/metrics").map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            queued = value("lumen_render_queue_length", in: metrics)
            let accepted = value("lumen_renders_in_flight", in: metrics) + queued + value(#"lumen_requests_total{status="200"}"#, in: metrics)
            arrived = accepted == 12
            if !arrived { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(arrived && queued > 0, "all twelve accepted, some still queued, before the signal")
        kill(server.processIdentifier, SIGTERM)
        var refused = false
        for _ in 0..<50 where !refused {
            refused = try await Self.curlExit("\(base)/health").exit == 7
            if !refused { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(refused, "a new connection is refused once draining")
        for (scale, answer) in zip(scales, answers) {
            let (exit, status, body) = try await answer.finish()
            #expect(exit == 0 && status == 200, "scale \(scale): curl exit \(exit), status \(status)")
            let decoded = try? await ImageServiceTests.pillow(ByteBuffer(bytes: body))
            let (width, height) = (Int((640 * scale).rounded()), Int((400 * scale).rounded()))
            #expect(decoded?.format == "PNG" && decoded?.width == width && decoded?.height == height,
                    "scale \(scale): \(String(describing: decoded)), \(width)×\(height) expected")
        }
        for _ in 0..<100 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.isRunning && server.terminationStatus == 0, "exited 0 after draining")
    }

    /// Hostile clients (Fixtures/hostile.py, raw sockets): a 100 KB header is refused with
    /// 431, half a request is cut off after the idle timeout, even while its header drips in
    /// a byte at a time (slowloris), and a client that
    /// resets or closes its connection mid-render stops the render: nothing is in flight
    /// well before a render with someone listening would have finished.
    @Test func hostileClientsAreCutOffAndTheServerKeepsAnswering() async throws {
        let port = try Self.freePort(), base = "http://127.0.0.1:\(port)"
        let config = ImageServiceTests.temporaryFile("hostile", ".json")
        try Data(#"{"idleTimeout": 2}"#.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let server = try await Self.start(port: port, ["--log-level", "error", "--config", config.path])
        defer { if server.isRunning { server.terminate() } }
        // Three different renders of the same weight (no cache shortcuts one for another).
        let paths = ["4", "4.05", "4.1"].map { scale in
            "/unsafe/chain:" + Base64URL.encode(Array("lanczosScale scale=\(scale) | gaussianBlur radius=5.5".utf8)) + "/plain/photos/photo.jpg@png"
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hostile.py")
        let report = Data(try await ImageServiceTests.python([script.path, "\(port)"] + paths).utf8)
        let result = try JSONSerialization.jsonObject(with: report) as? [String: Any] ?? [:]
        #expect(result["huge_header"] as? Int == 431, "a 100 KB header: \(result)")
        let closedAfter = result["slowloris_closed_after"] as? Double
        #expect(closedAfter != nil && closedAfter! >= 1.5 && closedAfter! < 6, "half a request is cut off after the 2 s idle timeout: \(result)")
        let dripClosed = result["header_drip_closed_after"] as? Double
        #expect(dripClosed != nil && dripClosed! >= 1.5 && dripClosed! < 6, "headers dripped a byte at a time are cut off too: \(result)")
        let full = result["full_render_seconds"] as? Double ?? 0
        #expect(result["full_render_status"] as? Int == 200 && full >= 1, "the slow render takes a while: \(result)")
        for key in ["drained_after_reset", "drained_after_close"] {
            let drained = result[key] as? Double
            #expect(drained != nil && drained! < full / 2, "\(key): the render stopped when its client left: \(result)")
        }
        #expect(result["health_after_disconnect"] as? Int == 200, "the server answers after the disconnect: \(result)")
        #expect(server.isRunning, "still running")
        #expect(try await Self.curl("\(base)/health").status == 200, "and answers a plain client afterwards")
    }

    /// One process reads its settings from a file, then the environment, then flags, each
    /// overriding the one before key by key (`--print-config` shows the result); the service
    /// then runs with them (Cache-Control, set by the environment over the file, is on the answer).
    @Test func theFileThenTheEnvironmentThenFlagsSetTheService() async throws {
        let base = ImageServiceTests.temporaryFile("layers", "")
        let (a, b, config) = (base.appendingPathComponent("a").path, base.appendingPathComponent("b").path, base.appendingPathComponent("settings.json"))
        for folder in [a, b] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: base) }
        try Data((#"{"maxQueuedRenders": 5, "memoryBudget": 67108864, "renderTimeout": 3, "cacheControl": "max-age=1", "defaultQuality": 50,"#
                  + #" "roots": {"a": "\#(a)"}, "signingKeys": [{"key": "aa", "salt": "bb"}]}"#).utf8).write(to: config)
        let environment = ["LUMEN_SERVE_MAX_QUEUED_RENDERS": "6", "LUMEN_SERVE_MEMORY_BUDGET": "134217728", "LUMEN_SERVE_RENDER_TIMEOUT": "9",
                           "LUMEN_SERVE_CACHE_CONTROL": "max-age=2", "LUMEN_KEY": "cc", "LUMEN_SALT": "dd"]
        func settings(_ arguments: [String], _ environment: [String: String]) throws -> [String: Any] {
            let process = Process(), out = Pipe()
            process.executableURL = Self.binary
            process.arguments = ["--config", config.path, "--print-config"] + arguments
            process.environment = environment
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        }
        let file = try settings([], [:])
        #expect(file["maxQueuedRenders"] as? Int == 5 && file["memoryBudget"] as? Int == 64 << 20 && file["cacheControl"] as? String == "max-age=1")
        #expect((file["signingKeys"] as? [[String: String]])?.first?["key"] == "(hidden)", "keys are not printed")
        let both = try settings([], environment)
        #expect(both["maxQueuedRenders"] as? Int == 6 && both["memoryBudget"] as? Int == 128 << 20 && both["renderTimeout"] as? Double == 9)
        #expect(both["cacheControl"] as? String == "max-age=2" && both["defaultQuality"] as? Int == 50, "the environment overrides key by key")
        #expect((both["signingKeys"] as? [Any])?.count == 1)
        let all = try settings(["--queue", "7", "--timeout", "11", "--root", "b=\(b)"], environment)
        #expect(all["maxQueuedRenders"] as? Int == 7 && all["renderTimeout"] as? Double == 11 && all["memoryBudget"] as? Int == 128 << 20)
        #expect(all["roots"] as? [String: String] == ["a": a, "b": b], "a flag's root joins the file's")

        // Running with the three layers: the environment's Cache-Control is on the answer.
        let port = try Self.freePort()
        let server = Process()
        server.executableURL = Self.binary
        server.arguments = ["--listen", "127.0.0.1:\(port)", "--config", config.path, "--root", "photos=\(ImageServiceTests.repository.path)/testdata",
                            "--allow-unsigned", "--log-level", "error"]
        server.environment = environment
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        var headers = ""
        for _ in 0..<100 where !headers.contains("200") {
            headers = try await Self.curlHeaders("http://127.0.0.1:\(port)/unsafe/w:50/plain/photos/photo.jpg")
            if !headers.contains("200") { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(headers.lowercased().contains("cache-control: max-age=2"), "\(headers)")
    }

    /// The response headers `curl` printed for `url` ("" when it could not connect).
    static func curlHeaders(_ url: String) async throws -> String {
        try await ImageServiceTests.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null", "-D", "-", "--max-time", "60", url])
    }
}
