import LumenPlatform

/// What happened to one input.
public struct BatchResult: Sendable, Codable, Equatable {
    /// How an input ended: written, skipped (its output existed), or failed.
    public enum Status: String, Sendable, Codable {
        /// The output was written.
        case ok
        /// The output existed already and `skipExisting` was set.
        case skipped
        /// Nothing was written; `errorKind` and `message` say why.
        case failed
    }
    /// Why an input failed: `input` (a bad or unsupported file: retrying will not help),
    /// `chain` (the chain or a parameter), `output` (writing failed: an I/O error, a
    /// full disk — worth retrying).
    public enum ErrorKind: String, Sendable, Codable {
        /// The input file is bad or unsupported (retrying will not help).
        case input
        /// The chain or one of its values is wrong for this input.
        case chain
        /// Writing the output failed: an I/O error, a full disk (worth retrying).
        case output
    }

    /// The input's path as the manifest or command line gave it.
    public var input: String
    /// The output's path (written, or the one it would have had).
    public var output: String
    /// Written, skipped or failed.
    public var status: Status
    /// For a failure: whether the input, the chain or the writing was at fault (nil otherwise).
    public var errorKind: ErrorKind?
    /// For a failure: the error, naming the file, line or key.
    public var message: String?
    /// Wall time from the start of this input to its end, decode and encode included.
    public var milliseconds: Double
    /// The size of the written output.
    public var bytes: Int?
    /// The output's width in pixels.
    public var width: Int?
    /// The output's height in pixels.
    public var height: Int?
    /// Warnings the decoders raised for this input (damage they decoded around).
    public var warnings: [String]?
}

/// Runs a filter chain over many inputs on one machine: outputs named and checked for
/// collisions before any work, inputs in parallel (`jobs`), one result per input as soon
/// as it ends, atomic outputs. A command line, a Ray task or a server drives it.
public final class BatchRunner: Sendable {
    /// Where outputs go and how they are written, how many inputs run at once, and what
    /// to do with existing outputs and failures.
    public struct Options: Sendable {
        /// The folder outputs go to (created if missing).
        public var outputDirectory: URL
        /// Output format for every input (default: each input's own; PNG for formats
        /// Lumen only reads, such as GIF).
        public var format: ImageFileFormat?
        /// Quality 0…1 (default: each format's own, see `OutputFormat.quality`).
        public var quality: Double?
        /// Bits per channel (default: each input's).
        public var depth: Int?
        /// Lossless encoding where the format has it (WebP; HEIC and AVIF come within ±1).
        public var lossless = false
        /// JPEG: 4:4:4 chroma and progressive scans; PNG: zlib level and row filters
        /// (`OutputFormat`'s own fields; its defaults when not changed).
        public var encoding = OutputFormat.Encoding()
        /// Which metadata outputs keep (default: all of it).
        public var metadata: OutputFormat.MetadataPolicy = .all
        /// The colour profile outputs are encoded in (default: each input's).
        public var profile: OutputFormat.Profile = .input
        /// What becomes of inputs' HDR gain maps (kept in JPEG outputs by default).
        public var hdr: OutputFormat.HDRPolicy = .keep
        /// Inputs processed at once.
        public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
        /// Leaves inputs whose output already exists alone (reported as `skipped`): a rerun after a kill does only what is missing.
        public var skipExisting = false
        /// Stops starting new inputs after the first failure (those already running finish).
        public var failFast = false
        /// Inputs under this folder keep their relative path below `outputDirectory`
        /// (directories given with `-r`); others are written by file name.
        public var mirrorRoot: URL?
        /// How inputs are decoded (frame, pixel limit, shrink-on-load, warnings as errors).
        public var loadOptions = Image.LoadOptions()
        /// Where `asset("…")` in the chain looks (nil: no asset lookup).
        public var assets: FilterChain.AssetLookup?
        /// Output file names from a template, vipsthumbnail's `-o`: `%s` is the input's name
        /// without its extension (`tn_%s.jpg`); the template's extension gives the format
        /// unless `format` is set. nil: the input's name.
        public var nameTemplate: String?

        /// Options with every default, writing to `outputDirectory`.
        public init(outputDirectory: URL) { self.outputDirectory = outputDirectory }
    }

    /// What a batch did: counts, the failures, the time, and the exit code they mean.
    public struct Summary: Sendable {
        /// One result per input, in the order they ended.
        public var results: [BatchResult]
        /// Wall time of the whole batch.
        public var seconds: Double
        /// How many outputs were written.
        public var succeeded: Int { results.filter { $0.status == .ok }.count }
        /// How many inputs were skipped because their output existed.
        public var skipped: Int { results.filter { $0.status == .skipped }.count }
        /// The inputs that failed, with their reasons.
        public var failed: [BatchResult] { results.filter { $0.status == .failed } }
        /// 0 all written, 1 some inputs failed for good (bad files, chain errors), 3 some
        /// failed in a way worth retrying (writing: I/O errors, full disk).
        public var exitCode: Int32 {
            if failed.contains(where: { $0.errorKind == .output }) { return 3 }
            return failed.isEmpty ? 0 : 1
        }
    }

    /// What each input becomes: a chain applied with the item's settings, a thumbnail…
    public typealias Recipe = @Sendable (Image, BatchItem) throws -> Image

    private let recipe: Recipe
    /// The context every input is rendered with (its cache and threads are shared).
    public let context: RenderContext
    /// The options the batch was made with.
    public let options: Options

    /// A batch that turns each input image into `recipe(image, item)` and writes it as `options` say.
    public init(recipe: @escaping Recipe, context: RenderContext, options: Options) {
        self.recipe = recipe
        self.context = context
        self.options = options
    }

    /// Runs `chain` over every input, with each item's `--set` values.
    public convenience init(chain: FilterChain, context: RenderContext, options: Options) {
        let assets = options.assets
        self.init(recipe: { image, item in try chain.apply(to: image, settings: item.settings, assets: assets) },
                  context: context, options: options)
    }

    /// The output folder a user named: a local path or a `file://` URL. Other schemes
    /// (`s3://`, `gs://`, `http://`) are refused rather than taken as a folder name.
    public static func outputFolder(_ text: String) throws -> URL {
        if let range = text.firstRange(of: "://"), text[..<range.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }),
           !text[..<range.lowerBound].isEmpty {
            let scheme = text[..<range.lowerBound].lowercased()
            guard scheme == "file", let url = URL(string: text), url.isFileURL else {
                throw LumenError.unwritable(file: text, reason: "'\(scheme)://' outputs are not supported; give a local folder (or file://)")
            }
            return try checkedFolder(url)
        }
        return try checkedFolder(URL(fileURLWithPath: text))
    }

    /// The folder, unless something that is not a folder is already there.
    private static func checkedFolder(_ url: URL) throws -> URL {
        if isFolder(url.path) == false {
            throw LumenError.unwritable(file: url.path, reason: "this is a file, not a folder: outputs need a folder")
        }
        return url
    }

    /// The output path of every item, refusing before any work starts two inputs that
    /// would write the same file (both named) and an output that is one of the inputs.
    public func outputs(for items: [BatchItem]) throws -> [URL] {
        var seen: [String: String] = [:]
        var inputs: [String: String] = [:]
        var inputIdentities: [FileIdentity: String] = [:]
        for item in items {
            inputs[URL(fileURLWithPath: item.input).standardizedFileURL.path] = item.input
            if let identity = FileIdentity(path: item.input) { inputIdentities[identity] = item.input }
        }
        return try items.map { item in
            let url = try outputURL(for: item)
            let key = url.standardizedFileURL.path
            if let other = seen[key] {
                throw LumenError.unwritable(file: key, reason: "both \(other) and \(item.input) would be written here")
            }
            if let input = inputs[key] ?? FileIdentity(path: key).flatMap({ inputIdentities[$0] }) {
                throw LumenError.unwritable(file: key, reason: "this is the input \(input): Lumen never writes over an input (choose another output folder, --format or name)")
            }
            seen[key] = item.input
            return url
        }
    }

    private func outputURL(for item: BatchItem) throws -> URL {
        if let output = item.output {
            return output.hasPrefix("/") ? URL(fileURLWithPath: output) : options.outputDirectory.appendingPathComponent(output)
        }
        let input = URL(fileURLWithPath: item.input).standardizedFileURL
        var relative = input.deletingPathExtension().lastPathComponent
        if let root = options.mirrorRoot?.standardizedFileURL.path, input.path.hasPrefix(root + "/") {
            relative = String(input.deletingPathExtension().path.dropFirst(root.count + 1))
        }
        if let template = options.nameTemplate {
            // Split by hand: Foundation's NSString path methods trap on one-character names.
            let slash = relative.lastIndex(of: "/")
            let folder = slash.map { String(relative[..<$0]) } ?? "", name = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
            var named = try Self.expand(template, name: name)
            if let format = options.format, let dot = named.lastIndex(of: "."), dot != named.startIndex {
                named = String(named[..<dot]) + "." + format.preferredExtension
            }
            let directory = folder.isEmpty ? options.outputDirectory : options.outputDirectory.appendingPathComponent(folder)
            return directory.appendingPathComponent(named)
        }
        let readOnly = ImageFileFormat(pathExtension: input.pathExtension).map { !$0.isWritable } ?? false
        let ext = options.format?.preferredExtension ?? (readOnly ? ImageFileFormat.png.preferredExtension : input.pathExtension)
        return options.outputDirectory.appendingPathComponent(relative + "." + ext)
    }

    /// A name template with `%s` (the input's name) and `%%` expanded; any other `%` is refused.
    static func expand(_ template: String, name: String) throws -> String {
        var result = "", characters = template.makeIterator(), count = 0
        while let c = characters.next() {
            guard c == "%" else { result.append(c); continue }
            switch characters.next() {
            case "s": result += name; count += 1
            case "%": result.append("%")
            default: throw LumenError.unwritable(file: template, reason: "a name template takes %s (the input's name) and %% only")
            }
        }
        guard count > 0 else {
            throw LumenError.unwritable(file: template, reason: "a name template needs %s, the input's name (e.g. tn_%s.jpg)")
        }
        return result
    }

    /// Removes the temporary files of outputs being written right now in this process,
    /// for a batch stopping on SIGTERM or SIGINT; returns how many.
    @discardableResult
    public static func removeUnfinishedOutputs() -> Int { ImageWriter.removeTemporariesInFlight() }

    /// Temporary files that killed runs left for these outputs (`ImageWriter`'s naming:
    /// `.NAME.xxxxxxxx.tmp` beside NAME), removed before work starts; returns how many.
    /// Only this run's own outputs are looked at, so shards of one job writing into the
    /// same folder never remove each other's files in progress.
    @discardableResult
    public func removeStaleTemporaries(for outputs: [URL]) -> Int {
        var removed = 0
        for (directory, targets) in Dictionary(grouping: outputs, by: { $0.deletingLastPathComponent().path }) {
            let names = Set(targets.map(\.lastPathComponent))
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                guard let original = ImageWriter.outputName(ofTemporary: file), names.contains(original) else { continue }
                if (try? FileManager.default.removeItem(atPath: directory + "/" + file)) != nil { removed += 1 }
            }
        }
        return removed
    }

    /// Creates the output folder, with the reason in the user's words when it cannot be.
    public func makeOutputFolder() throws { try makeFolder(options.outputDirectory) }

    /// Runs every item, calling `onResult` (serially) as each ends.
    public func run(_ items: [BatchItem], onResult: @escaping @Sendable (BatchResult) -> Void) throws -> Summary {
        let targets = try outputs(for: items)
        try makeFolder(options.outputDirectory)
        removeStaleTemporaries(for: targets)
        let started = DispatchTime.now().uptimeNanoseconds
        struct Progress { var next = 0; var stop = false; var results: [BatchResult?] }
        let progress = LockedValue(Progress(results: Array(repeating: nil, count: items.count)))
        let jobs = max(1, min(options.jobs, items.count))
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while true {
                let index: Int? = progress.withLock { p in
                    guard !p.stop, p.next < items.count else { return nil }
                    p.next += 1
                    return p.next - 1
                }
                guard let index else { return }
                let result = process(items[index], to: targets[index])
                progress.withLock { p in
                    p.results[index] = result
                    if result.status == .failed && options.failFast { p.stop = true }
                    onResult(result)
                }
            }
        }
        let results = progress.withLock { $0.results.compactMap { $0 } }
        return Summary(results: results, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }

    private func process(_ item: BatchItem, to target: URL) -> BatchResult {
        let started = DispatchTime.now().uptimeNanoseconds
        var result = BatchResult(input: item.input, output: target.path, status: .ok, milliseconds: 0)
        if options.skipExisting && FileManager.default.fileExists(atPath: target.path) {
            result.status = .skipped
            return result
        }
        do {
            let image = try Image(contentsOf: URL(fileURLWithPath: item.input), options: options.loadOptions)
            let output = try recipe(image, item)
            let fileFormat = OutputFormat(path: target.path)?.fileFormat ?? options.format ?? .jpeg
            let depth = options.depth ?? image.fileHeader?.decodedDepth ?? 8
            var format = OutputFormat(fileFormat: fileFormat, quality: options.quality,
                                      depth: (fileFormat == .heic || fileFormat == .avif) && depth > 8 ? 10 : depth, lossless: options.lossless)
            format.metadata = options.metadata
            format.profile = options.profile
            format.hdr = options.hdr
            options.encoding.apply(to: &format)
            try makeFolder(target.deletingLastPathComponent())
            let rect = output.extent.isInfinite ? image.extent : nil
            // This input's decoder warnings, kept apart from those of inputs rendering beside it.
            let warnings = DecodeWarnings(failOnWarning: context.options.failOnWarning)
            try DecodeWarnings.$current.withValue(warnings) {
                try context.write(output, to: target, format: format, in: rect)
            }
            if !warnings.all.isEmpty { result.warnings = warnings.all }
            context.cache.removeValues(for: image)  // never read again; shared assets and masks stay
            let written = rect ?? output.extent
            result.width = Int(written.width.rounded())
            result.height = Int(written.height.rounded())
            result.bytes = fileSize(target.path)
        } catch let error as LumenError {
            result.status = .failed
            switch error {
            case .unwritable: result.errorKind = .output
            case .chain, .unknownFilter, .unknownKey, .invalidValue, .missingInput: result.errorKind = .chain
            default: result.errorKind = .input
            }
            result.message = error.description
        } catch {
            result.status = .failed
            result.errorKind = .output
            result.message = "\(target.path): cannot write: \(describeFileError(error, at: target.path))"
        }
        result.milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        return result
    }
}
