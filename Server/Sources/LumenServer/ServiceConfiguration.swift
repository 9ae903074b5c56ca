import Foundation

/// How the service runs: who may ask (signing keys), what it may read (roots, recipes),
/// and how much it may take (limits and the one memory budget). Made from flags,
/// environment variables and a JSON file by `lumen-serve`; an app that mounts the routes
/// builds one in code.
public struct ServiceConfiguration: Sendable, Codable, Equatable {
    /// A key and salt pair, as imgproxy's IMGPROXY_KEY and IMGPROXY_SALT: hex-encoded bytes.
    public struct SigningKey: Sendable, Codable, Equatable {
        public var key: String
        public var salt: String
        public init(key: String, salt: String) { self.key = key; self.salt = salt }
    }

    /// Keys any of which may sign a URL (several, so keys can be rotated).
    public var signingKeys: [SigningKey] = []
    /// Digest bytes a signature carries (imgproxy's IMGPROXY_SIGNATURE_SIZE): 32, or fewer for shorter URLs.
    public var signatureBytes = 32
    /// Accept URLs whose signature segment is anything (`unsafe`, `_`): for development only.
    public var allowUnsigned = false
    /// Folders sources are read from, by name: the source `photos/2024/a.jpg` is `2024/a.jpg`
    /// under the root named `photos`. A root named "" takes the whole source path.
    public var roots: [String: String] = [:]
    /// Hosts HTTP(S) sources may come from (`images.example.com`, `*.example.com`, or `*`
    /// for any); none by default, which turns origins off.
    public var originHosts: [String] = []
    /// Let origins resolve to loopback, private and other internal addresses (off: SSRF).
    public var allowPrivateOrigins = false
    /// Largest source an origin may send, in bytes (and at most the bodies' share of `memoryBudget`).
    public var maxSourceBytes = 64 << 20
    /// Seconds an origin fetch may take, redirects included (504 after it).
    public var originTimeout = 10.0
    /// Redirects an origin fetch follows, each checked as the first request was.
    public var maxRedirects = 3
    /// The folder of named recipes: `r:thumb` runs `thumb.chain` from it.
    public var recipesFolder: String?
    /// Accept chains written in the URL (`chain:` option, base64url). They may read no file.
    public var allowInlineChains = false

    /// Renders running at once (default: one per core).
    public var maxConcurrentRenders = ProcessInfo.processInfo.activeProcessorCount
    /// Threads each render spreads its tiles over. Default 1: with a render per core running,
    /// more threads only fight over the cores. Measured on 2 cores (scripts/bench-serve, 800 px
    /// thumbnails): 1 thread gave 56 requests/s at 8 connections where 2 gave 37–54, and 2
    /// gave a lone request 25 % less latency (13 ms instead of 17).
    public var threadsPerRender = 1
    /// Requests waiting for a render slot; beyond them the answer is 503 with Retry-After.
    public var maxQueuedRenders = 4 * ProcessInfo.processInfo.activeProcessorCount
    /// Seconds a request may take from arrival to its last byte rendered: an upload's body
    /// must have arrived by then (408), and the render is stopped at the deadline (504).
    public var renderTimeout = 20.0
    /// Largest width × height a source may have (checked from its header, before decoding).
    public var maxSourcePixels = 50_000_000
    /// Largest width × height an output may have.
    public var maxOutputPixels = 16_777_216
    /// Largest body a POST may send, in bytes (and at most the bodies' share of `memoryBudget`).
    public var maxBodyBytes = 32 << 20
    /// One budget, in bytes, shared by the render cache (half), renders in flight (a quarter,
    /// which limits what each may decode at once), the cache of encoded outputs (an eighth)
    /// and the bodies held in memory (an eighth: uploads and origins' answers, from their
    /// first byte until their render is done; past it, 503 with Retry-After).
    public var memoryBudget = 512 << 20
    /// Seconds an idle connection (or one still sending its headers) is kept.
    public var idleTimeout = 30.0
    /// The Cache-Control header of image responses.
    public var cacheControl = "public, max-age=31536000, immutable"
    /// Keep encoded outputs for repeated requests (an eighth of the memory budget); off, every
    /// request renders (for measuring renders, or when a CDN in front does the caching).
    public var outputCache = true
    /// Keep decoded sources and intermediates between requests in the render cache (half the
    /// memory budget): a source over 8 MiB decoded streams on its first request and is kept
    /// from its second. Off, every request decodes its source again: for sources seldom asked
    /// for twice, or to measure a request's whole cost.
    public var renderCache = true
    /// Prefer AVIF (slow to encode, small) over WebP when the client accepts both.
    public var preferAVIF = false
    /// Quality (1…100) when the URL gives none.
    public var defaultQuality = 80
    /// At most how much shrinking a reduced decode must leave the resampler (1…2,
    /// `RenderContext.Options.shrinkOnLoadMargin`). 1, the default, decodes a JPEG at the
    /// smallest DCT scale not below the output, as imgproxy (libvips' `shrink` on load) and
    /// thumbor (Pillow's `draft`) do: an 800-pixel thumbnail of a 2560-pixel photo reads a
    /// quarter of the pixels, 45–53 dB from the full-size Lanczos, at about twice the
    /// throughput. 2 is vipsthumbnail's margin, the library's and `lumen thumbnail`'s.
    public var shrinkOnLoadMargin = 1.0

    public init() {}

    /// Reads a JSON file of the same keys; keys it leaves out keep their defaults.
    public init(contentsOf url: URL) throws {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ServiceError.configuration("\(url.path): cannot be read (\(FileManager.default.fileExists(atPath: url.path) ? "no permission, or a folder" : "no such file"))")
        }
        guard let given = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ServiceError.configuration("\(url.path): not a JSON object")
        }
        var merged = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ServiceConfiguration())) as? [String: Any] ?? [:]
        let known = Set(merged.keys).union(Self.optionalKeys)
        if let unknown = given.keys.sorted().first(where: { !known.contains($0) }) {
            throw ServiceError.configuration("\(url.path): unknown key '\(unknown)' (keys: \(known.sorted().joined(separator: ", ")))")
        }
        merged.merge(given) { _, new in new }
        self = try Self.decoded(merged) { "\(url.path): '\($0)' has the wrong type or form" }
    }

    /// The settings `merged` (each key's JSON value) holds, each value checked; a decoding
    /// error is described by `describe` from the key path it points at ("" when none).
    private static func decoded(_ merged: [String: Any], describe: (String) -> String) throws -> ServiceConfiguration {
        let settings: ServiceConfiguration
        do {
            settings = try JSONDecoder().decode(ServiceConfiguration.self, from: JSONSerialization.data(withJSONObject: merged))
        } catch let error as DecodingError {
            throw ServiceError.configuration(describe(path(of: error)))
        }
        try settings.validate(complete: false)
        return settings
    }

    /// Settings that are nil by default, which an encoded default leaves out.
    static let optionalKeys: Set<String> = ["recipesFolder"]

    /// The key path a decoding error points at (`signingKeys.0.salt`).
    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case let .typeMismatch(_, c), let .valueNotFound(_, c), let .keyNotFound(_, c), let .dataCorrupted(c): context = c
        @unknown default: return ""
        }
        return context.codingPath.map(\.stringValue).joined(separator: ".")
    }

    /// The environment variable that sets `key`: `LUMEN_SERVE_` and the key in upper snake
    /// case (`memoryBudget` → `LUMEN_SERVE_MEMORY_BUDGET`).
    public static func environmentName(of key: String) -> String {
        var name = "LUMEN_SERVE_", previous: Character = "_"
        for character in key {
            if character.isUppercase && !previous.isUppercase { name += "_" }  // preferAVIF → PREFER_AVIF
            name += character.uppercased()
            previous = character
        }
        return name
    }

    /// Overrides the settings that `LUMEN_SERVE_…` variables of `environment` name (see
    /// `environmentName(of:)`). A value is read as JSON when it parses (`268435456`, `true`,
    /// `{"photos": "/srv/photos"}`), else as a string. An unknown `LUMEN_SERVE_` variable or a
    /// value of the wrong type is refused by name.
    public mutating func apply(environment: [String: String]) throws {
        var merged = try JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: Any] ?? [:]
        let names = Dictionary(uniqueKeysWithValues: Set(merged.keys).union(Self.optionalKeys).map { (Self.environmentName(of: $0), $0) })
        var given: [String] = []
        for (variable, text) in environment.sorted(by: { $0.key < $1.key }) where variable.hasPrefix("LUMEN_SERVE_") {
            guard let key = names[variable] else {
                throw ServiceError.configuration("unknown environment variable \(variable) (known: \(names.keys.sorted().joined(separator: ", ")))")
            }
            merged[key] = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) ?? text
            given.append(variable)
        }
        guard !given.isEmpty else { return }
        self = try Self.decoded(merged) { path in
            // A number that does not fit comes without a path: then name what was given.
            let name = path.split(separator: ".").first.map { Self.environmentName(of: String($0)) }
                ?? (given.count == 1 ? given[0] : "one of " + given.joined(separator: ", "))
            return "\(name) has the wrong type or form"
        }
    }

    /// Refuses settings that cannot work, naming the setting. `complete` false checks each
    /// value but not that the keys are there: a file's settings may leave them to the
    /// environment (`LUMEN_KEY`) or to `--allow-unsigned`.
    public func validate(complete: Bool = true) throws {
        func fail(_ message: String) -> ServiceError { .configuration(message) }
        for (index, pair) in signingKeys.enumerated() {
            guard Hex.bytes(pair.key)?.isEmpty == false, Hex.bytes(pair.salt) != nil else {
                throw fail("signing key \(index + 1): key and salt must be hex (the key not empty)")
            }
        }
        guard !complete || signingKeys.count > 0 || allowUnsigned else { throw fail("give a signing key and salt, or allow unsigned URLs") }
        guard (1...32).contains(signatureBytes) else { throw fail("signatureBytes must be 1…32, got \(signatureBytes)") }
        guard maxConcurrentRenders >= 1, maxQueuedRenders >= 0 else { throw fail("maxConcurrentRenders must be ≥ 1 and maxQueuedRenders ≥ 0") }
        guard (1...256).contains(threadsPerRender) else { throw fail("threadsPerRender must be 1…256, got \(threadsPerRender)") }
        guard renderTimeout.isFinite, renderTimeout > 0, renderTimeout <= 3600 else { throw fail("renderTimeout must be 0…3600 s, got \(renderTimeout)") }
        guard maxSourcePixels >= 1, maxOutputPixels >= 1, maxBodyBytes >= 1 else { throw fail("limits must be positive") }
        guard memoryBudget >= 16 << 20 else { throw fail("memoryBudget must be at least 16 MiB, got \(memoryBudget)") }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 3600 else { throw fail("idleTimeout must be 0…3600 s") }
        guard (1...100).contains(defaultQuality) else { throw fail("defaultQuality must be 1…100") }
        // Above 2 it would change nothing: the margin caps each format's own (JPEG's is 2).
        guard (1...2).contains(shrinkOnLoadMargin) else { throw fail("shrinkOnLoadMargin must be 1…2, got \(shrinkOnLoadMargin)") }
        guard maxSourceBytes >= 1, originTimeout.isFinite, originTimeout > 0, originTimeout <= 600, (0...10).contains(maxRedirects) else {
            throw fail("maxSourceBytes must be positive, originTimeout 0…600 s and maxRedirects 0…10")
        }
        for (name, folder) in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw fail("root '\(name)': \(folder) is not a folder")
            }
            guard !name.contains("/") else { throw fail("root names have no '/': '\(name)'") }
        }
        if roots[""] != nil && roots.count > 1 { throw fail("a root without a name must be the only root") }
        if let recipesFolder, !FileManager.default.fileExists(atPath: recipesFolder) {
            throw fail("recipes folder \(recipesFolder) does not exist")
        }
    }
}

/// Errors of the service's own making (configuration, requests), with the status they answer.
public enum ServiceError: Error, Equatable, CustomStringConvertible {
    case configuration(String)
    case request(status: Int, message: String)

    public var description: String {
        switch self {
        case let .configuration(message): return "configuration: \(message)"
        case let .request(_, message): return message
        }
    }
}

enum Hex {
    /// The bytes of a hex string (either case), nil when it is not hex.
    static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        var i = 0
        while i < digits.count {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    /// `bytes` as lower-case hex digits (two table lookups a byte: every answer's ETag and
    /// every upload's validator pass here, where a String(format:) a byte cost microseconds).
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
