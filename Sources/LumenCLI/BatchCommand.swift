import ArgumentParser
import LumenPlatform
import Lumen

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch", abstract: "Run a chain over many images in parallel, into a folder.",
        discussion: """
        Inputs come from the command line, a manifest (--from FILE or - for standard input: one path per \
        line, or JSON lines {"input": …, "output": …, "set": {…}}) and folders (-r). --shard K/N takes the \
        inputs whose position in that list is K modulo N (0 ≤ K < N): the same K/N always means the same \
        inputs, and the N shards cover the list once. --results writes one JSON line per input as it ends.

        \(BatchInputOptions.exitCodes)
        """).underLumen()
    @Argument(help: "Chain file (omit with -e), then input images or folders.") var arguments: [String] = []
    @Option(name: .shortAndLong, help: "Output folder (created if missing); a local path or file:// URL.") var output: String
    @OptionGroup var chain: ChainSource
    @OptionGroup var batch: BatchInputOptions
    @OptionGroup var renderOptions: RenderOptions
    @OptionGroup var assetOptions: AssetOptions

    func run() throws {
        let chainPath = chain.expression == nil ? arguments.first : nil
        let named = Array(arguments.dropFirst(chainPath == nil ? 0 : 1))
        var filterChain: FilterChain?
        var settings: [String: String] = [:]
        var assets: FilterChain.AssetLookup?
        var applyOptions = FilterChain.ApplyOptions()
        try reportingErrors {
            filterChain = try chain.load(chainPath)
            applyOptions = try chain.applyOptions(renderOptions.loadOptions)
            settings = try chain.parsedSettings()
            assets = try assetOptions.lookup()
        }
        guard let filterChain else { throw ExitCode(2) }
        let lookup = assets, options = applyOptions
        try batch.run(named: named, output: output, settings: settings, renderOptions: renderOptions, assets: lookup) { _ in
            { image, item in try filterChain.apply(to: image, settings: item.settings, assets: lookup, options: options) }
        }
    }
}

struct Thumbnail: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail", abstract: "Make thumbnails that fit (or cover and crop to) a box, like vipsthumbnail.",
        discussion: """
        Each image is shrunk with Lanczos-3 (decoding JPEGs at 1/2, 1/4 or 1/8 and averaging blocks of \
        other formats first when the shrink is large) to fit inside WxH. --crop centre or attention \
        covers the box instead and keeps the centre, or the window whose preview has the most luma \
        gradient plus saturation. Takes the same inputs, shards and results as lumen batch.

        \(BatchInputOptions.exitCodes)
        """).underLumen()
    @Argument(help: "Input images or folders.") var inputs: [String] = []
    @Option(name: .shortAndLong, help: "Output folder (created if missing).") var output: String
    @Option(name: .shortAndLong, help: "The box, WxH, N for a square, Wx for a width (any height) or xH for a height.") var size: String
    @Option(help: "none (fit inside), centre or attention (cover, then crop).") var crop: String = "none"
    @Option(name: .customLong("grow"), help: "both, down (only shrink) or up (only enlarge).") var sizeRule: String = "both"
    @OptionGroup var batch: BatchInputOptions
    @OptionGroup var renderOptions: RenderOptions

    func run() throws {
        let box = try parseSize(size, option: "--size", square: true, oneSided: true)
        guard let crop = Lumen.Thumbnail.Crop(rawValue: crop == "center" ? "centre" : crop) else {
            throw ValidationError("--crop must be none, centre or attention, got '\(crop)'")
        }
        guard let rule = Lumen.Thumbnail.SizeRule(rawValue: sizeRule) else {
            throw ValidationError("--grow must be both, down or up, got '\(sizeRule)'")
        }
        if crop != .none, box.width == nil || box.height == nil {
            throw ValidationError("--crop \(crop.rawValue) covers a box: give both sides (WxH), got '\(size)'")
        }
        // A free side is as large as a side may be, so the other one decides (vipsthumbnail's rule).
        let thumbnail = Lumen.Thumbnail(width: box.width ?? (1 << 20), height: box.height ?? (1 << 20), crop: crop, size: rule)
        try batch.run(named: inputs, output: output, settings: [:], renderOptions: renderOptions, assets: nil) { context in
            { image, _ in try thumbnail.apply(to: image, context: context) }
        }
    }
}

/// The options every batch-like command shares: where inputs come from, which shard,
/// where results go, and how outputs are written.
struct BatchInputOptions: ParsableArguments {
    @Option(name: .customLong("from"), help: "Read inputs from a manifest file, or - for standard input.") var manifest: String?
    @Flag(name: .customShort("r"), help: "Recurse into folders given as inputs; outputs mirror their relative paths.") var recursive = false
    @Option(help: "Process only shard K of N (K from 0), e.g. 3/8.") var shard: String?
    @Option(help: "Write one JSON line per input (input, output, status, errorKind, message, milliseconds, bytes, width, height) to FILE, or - for standard output.")
    var results: String?
    @Option(help: "Images processed at once (default: cores).") var jobs: Int?
    @Flag(name: .customLong("skip-existing"), help: "Skip inputs whose output exists.") var skipExisting = false
    @Flag(name: .customLong("fail-fast"), help: "Stop at the first failed input.") var failFast = false
    @Flag(help: "Print a JSON summary.") var json = false
    @Option(help: "Name outputs from a template: %s is the input's name without extension (tn_%s.jpg); its extension gives the format unless --format does.")
    var name: String?
    @OptionGroup var output: OutputOptions

    static let exitCodes = """
        Exit codes: 0 every input written (or skipped); 1 some inputs failed for good (a bad or \
        unsupported file, a chain error for that input); 2 usage, chain or configuration error, \
        nothing done (two inputs with one output name, an s3:// output…); 3 some outputs failed in a \
        way worth retrying (I/O error, full disk), or the batch was stopped by SIGTERM/SIGINT.
        """

    /// Collects the inputs, builds a `BatchRunner` with the recipe `makeRecipe` gives,
    /// runs it with progress and results, and exits with the batch's code.
    func run(named: [String], output: String, settings: [String: String], renderOptions: RenderOptions,
             assets: FilterChain.AssetLookup?, makeRecipe: (RenderContext) throws -> BatchRunner.Recipe) throws {
        var runner: BatchRunner?
        var items: [BatchItem] = []
        try reportingErrors {
            var options = BatchRunner.Options(outputDirectory: try BatchRunner.outputFolder(output))
            if let format = self.output.format {
                guard let f = ImageFileFormat(name: format), f.isWritable else {
                    throw ValidationError("--format must be one of \(ImageFileFormat.writable.map(\.rawValue).joined(separator: ", ")), got '\(format)'")
                }
                options.format = f
            }
            if let quality = self.output.quality {
                guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1…100, got \(quality)") }
                options.quality = quality / 100
            }
            if let depth = self.output.depth {
                guard [8, 10, 16].contains(depth) else { throw ValidationError("--depth must be 8, 10 (HEIC, AVIF) or 16 (PNG, TIFF), got \(depth)") }
                options.depth = depth
            }
            options.lossless = self.output.lossless
            options.encoding = try self.output.encoding()
            if let name {
                guard !name.contains("/") else { throw ValidationError("--name is a file name template (tn_%s.jpg), not a path: the folder is -o") }
                if self.output.format == nil {
                    guard let byName = OutputFormat(path: name)?.fileFormat, byName.isWritable else {
                        throw ValidationError("--name '\(name)': its extension must be a format Lumen writes (\(writableExtensions)), or give --format")
                    }
                    options.format = byName
                }
                options.nameTemplate = name
            }
            options.metadata = try self.output.metadataPolicy()
            options.hdr = try self.output.hdrPolicy()
            options.profile = try self.output.outputProfile()
            let jobs = max(1, self.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            options.jobs = jobs
            options.skipExisting = skipExisting
            options.failFast = failFast
            options.loadOptions = renderOptions.loadOptions
            options.assets = assets
            items = try collectInputs(named, options: &options).map { item in
                var item = item
                item.settings = settings.merging(item.settings) { _, own in own }
                return item
            }
            if let shard { items = try Self.select(shard: shard, of: items) }
            // One context for the whole batch: decoded shared assets and masks are cached once.
            var contextOptions = try renderOptions.context().options
            contextOptions.threads = max(1, contextOptions.threads / jobs)
            let context = RenderContext(contextOptions)
            runner = BatchRunner(recipe: try makeRecipe(context), context: context, options: options)
            // Collisions, outputs that are inputs and folders that cannot be made stop here, before any work.
            _ = try runner?.outputs(for: items)
            try runner?.makeOutputFolder()
        }
        guard let runner else { throw ExitCode(2) }
        let resultsSink = try ResultsSink(results)
        let signals = Self.stopOnSignals()
        defer { signals.forEach { $0.cancel() } }
        let progress = BatchProgress(total: items.count, json: json, summaryToStandardError: results == "-")
        let summary: BatchRunner.Summary
        do {
            summary = try runner.run(items) { result in
                progress.finished(result)
                resultsSink.write(result)
            }
        } catch let error as LumenError {
            printError("lumen: \(error)")
            throw ExitCode(3)  // the output folder could not be made: worth retrying
        }
        progress.summary(summary, cache: runner.context.cache.statistics)
        renderOptions.report(runner.context)
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
    }


    /// Named inputs, the manifest's and the files under folders (with -r), in that order.
    private func collectInputs(_ named: [String], options: inout BatchRunner.Options) throws -> [BatchItem] {
        var items: [BatchItem] = []
        if let manifest {
            let text: String
            if manifest == "-" {
                text = String(decoding: StandardStreams.readInput(), as: UTF8.self)
            } else {
                guard let data = FileManager.default.contents(atPath: manifest) else {
                    throw LumenError.unreadable(file: manifest, reason: "cannot read the manifest")
                }
                text = String(decoding: data, as: UTF8.self)
            }
            items += try BatchManifest.parse(text, name: manifest == "-" ? "<stdin>" : manifest)
        }
        for path in named {
            guard isFolder(path) == true else {
                items.append(BatchItem(input: path))
                continue
            }
            guard recursive else { throw ValidationError("\(path) is a folder: add -r to process the images under it") }
            let root = URL(fileURLWithPath: path).standardizedFileURL
            options.mirrorRoot = root
            let files = filesUnder(root.path)
                .filter { ImageFileFormat(pathExtension: $0.filenameExtension) != nil }
                .sorted()
            items += files.map { BatchItem(input: root.appendingPathComponent($0).path) }
        }
        guard !items.isEmpty else { throw ValidationError("no input images") }
        return items
    }

    /// On SIGTERM or SIGINT: remove the outputs being written, say so, and exit 3 (a
    /// killed batch is worth retrying; finished outputs stay, `--skip-existing` resumes).
    static func stopOnSignals() -> [DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global(qos: .userInteractive))
            source.setEventHandler {
                let removed = BatchRunner.removeUnfinishedOutputs()
                printError("lumen: stopped by signal \(number); removed \(removed) unfinished output\(removed == 1 ? "" : "s")")
                exitProcess(3)
            }
            source.resume()
            return source
        }
    }

    static func select(shard text: String, of items: [BatchItem]) throws -> [BatchItem] {
        let parts = text.split(separator: "/").map { Int($0) }
        guard parts.count == 2, let k = parts[0], let n = parts[1], n > 0, (0..<n).contains(k) else {
            throw ValidationError("--shard must be K/N with 0 ≤ K < N, got '\(text)'")
        }
        return BatchManifest.shard(items, index: k, count: n)
    }
}

/// Where per-input results go: a JSON-lines file (appended, flushed per line, so a
/// driver reads them after a kill), standard output, or nowhere.
final class ResultsSink: @unchecked Sendable {  // written only from the runner's serial result callback
    /// The file descriptor written to (1 for standard output), or nil for nowhere.
    private let descriptor: Int32?
    private let encoder = JSONEncoder()

    init(_ path: String?) throws {
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let path else { descriptor = nil; return }
        if path == "-" { descriptor = STDOUT_FILENO; return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ValidationError("--results: cannot write \(path)") }
        descriptor = fd
    }

    deinit { if let descriptor, descriptor != STDOUT_FILENO { close(descriptor) } }

    func write(_ result: BatchResult) {
        guard let descriptor, let data = try? encoder.encode(result) else { return }
        StandardStreams.write(data + Data("\n".utf8), to: descriptor)
    }
}

/// Progress on a terminal (a bar on one line) or plain lines otherwise, and the summary.
final class BatchProgress: @unchecked Sendable {  // called only from the runner's serial result callback
    let total: Int
    let json: Bool
    /// With `--results -` standard output carries only the JSON lines.
    let summaryToStandardError: Bool
    let isTerminal = isatty(STDERR_FILENO) != 0
    private var done = 0

    init(total: Int, json: Bool, summaryToStandardError: Bool) {
        self.total = total
        self.json = json
        self.summaryToStandardError = summaryToStandardError
    }

    private func say(_ line: String) {
        if summaryToStandardError { printError(line) } else { print(line) }
    }

    func finished(_ result: BatchResult) {
        done += 1
        for warning in result.warnings ?? [] {
            if isTerminal { StandardStreams.writeError("\r\u{1B}[K") }
            printError("lumen: warning: \(warning)")
        }
        if let message = result.message, result.status == .failed {
            if isTerminal { StandardStreams.writeError("\r\u{1B}[K") }
            printError("lumen: \(message)")
        }
        if isTerminal {
            let width = 30, filled = width * done / max(total, 1)
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            StandardStreams.writeError("\r[\(bar)] \(done)/\(total)")
        } else if !json {
            let note = result.status == .skipped ? " (skipped, output exists)" : result.status == .failed ? " FAILED" : ""
            printError("[\(done)/\(total)] \(result.input)\(note)")
        }
    }

    func summary(_ summary: BatchRunner.Summary, cache: RenderCache.Statistics) {
        if isTerminal { StandardStreams.writeError("\n") }
        let failures = summary.failed
        if json {
            say(jsonText(["total": total, "succeeded": summary.succeeded, "skipped": summary.skipped, "failed": failures.count,
                            "failures": failures.map { ["input": $0.input, "error": $0.message ?? ""] }, "seconds": summary.seconds]))
        } else {
            say("\(summary.succeeded) written, \(summary.skipped) skipped, \(failures.count) failed of \(total) in \(String(printf: "%.2f", summary.seconds)) s")
        }
    }
}
