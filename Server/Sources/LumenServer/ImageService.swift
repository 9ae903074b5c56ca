import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Lumen

/// Lumen as an image service: signed processing URLs over local roots or uploaded bodies,
/// named recipes (chains) with parameters from the URL, resize with attention crops,
/// format negotiation, ETags and an output cache, bounded concurrency with a bounded queue,
/// per-request deadlines that stop the render, and Prometheus metrics. Mount it on any
/// Hummingbird router with `addRoutes(to:)`; `lumen-serve` is the ready-made server.
public final class ImageService: Sendable {
    public let configuration: ServiceConfiguration
    let signature: URLSignature
    let files: SourceFiles
    let slots: RenderSlots
    let outputs: OutputCache
    let bodies: BodyBudget
    let metrics = ServiceMetrics()
    let context: RenderContext
    let origins: OriginFetcher
    let inFlight = InFlightRenders()
    let logger: Logger
    private let stopping = LockedFlag()

    /// A service with `configuration` (validated here: a bad one throws, naming the setting).
    public init(configuration: ServiceConfiguration, logger: Logger = Logger(label: "lumen-serve")) throws {
        try configuration.validate()
        self.configuration = configuration
        self.logger = logger
        signature = URLSignature(configuration)
        files = SourceFiles(configuration.roots)
        slots = RenderSlots(slots: configuration.maxConcurrentRenders, queueLimit: configuration.maxQueuedRenders)
        outputs = OutputCache(byteLimit: configuration.outputCache ? configuration.memoryBudget / 8 : 0)
        bodies = BodyBudget(capacity: configuration.memoryBudget / 8)
        origins = OriginFetcher(configuration, bodies: bodies)
        var options = RenderContext.Options(threads: configuration.threadsPerRender,
                                            cacheBytes: configuration.renderCache ? configuration.memoryBudget / 2 : 0,
                                            pixelLimit: configuration.maxSourcePixels)
        // What is left of the budget is shared by the renders in flight: each may decode that share.
        options.memoryLimit = configuration.memoryBudget / 4 / configuration.maxConcurrentRenders
        options.shrinkOnLoadMargin = configuration.shrinkOnLoadMargin
        options.listsGraphs = false  // nothing reads a request's graph; listing it costs every request
        context = RenderContext(options)
    }

    /// Adds the routes: `GET /health`, `GET /ready`, `GET /metrics`, `GET /{signature}/…/plain/{source}`
    /// and `POST /{signature}/…/upload`.
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        router.get("/health") { _, _ in "ok\n" }
        router.get("/ready") { _, _ -> Response in
            let full = await self.slots.isFull
            let ready = !self.stopping.isSet && !full
            return Response(status: ready ? .ok : .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: ready ? "ready\n" : "busy\n")))
        }
        router.get("/metrics") { _, _ -> Response in
            self.metrics.renderCacheBytes.set(to: Double(self.context.cache.statistics.bytes))
            self.metrics.outputCacheBytes.set(to: Double(self.outputs.statistics.bytes))
            self.metrics.bodyBytes.set(to: Double(self.bodies.bytesHeld))
            self.metrics.residentBytes.set(to: Double(Self.residentBytes()))
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: self.metrics.text())))
        }
        router.get("/{signature}/**") { request, context in try await self.answer(request, context: context, upload: false) }
        router.post("/{signature}/**") { request, context in try await self.answer(request, context: context, upload: true) }
    }

    /// Stops answering `/ready` with 200 (a load balancer then drains the instance); renders in flight finish.
    public func beginShutdown() { stopping.set() }

    // MARK: - One request

    /// Every answer carries the request's id (`X-Request-Id`), which its log lines carry too.
    static let requestIDField = HTTPField.Name("X-Request-Id")!

    private func answer(_ request: Request, context: some RequestContext, upload: Bool) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        // The deadline runs from arrival: time queued for a render slot counts.
        let arrival = Arrival(deadline: .now + .seconds(configuration.renderTimeout),
                              connection: (context as? any ConnectionAwareRequestContext)?.connection)
        var status = 500
        defer {
            metrics.request(status: status, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        }
        do {
            var response = try await process(request, context: context, upload: upload, arrival: arrival)
            status = Int(response.status.code)
            response.headers[Self.requestIDField] = context.id
            return response
        } catch let error as ServiceError {
            guard case let .request(code, message) = error else { throw error }
            status = code
            context.logger.info("refused", metadata: ["status": "\(code)", "reason": "\(message)", "path": "\(request.uri.path)"])
            throw HTTPError(HTTPResponse.Status(code: code), headers: [Self.requestIDField: context.id], message: message)
        } catch is BodyBudget.Full {
            status = 503
            context.logger.info("refused", metadata: ["status": "503", "reason": "bodies held", "path": "\(request.uri.path)"])
            // An upload's body left unread closes its connection after the answer (`ResponseCloseHandler`).
            throw HTTPError(.serviceUnavailable, headers: [.retryAfter: "1", Self.requestIDField: context.id],
                            message: "too many bytes of other bodies are held; try again")
        } catch var error as HTTPError {
            status = Int(error.status.code)
            error.headers[Self.requestIDField] = context.id
            context.logger.info("refused", metadata: ["status": "\(status)", "reason": "\(error.body ?? "")", "path": "\(request.uri.path)"])
            throw error
        } catch let error as any HTTPResponseError {
            status = Int(error.status.code)
            throw error
        }
    }

    /// When a request's render must be done by, and the connection it came on (when the
    /// request context knows it).
    struct Arrival {
        let deadline: ContinuousClock.Instant
        let connection: (any Channel)?
    }

    private func process(_ request: Request, context: some RequestContext, upload: Bool, arrival: Arrival) async throws -> Response {
        // The raw path, as signed: /SIGNATURE/rest…
        let path = Substring(request.uri.path)
        let afterSlash = path.dropFirst()
        guard let cut = afterSlash.firstIndex(of: "/") else { throw ServiceError.request(status: 404, message: "no such route") }
        let signed = afterSlash[cut...]
        if !configuration.allowUnsigned {
            guard signature.isValid(afterSlash[..<cut], for: signed) else {
                throw ServiceError.request(status: 403, message: "bad signature")
            }
        }
        let processing = try ProcessingRequest(path: signed, upload: upload)
        if processing.recipe != nil && configuration.recipesFolder == nil {
            throw ServiceError.request(status: 400, message: "this service has no recipes")
        }
        if processing.inlineChain != nil && !configuration.allowInlineChains {
            throw ServiceError.request(status: 403, message: "chains in URLs are not allowed here")
        }

        // The source and what identifies its content.
        let source: RenderJob.Source, validator: String, sourceFormat: ImageFileFormat?
        if upload {
            let limit = min(configuration.maxBodyBytes, bodies.capacity)
            let announced = request.headers[.contentLength].flatMap { Int($0) }
            if let announced, announced > limit {
                throw HTTPError(.contentTooLarge, message: "the body is \(announced) bytes; at most \(limit)")
            }
            // The body must arrive before the deadline: a client dripping it holds nothing for long.
            let (data, hold) = try await Self.beforeDeadline(arrival.deadline, status: 408, "the body did not arrive in time") { [bodies] in
                try await bodies.collect(request.body, announced: announced, limit: limit) {
                    HTTPError(.contentTooLarge, message: "the body is larger than \($0) bytes")
                }
            }
            source = .bytes(data, hold)
            validator = Hex.string(SHA256.hash(data))
            sourceFormat = Self.format(sniffing: data)
        } else if let origin = processing.source, OriginFetcher.isOrigin(origin) {
            guard !configuration.originHosts.isEmpty else { throw ServiceError.request(status: 403, message: "this service reads no HTTP origins") }
            let (data, hold, tag) = try await origins.fetch(origin)
            source = .bytes(data, hold)
            validator = tag.isEmpty ? Hex.string(SHA256.hash(data)) : tag
            sourceFormat = Self.format(sniffing: data)
        } else {
            let url = try files.file(for: processing.source ?? "")
            source = .file(url)
            validator = SourceFiles.validator(of: url)
            sourceFormat = ImageFileFormat(pathExtension: url.pathExtension)
        }
        var recipeStamp = ""
        if let recipe = processing.recipe, let folder = configuration.recipesFolder {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(recipe + ".chain")
            guard FileManager.default.fileExists(atPath: url.path) else { throw ServiceError.request(status: 404, message: "no recipe named '\(recipe)'") }
            recipeStamp = SourceFiles.validator(of: url)
        }

        // The output format: the URL's, else what the client accepts, else the source's.
        let accept = request.headers[.accept] ?? ""
        let format = processing.format ?? negotiate(accept: accept, source: sourceFormat)
        let quality = processing.quality ?? configuration.defaultQuality
        let contentType = Self.contentType(format)

        // The ETag: the processing options, the format and quality, and the content of the
        // source and recipe; a change to any of them is a new ETag.
        let tag = Hex.string(SHA256.hash(Data("\(Self.version)|\(signed)|\(format.rawValue)|\(quality)|\(validator)|\(recipeStamp)".utf8))
            .prefix(16))
        let etag = "\"\(tag)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: configuration.cacheControl, .contentType: contentType]
        if processing.negotiatesFormat { headers[.vary] = "Accept" }
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        if let cached = outputs.value(for: tag) {
            metrics.cache(hit: true)
            metrics.sent(bytes: cached.body.count)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: cached.body)))
        }
        metrics.cache(hit: false)

        let job = RenderJob(processing: processing, source: source, format: format, quality: quality,
                            recipesFolder: configuration.recipesFolder, roots: Array(files.roots.values),
                            maxOutputPixels: configuration.maxOutputPixels)
        let body: Data
        do {
            body = try await inFlight.value(for: tag, connection: arrival.connection, deadline: arrival.deadline) { try await self.render(job) }
        } catch let stopped as InFlightRenders.Stopped {
            switch stopped.reason {
            case .deadline: throw ServiceError.request(status: 504, message: "the render took longer than the deadline")
            // nginx's code for a client that closed its connection first; nobody reads it.
            case .clientsGone: throw ServiceError.request(status: 499, message: "every client waiting for this render went away")
            }
        } catch LumenError.cancelled {
            throw ServiceError.request(status: 504, message: "the render took longer than the deadline")
        }
        outputs.set(.init(body: body, contentType: contentType), for: tag)
        metrics.sent(bytes: body.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// What `work` returns, unless `deadline` comes first: then it is cancelled and the
    /// answer is `status` with `message` (cancelling a body's reading ends the connection's
    /// input; `ResponseCloseHandler` closes the connection once the answer is sent).
    static func beforeDeadline<T: Sendable>(_ deadline: ContinuousClock.Instant, status: Int, _ message: String,
                                            _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask { try await Task.sleep(until: deadline); return nil }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw HTTPError(HTTPResponse.Status(code: status), message: message)
            }
            return value
        }
    }

    /// Runs the job in a render slot, off the event loops; cancelling the task (at the
    /// deadline, or when the clients left: `InFlightRenders`) leaves the queue or stops the
    /// render at its next tile.
    private func render(_ job: RenderJob) async throws -> Data {
        metrics.queued.increment()
        do {
            try await slots.acquire()
        } catch is RenderSlots.Full {
            metrics.queued.decrement()
            throw HTTPError(.serviceUnavailable, headers: [.retryAfter: "1"], message: "too many renders waiting; try again")
        } catch {
            metrics.queued.decrement()
            throw error
        }
        metrics.queued.decrement()
        metrics.rendering.increment()
        defer { metrics.rendering.decrement() }
        let cancellation = RenderCancellation()
        let started = DispatchTime.now().uptimeNanoseconds
        let context = self.context
        let result: Result<Data, Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A serial queue of its own per render: such queues get a thread at once (Dispatch
                // calls them overcommit), so the slots bound how many renders run, and a render
                // given a slot never waits behind other work on Dispatch's shared workers.
                DispatchQueue(label: "lumen-serve.render", qos: .userInitiated).async {
                    continuation.resume(returning: Result { try cancellation.whileRendering { try job.run(context) } })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        await slots.release()
        MemoryTrim.afterRender(idle: await slots.running == 0)
        metrics.render(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        switch result {
        case let .success(data): return data
        case let .failure(error):
            if case LumenError.cancelled = error { throw error }  // InFlightRenders says why
            if !(error is LumenError || error is ServiceError) { logger.error("render failed", metadata: ["error": "\(error)"]) }
            throw Self.status(for: error, roots: files.roots, recipes: configuration.recipesFolder)
        }
    }

    /// The answer for a render's error: the client's fault (4xx) or not (5xx), in words that
    /// name a file as the URL does (`photos/a.jpg`, `recipes/sepia.chain`), never by the
    /// server's own folders.
    static func status(for error: Error, roots: [String: String], recipes: String? = nil) -> Error {
        guard let error = error as? LumenError else {
            if let error = error as? ServiceError { return error }
            return ServiceError.request(status: 500, message: "internal error")
        }
        var folders = roots.map { (folder: $0.value, name: $0.key.isEmpty ? "root" : $0.key) }
        if let recipes {  // as configured, and with its links resolved
            folders += Set([recipes, SourceFiles.resolved(recipes) ?? recipes]).map { ($0, "recipes") }
        }
        var message = error.description
        // Longest first (a folder inside another); a folder only where a path ends or goes on.
        for (folder, name) in folders.sorted(by: { $0.folder.count > $1.folder.count }) {
            let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            guard !trimmed.isEmpty else { continue }  // the root of the file system names everything
            let pattern = NSRegularExpression.escapedPattern(for: trimmed) + #"(?=/|[\s,:;'"()\]]|$)"#
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            message = expression.stringByReplacingMatches(in: message, range: NSRange(message.startIndex..., in: message),
                                                          withTemplate: NSRegularExpression.escapedTemplate(for: name))
        }
        // Any other absolute path (a file a chain was refused, outside every root) is not named.
        if let other = try? NSRegularExpression(pattern: #"(?<=^|[\s"'(])/[^\s"'():,]+"#) {
            message = other.stringByReplacingMatches(in: message, range: NSRange(message.startIndex..., in: message),
                                                     withTemplate: "(a path outside the roots)")
        }
        switch error {
        case .cancelled: return ServiceError.request(status: 504, message: "the render took longer than the deadline")
        case let .unreadable(_, reason) where reason == "no such file": return ServiceError.request(status: 404, message: message)
        case .unreadable, .corrupt, .unsupported, .tooLarge: return ServiceError.request(status: 422, message: message)
        case .outOfMemory: return ServiceError.request(status: 503, message: message)
        case .chain, .unknownFilter, .unknownKey, .invalidValue, .missingInput, .asset, .unrenderable:
            return ServiceError.request(status: 400, message: message)
        case .unwritable: return ServiceError.request(status: 500, message: message)
        }
    }

    /// AVIF (when preferred) or WebP when the client names them (a wildcard does not say a
    /// browser decodes them); else the source's format when Lumen writes it and the client
    /// takes it; else JPEG or PNG, whichever the client takes; else JPEG. A type with `q=0`
    /// is refused, as RFC 9110 says.
    func negotiate(accept: String, source: ImageFileFormat?) -> ImageFileFormat {
        var quality: [String: Double] = [:]
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            quality[type] = max(quality[type] ?? 0, q.isFinite ? q : 0)
        }
        func names(_ type: String) -> Bool { (quality[type] ?? 0) > 0 }
        func takes(_ type: String) -> Bool {
            accept.trimmingCharacters(in: .whitespaces).isEmpty || (quality[type] ?? quality["image/*"] ?? quality["*/*"] ?? 0) > 0
        }
        if configuration.preferAVIF && names("image/avif") { return .avif }
        if names("image/webp") { return .webp }
        if let source, source.isWritable, source != .tiff, takes(Self.contentType(source)) { return source }
        if !takes("image/jpeg") && takes("image/png") { return .png }
        return .jpeg
    }

    static func contentType(_ format: ImageFileFormat) -> String {
        switch format {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .avif: return "image/avif"
        case .heic: return "image/heic"
        case .tiff: return "image/tiff"
        default: return "application/octet-stream"
        }
    }

    static func format(sniffing data: Data) -> ImageFileFormat? {
        (try? Image(data: data.prefix(64 << 10), name: "upload")).flatMap { $0.fileHeader?.format }
    }

    /// The process's resident set size (Linux: /proc/self/statm), 0 where unknown.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// Changes when the service's output for the same request may change.
    static let version = "lumen-serve 1"
}
