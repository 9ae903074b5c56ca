import Foundation
import Hummingbird
import HummingbirdTesting
import Lumen
import Testing
@testable import LumenServer

/// The service as clients see it, over a real socket on loopback (HummingbirdTesting's
/// `.live` binds localhost on a free port): statuses, headers and bodies for good and bad
/// requests. Expected pixels and formats are checked with Pillow, a decoder Lumen did not write.
@Suite struct ImageServiceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let key = "736563726574", salt = "68656C6C6F"  // "secret", "hello": imgproxy's documentation example

    /// This test process's temporary files and folders, in one folder removed when it exits
    /// (each run used to leave about 40 behind in /tmp).
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-serve-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ImageServiceTests.scratch) }
        return url
    }()

    /// A fresh path in `scratch`: `prefix`, a random part, then `suffix`.
    static func temporaryFile(_ prefix: String, _ suffix: String) -> URL {
        scratch.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))\(suffix)")
    }

    /// A folder with photos, a recipe and a symbolic link out of the root.
    static func fixture() throws -> (root: URL, recipes: URL) {
        let base = ImageServiceTests.temporaryFile("lumen-serve", "")
        let root = base.appendingPathComponent("photos"), recipes = base.appendingPathComponent("recipes")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("2024"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: recipes, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("testdata/photo.jpg"), to: root.appendingPathComponent("2024/photo.jpg"))
        try FileManager.default.copyItem(at: repository.appendingPathComponent("testdata/logo.png"), to: root.appendingPathComponent("logo.png"))
        try Data("not an image".utf8).write(to: root.appendingPathComponent("broken.jpg"))
        // Made by Python's zlib (see the test that reads them): a 30000×30000 PNG of zeros in
        // 109 KB, a PNG whose header promises 2000×2000 with 10 rows of data, and photo.jpg cut
        // at 60 %.
        for name in ["bomb.png", "short-data.png", "truncated.jpg"] {
            try FileManager.default.copyItem(at: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)"),
                                             to: root.appendingPathComponent(name))
        }
        try Data("secret".utf8).write(to: base.appendingPathComponent("outside.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("escape.jpg"), withDestinationURL: base.appendingPathComponent("outside.txt"))
        try Data("param strength = 0.8\nsepiaTone intensity=strength\n".utf8).write(to: recipes.appendingPathComponent("sepia.chain"))
        try Data("outside = load(\"../outside.txt\")\nsourceOver image=outside background=input\n".utf8)
            .write(to: recipes.appendingPathComponent("outside.chain"))
        return (root, recipes)
    }

    static func service(_ change: (inout ServiceConfiguration) -> Void = { _ in }) throws -> ImageService {
        let (root, recipes) = try fixture()
        var configuration = ServiceConfiguration()
        configuration.signingKeys = [.init(key: key, salt: salt)]
        configuration.roots = ["photos": root.path]
        configuration.recipesFolder = recipes.path
        change(&configuration)
        return try ImageService(configuration: configuration)
    }

    /// The service on Hummingbird with `ResponseCloseHandler`, as `lumen-serve` runs it (a
    /// refusal that leaves a body unread says `Connection: close`, and the handler keeps its word).
    static func app(_ service: ImageService) -> some ApplicationProtocol {
        let router = Router()
        service.addRoutes(to: router)
        return Application(router: router, server: .http1(configuration: .init(additionalChannelHandlers: [ResponseCloseHandler()])))
    }

    /// `/SIGNATURE/path`, signed as imgproxy signs.
    /// (HMAC-SHA256 is checked against RFC 4231's vectors and imgproxy's documented signature.)
    static func signed(_ path: String) -> String {
        "/" + Base64URL.encode(HMACSHA256.code(key: Hex.bytes(key)!, message: Hex.bytes(salt)! + Array(path.utf8))) + path
    }

    /// What `python3 ARGUMENTS` prints, waited for on a thread of its own: blocking the
    /// cooperative pool (two threads here), or Dispatch's workers, would stall the other
    /// tests' servers.
    static func python(_ arguments: [String]) async throws -> String {
        try await output(of: "/usr/bin/env", ["python3"] + arguments)
    }

    /// What `executable ARGUMENTS` prints, waited for on a thread of its own (see `python`).
    static func output(of executable: String, _ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let out = Pipe()
                process.standardOutput = out
                do { try process.run() } catch { return continuation.resume(throwing: error) }
                let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                continuation.resume(returning: text)
            }.start()
        }
    }

    /// Width, height and mode of an encoded image, read by Pillow.
    static func pillow(_ bytes: ByteBuffer) async throws -> (format: String, width: Int, height: Int) {
        let file = ImageServiceTests.temporaryFile("lumen-serve", "")
        try Data(buffer: bytes).write(to: file)
        let text = try await python(["-c", "import sys; from PIL import Image\ntry:\n import pillow_heif; pillow_heif.register_heif_opener()\nexcept ImportError: pass\nim = Image.open(sys.argv[1]); im.load(); print(im.format, im.size[0], im.size[1])", file.path])
        let parts = text.split(separator: " ")
        guard parts.count == 3, let w = Int(parts[1]), let h = Int(parts[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServiceError.request(status: 0, message: "Pillow could not read the body: \(text)")
        }
        return (String(parts[0]), w, h)
    }

    @Test func theDocumentedSignatureVerifies() throws {
        // imgproxy's documentation: key "secret", salt "hello", this path → this signature.
        let path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
        var configuration = ServiceConfiguration()
        configuration.signingKeys = [.init(key: Self.key, salt: Self.salt)]
        let signature = URLSignature(configuration)
        #expect(signature.sign(Substring(path)) == "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8")
        #expect(signature.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Substring(path)))
        #expect(!signature.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH9", for: Substring(path)))
        #expect(!signature.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Substring(path + "x")))
        configuration.signatureBytes = 8
        #expect(URLSignature(configuration).isValid("oKfUtW34Dvo", for: Substring(path)), "truncated to 8 bytes, as the docs show")
    }

    @Test func resizesAndNegotiatesTheFormat() async throws {
        let service = try Self.service()
        try await Self.app(service).test(.live) { client in
            let path = Self.signed("/rs:fit:160:160/plain/photos/2024/photo.jpg")
            // No Accept: the source's format (JPEG), fitted inside 160×160 (photo.jpg is 640×400).
            let jpeg = try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.vary] == "Accept")
                #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
                let (format, width, height) = try await Self.pillow(response.body)
                #expect(format == "JPEG" && width == 160 && height == 100)
                return response.headers[.eTag]
            }
            // A client that accepts WebP gets WebP, with another ETag.
            try await client.execute(uri: path, method: .get, headers: [.accept: "image/avif,image/webp,*/*"]) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/webp")
                #expect(response.headers[.eTag] != jpeg)
                let format = try await Self.pillow(response.body).format
                #expect(format == "WEBP")
            }
            // The same request with its ETag: 304, no body.
            try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: jpeg ?? ""]) { response in
                #expect(response.status == .notModified && response.body.readableBytes == 0)
            }
            // A format fixed by the URL: no Vary.
            try await client.execute(uri: Self.signed("/rs:fill:100:100/g:sm/plain/photos/2024/photo.jpg@png"), method: .get,
                                     headers: [.accept: "image/webp"]) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png" && response.headers[.vary] == nil)
                let (format, width, height) = try await Self.pillow(response.body)
                #expect(format == "PNG" && width == 100 && height == 100)
            }
        }
        let cache = service.outputs.statistics
        #expect(cache.count == 3 && cache.misses == 3)
    }

    @Test func recipesTakeParametersAndUploadsWork() async throws {
        let service = try Self.service()
        let photo = try Data(contentsOf: Self.repository.appendingPathComponent("testdata/photo.jpg"))
        try await Self.app(service).test(.live) { client in
            var bodies: [ByteBuffer] = []
            for strength in ["0", "1"] {
                try await client.execute(uri: Self.signed("/r:sepia/p:strength:\(strength)/w:200/plain/photos/2024/photo.jpg@png"), method: .get) { response in
                    #expect(response.status == .ok)
                    bodies.append(response.body)
                }
            }
            #expect(bodies.count == 2 && bodies[0] != bodies[1], "the parameter reaches the recipe")
            try await client.execute(uri: Self.signed("/w:64/upload"), method: .post, body: ByteBuffer(bytes: photo)) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
                let (_, width, height) = try await Self.pillow(response.body)
                #expect(width == 64 && height == 40)
            }
            try await client.execute(uri: Self.signed("/r:missing/plain/photos/2024/photo.jpg"), method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    /// Every refusal, with its status: signatures, hostile paths, bad options, bad files.
    @Test func badRequestsGetTheRightStatus() async throws {
        let service = try Self.service { $0.maxSourcePixels = 100_000; $0.maxBodyBytes = 1000 }
        let cases: [(String, String, Int)] = [
            ("bad signature", "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/w:10/plain/photos/2024/photo.jpg", 403),
            ("signature of another path", "/" + Self.signed("/w:20/plain/photos/2024/photo.jpg").split(separator: "/")[0] + "/w:10/plain/photos/2024/photo.jpg", 403),
            ("unsigned", "/unsafe/w:10/plain/photos/2024/photo.jpg", 403),
            ("dot-dot", Self.signed("/w:10/plain/photos/../outside.txt"), 400),
            ("encoded slash", Self.signed("/w:10/plain/photos/2024%2Fphoto.jpg"), 400),
            ("encoded dot-dot", Self.signed("/w:10/plain/photos/%2E%2E/outside.txt"), 400),
            ("symlink out of the root", Self.signed("/w:10/plain/photos/escape.jpg"), 403),
            ("no such root", Self.signed("/w:10/plain/elsewhere/photo.jpg"), 404),
            ("no such file", Self.signed("/w:10/plain/photos/2024/nothere.jpg"), 404),
            ("not an image", Self.signed("/w:10/plain/photos/broken.jpg"), 422),
            ("a decompression bomb", Self.signed("/w:10/plain/photos/bomb.png"), 422),
            ("a header that promises more rows than the data holds", Self.signed("/w:10/plain/photos/short-data.png"), 422),
            ("a truncated JPEG", Self.signed("/w:10/plain/photos/truncated.jpg"), 422),
            ("too many pixels (640×400 > 100 000)", Self.signed("/w:10/plain/photos/2024/photo.jpg"), 422),
            ("unknown option", Self.signed("/zoom:2/plain/photos/logo.png"), 400),
            ("bad number", Self.signed("/w:1e9/plain/photos/logo.png"), 400),
            ("fill without a box", Self.signed("/rs:fill:100:0/plain/photos/logo.png"), 400),
            ("unknown format", Self.signed("/w:10/plain/photos/logo.png@bmp"), 400),
            ("inline chain not allowed", Self.signed("/chain:Y29sb3JJbnZlcnQ/plain/photos/logo.png"), 403),
            ("no /plain/", Self.signed("/w:10/photos/logo.png"), 400),
            ("a recipe that reads outside the roots", Self.signed("/r:outside/plain/photos/logo.png"), 400),
        ]
        try await Self.app(service).test(.live) { client in
            for (name, uri, status) in cases {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(Int(response.status.code) == status, "\(name): \(response.status) \(String(buffer: response.body))")
                    #expect(!String(buffer: response.body).contains(FileManager.default.temporaryDirectory.path), "\(name): the server's folders stay private")
                }
            }
            try await client.execute(uri: Self.signed("/w:10/upload"), method: .post, body: ByteBuffer(string: "hello")) { response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/ready", method: .get) { #expect($0.status == .ok) }
            // The refusals are counted by status in the metrics.
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("lumen_requests_total{status=\"403\"} 5"), "five cases above are 403")
                #expect(text.contains("lumen_requests_total{status=\"422\"} 6"))
                #expect(text.contains("lumen_request_duration_seconds_bucket"))
            }
        }
        // A body over the limit: 413, on a connection of its own, since one refused before its
        // body arrived is closed (ImageServiceMemoryTests) and this test client does not reconnect.
        try await Self.app(service).test(.live) { client in
            try await client.execute(uri: Self.signed("/w:10/upload"), method: .post, body: ByteBuffer(repeating: 0, count: 5000)) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
    }

    @Test func aRenderPastItsDeadlineIsStoppedWith504() async throws {
        // A 10-second deadline is far too long; a tiny one stops a large blur mid-way.
        let service = try Self.service { $0.renderTimeout = 0.05; $0.allowInlineChains = true }
        let chain = Base64URL.encode(Array("gaussianBlur radius=60 | gaussianBlur radius=60 | gaussianBlur radius=60".utf8))
        try await Self.app(service).test(.live) { client in
            let started = Date()
            try await client.execute(uri: Self.signed("/chain:\(chain)/plain/photos/2024/photo.jpg@png"), method: .get) { response in
                #expect(response.status == .gatewayTimeout, "\(String(buffer: response.body))")
            }
            #expect(Date().timeIntervalSince(started) < 5, "stopped, not finished")
        }
    }

    @Test func aFullQueueAnswers503WithRetryAfter() async throws {
        let service = try Self.service { $0.maxConcurrentRenders = 1; $0.maxQueuedRenders = 0; $0.allowInlineChains = true }
        // Slow by its size (2560×1600), not only by its blurs: the blurs' pyramids made them
        // quick enough that the render could end between two polls of the metrics.
        let slow = Base64URL.encode(Array("lanczosScale scale=4 | gaussianBlur radius=40 | gaussianBlur radius=40".utf8))
        try await Self.app(service).test(.ahc(.http)) { client in
            async let first = client.execute(uri: Self.signed("/chain:\(slow)/plain/photos/2024/photo.jpg@png"), method: .get) { $0.status }
            // The second request once the first holds the only slot (the metrics say so).
            var holding = false
            for _ in 0..<500 where !holding {
                holding = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body).contains("lumen_renders_in_flight 1") }
                if !holding { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(holding, "the first render started")
            let second = try await client.execute(uri: Self.signed("/w:10/plain/photos/2024/photo.jpg"), method: .get) { response in
                (response.status, response.headers[.retryAfter])
            }
            #expect(second.0 == .serviceUnavailable && second.1 == "1")
            #expect(try await first == .ok)
        }
    }

    /// Eight clients asking at once for an output nobody has yet: one render, eight answers.
    @Test func concurrentRequestsForOneOutputShareOneRender() async throws {
        let service = try Self.service()
        let path = Self.signed("/rs:fill:300:200/g:sm/plain/photos/2024/photo.jpg@webp")
        try await Self.app(service).test(.ahc(.http)) { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 { group.addTask { try await client.execute(uri: path, method: .get) { $0.status } } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 8 && statuses.allSatisfy { $0 == .ok })
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("lumen_render_duration_seconds_count 1\n"), "one render for eight requests")
            }
        }
    }

    /// `LUMEN_SERVE_…` variables override the file's settings by name (JSON values, else
    /// strings); other variables are ignored; a wrong type or an unknown name is refused by name.
    @Test func theEnvironmentSetsAnySetting() throws {
        var settings = ServiceConfiguration()
        settings.memoryBudget = 1 << 28
        try settings.apply(environment: ["LUMEN_SERVE_MEMORY_BUDGET": "134217728", "LUMEN_SERVE_ALLOW_UNSIGNED": "true",
                                         "LUMEN_SERVE_CACHE_CONTROL": "public, max-age=60", "LUMEN_SERVE_ROOTS": #"{"photos": "/tmp"}"#,
                                         "PATH": "/usr/bin"])
        #expect(settings.memoryBudget == 134_217_728 && settings.allowUnsigned)
        #expect(settings.cacheControl == "public, max-age=60" && settings.roots == ["photos": "/tmp"])
        #expect(ServiceConfiguration.environmentName(of: "maxQueuedRenders") == "LUMEN_SERVE_MAX_QUEUED_RENDERS")
        // An acronym stays one word; a setting that is nil by default can be set too.
        try settings.apply(environment: ["LUMEN_SERVE_PREFER_AVIF": "true", "LUMEN_SERVE_RECIPES_FOLDER": "/tmp"])
        #expect(settings.preferAVIF && settings.recipesFolder == "/tmp")
        #expect(throws: ServiceError.configuration("LUMEN_SERVE_MEMORY_BUDGET has the wrong type or form")) {
            try settings.apply(environment: ["LUMEN_SERVE_MEMORY_BUDGET": "lots"])
        }
        #expect(throws: ServiceError.configuration("LUMEN_SERVE_MEMORY_BUDGET has the wrong type or form")) {
            try settings.apply(environment: ["LUMEN_SERVE_MEMORY_BUDGET": "1.5"])
        }
        #expect(throws: ServiceError.self) { try settings.apply(environment: ["LUMEN_SERVE_MEMORY_BUGDET": "1"]) }
        // Decoded but invalid (quality 0): refused, and nothing else of it is taken either.
        #expect(throws: ServiceError.self) { try settings.apply(environment: ["LUMEN_SERVE_DEFAULT_QUALITY": "0", "LUMEN_SERVE_IDLE_TIMEOUT": "7"]) }
        #expect(settings.memoryBudget == 134_217_728 && settings.idleTimeout != 7, "a refused environment changes nothing")
    }

    @Test func configurationFilesAreCheckedKeyByKey() throws {
        let file = ImageServiceTests.temporaryFile("lumen-serve", ".json")
        try Data(#"{"allowUnsigned": true, "maxConcurrentRenders": 3}"#.utf8).write(to: file)
        let read = try ServiceConfiguration(contentsOf: file)
        #expect(read.allowUnsigned && read.maxConcurrentRenders == 3 && read.defaultQuality == 80)
        try Data(#"{"allowUnsigned": true, "maxConcurentRenders": 3}"#.utf8).write(to: file)
        #expect(throws: ServiceError.self) { try ServiceConfiguration(contentsOf: file) }
        try Data(#"{"allowUnsigned": true, "maxConcurrentRenders": "three"}"#.utf8).write(to: file)
        #expect(throws: ServiceError.self) { try ServiceConfiguration(contentsOf: file) }
        // A file that is missing or not JSON is named, with no raw Foundation error.
        for (text, reason) in [(nil, "no such file"), ("{not json", "not a JSON object")] as [(String?, String)] {
            let other = ImageServiceTests.temporaryFile("lumen-serve", ".json")
            if let text { try Data(text.utf8).write(to: other) }
            defer { try? FileManager.default.removeItem(at: other) }
            var message = ""
            do { _ = try ServiceConfiguration(contentsOf: other) } catch { message = "\(error)" }
            #expect(message.contains(other.path) && message.contains(reason) && !message.contains("NSCocoaErrorDomain"), "\(message)")
        }
        // A file may leave the keys to the environment or to --allow-unsigned: checked once merged.
        try Data(#"{"idleTimeout": 2}"#.utf8).write(to: file)
        let partial = try ServiceConfiguration(contentsOf: file)
        #expect(partial.idleTimeout == 2)
        #expect(throws: ServiceError.self) { try partial.validate() }
        var noKey = ServiceConfiguration()
        noKey.roots = ["x": "/nonexistent-folder"]
        #expect(throws: ServiceError.self) { try noKey.validate() }
        // imgproxy's and thumbor's shrink-on-load by default, vipsthumbnail's margin as an
        // option; a margin below 1 is refused.
        #expect(ServiceConfiguration().shrinkOnLoadMargin == 1)
        try Data(#"{"shrinkOnLoadMargin": 2}"#.utf8).write(to: file)
        #expect(try ServiceConfiguration(contentsOf: file).shrinkOnLoadMargin == 2)
        try Data(#"{"shrinkOnLoadMargin": 0.5}"#.utf8).write(to: file)
        #expect(throws: ServiceError.configuration("shrinkOnLoadMargin must be 1…2, got 0.5")) { try ServiceConfiguration(contentsOf: file) }
    }
}
