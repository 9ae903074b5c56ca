import ArgumentParser
import Foundation
import Hummingbird
import Logging
import LumenServer
import ServiceLifecycle

/// `lumen-serve`: the image service on Hummingbird. Settings come from a JSON file
/// (`--config`), then the environment (LUMEN_KEY / LUMEN_SALT, or imgproxy's IMGPROXY_KEY /
/// IMGPROXY_SALT, so secrets stay out of the process list), then flags.
@main
struct LumenServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lumen-serve",
        abstract: "Serve images processed by Lumen over HTTP: signed URLs, recipes, resize, format negotiation, caching.",
        discussion: """
        URLs: GET /SIGNATURE/OPTIONS/plain/SOURCE[@FORMAT] and POST /SIGNATURE/OPTIONS/upload, \
        where SIGNATURE is imgproxy's HMAC-SHA256 of the path after it (URL-safe Base64). \
        Options: rs:fit|fill:W:H, w:W, h:H, g:ce|sm|no|so|ea|we|noea|nowe|soea|sowe|fp:X:Y, el:1, q:Q, f:FORMAT, r:RECIPE, p:NAME:VALUE. \
        Also GET /health, /ready and /metrics (Prometheus).
        """)

    @Option(help: "Address and port to listen on.") var listen = "127.0.0.1:8080"
    @Option(help: "A JSON file of settings (ServiceConfiguration's keys).") var config: String?
    @Option(name: .customLong("root"), help: "A folder sources are read from: NAME=FOLDER (source NAME/path), or FOLDER alone (repeatable).")
    var roots: [String] = []
    @Option(help: "The folder of recipes: r:NAME runs NAME.chain from it.") var recipes: String?
    @Flag(help: "Accept unsigned URLs (any signature segment): for development only.") var allowUnsigned = false
    @Flag(help: "Accept chains written in URLs (chain:BASE64URL); they may read no file.") var allowInlineChains = false
    @Option(help: "Renders at once (default: one per core).") var concurrency: Int?
    @Option(help: "Requests that may wait for a render; beyond them 503.") var queue: Int?
    @Option(help: "Seconds a request may take from arrival: an upload's body must have arrived by then (408), and the render is stopped at it (504).")
    var timeout: Double?
    @Option(help: "Memory budget in MiB shared by the render cache, renders in flight, the output cache and the bodies held.") var memory: Int?
    @Option(help: "Largest source in megapixels.") var maxSourceMegapixels: Double?
    @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"
    @Flag(help: "Print the settings the service would run with (the file's, then the environment's, then the flags'), signing keys hidden, and exit.")
    var printConfig = false

    func run() async throws {
        // Two malloc arenas instead of eight per core: render threads come and go, and each
        // arena keeps its own freed memory (what imgproxy advises for libvips as MALLOC_ARENA_MAX=2).
        if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil { GlibcMalloc.limitArenas(to: 2) }
        if ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"] == nil { GlibcMalloc.mapAllocations(from: 1 << 20) }
        var settings = try Self.asUsage { try config.map { try ServiceConfiguration(contentsOf: URL(fileURLWithPath: $0)) } ?? ServiceConfiguration() }
        let environment = ProcessInfo.processInfo.environment
        try Self.asUsage { try settings.apply(environment: environment) }
        if let key = environment["LUMEN_KEY"] ?? environment["IMGPROXY_KEY"],
           let salt = environment["LUMEN_SALT"] ?? environment["IMGPROXY_SALT"] {
            let keys = key.split(separator: ","), salts = salt.split(separator: ",")
            guard keys.count == salts.count else { throw ValidationError("give as many salts as keys") }
            settings.signingKeys = zip(keys, salts).map { .init(key: String($0), salt: String($1)) }
        }
        for root in roots {
            if let eq = root.firstIndex(of: "=") {
                settings.roots[String(root[..<eq])] = String(root[root.index(after: eq)...])
            } else {
                settings.roots[""] = root
            }
        }
        if let recipes { settings.recipesFolder = recipes }
        if allowUnsigned { settings.allowUnsigned = true }
        if allowInlineChains { settings.allowInlineChains = true }
        if let concurrency { settings.maxConcurrentRenders = concurrency }
        if let queue { settings.maxQueuedRenders = queue }
        if let timeout { settings.renderTimeout = timeout }
        if let memory { settings.memoryBudget = memory << 20 }
        if let maxSourceMegapixels {
            guard maxSourceMegapixels.isFinite, maxSourceMegapixels > 0, maxSourceMegapixels < 1e6 else {
                throw ValidationError("--max-source-megapixels must be 0…1000000")
            }
            settings.maxSourcePixels = Int(maxSourceMegapixels * 1e6)
        }
        guard let level = Logger.Level(rawValue: logLevel) else { throw ValidationError("--log-level must be trace, debug, info, notice, warning or error") }
        let colon = listen.lastIndex(of: ":")
        guard let colon, let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen must be HOST:PORT, got '\(listen)'")
        }
        let host = String(listen[..<colon])

        if printConfig {
            try Self.asUsage { try settings.validate() }
            var shown = settings
            shown.signingKeys = shown.signingKeys.map { _ in .init(key: "(hidden)", salt: "(hidden)") }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(shown), as: UTF8.self))
            return
        }
        let logger = { var logger = Logger(label: "lumen-serve"); logger.logLevel = level; return logger }()
        let service = try Self.asUsage { try ImageService(configuration: settings, logger: logger) }
        let router = Router(context: LumenRequestContext.self)
        router.add(middleware: LogRequestsMiddleware(.info))
        service.addRoutes(to: router)
        let app = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [HeaderLimitHandler(), ClientCloseHandler(), ResponseCloseHandler()],
                                                idleTimeout: .seconds(Int64(settings.idleTimeout)))),
            configuration: .init(address: .hostname(host, port: port), serverName: "lumen-serve"),
            onServerRunning: { channel in
                logger.notice("listening", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "?")"])
            },
            logger: logger)
        // Services shut down in reverse order: /ready answers 503 first, then listening stops.
        var group = ServiceGroupConfiguration(services: [app, Readiness(service: service)], gracefulShutdownSignals: [.sigterm, .sigint],
                                              logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(settings.renderTimeout + 5)
        try await ServiceGroup(configuration: group).run()
    }
}

extension LumenServe {
    /// What `body` returns; a bad setting it reports is a usage error, printed as ArgumentParser prints one.
    static func asUsage<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ServiceError { throw ValidationError(error.description) }
    }
}

/// Turns `/ready` to 503 as soon as a graceful shutdown begins, so a load balancer stops
/// sending requests while those in flight finish.
struct Readiness: Service {
    let service: ImageService

    func run() async throws {
        try? await gracefulShutdown()
        service.beginShutdown()
    }
}
