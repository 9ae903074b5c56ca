import ArgumentParser
import Foundation
import Lumen

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "batch", abstract: "Run a chain over many images in parallel, into a folder.")
    @Argument(help: "Chain file (omit with -e), then input images.") var arguments: [String]
    @Option(name: .shortAndLong, help: "Output folder (created if missing).") var output: String
    @OptionGroup var chain: ChainSource
    @Option(help: "Output format by name or extension (jpeg, png, tiff; default: each input's).") var format: String?
    @Option(help: "Images processed at once (default: cores).") var jobs: Int?
    @Flag(name: .customLong("skip-existing"), help: "Skip inputs whose output exists.") var skipExisting = false
    @Flag(name: .customLong("fail-fast"), help: "Stop at the first failed input.") var failFast = false
    @Flag(help: "Print a JSON summary.") var json = false
    @Option(help: "JPEG quality 1–100 (default 90).") var quality: Double?
    @OptionGroup var renderOptions: RenderOptions
    @OptionGroup var assetOptions: AssetOptions

    func run() throws {
        let chainPath = chain.expression == nil ? arguments.first : nil
        let inputs = Array(arguments.dropFirst(chainPath == nil ? 0 : 1))
        guard !inputs.isEmpty else { throw ValidationError("no input images") }
        var filterChain: FilterChain!
        var settings: [String: String] = [:]
        try reportingErrors {
            filterChain = try chain.load(chainPath)
            settings = try chain.parsedSettings()
        }
        let outputFormatName = try format.map { name -> ImageFileFormat in
            guard let f = ImageFileFormat(name: name) else {
                throw ValidationError("--format must be one of \(ImageFileFormat.all.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
            }
            return f
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // One context for the whole batch: decoded shared assets and masks are cached once.
        let jobs = max(1, self.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var options = try renderOptions.context().options
        options.threads = max(1, options.threads / jobs)
        let context = RenderContext(options)
        let progress = BatchProgress(total: inputs.count, json: json)
        let lock = NSLock()
        var failures: [(String, String)] = []
        var stop = false
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            var index = worker
            while index < inputs.count {
                lock.lock(); let halted = stop; lock.unlock()
                if halted { return }
                let input = inputs[index]
                let result = process(input, chain: filterChain, settings: settings, context: context, format: outputFormatName)
                lock.lock()
                switch result {
                case .success(let skipped): progress.finished(input, skipped: skipped, failure: nil)
                case .failure(let message):
                    failures.append((input, message))
                    progress.finished(input, skipped: false, failure: message)
                    if failFast { stop = true }
                }
                lock.unlock()
                index += jobs
            }
        }
        progress.summary(failures: failures, seconds: Date().timeIntervalSince(started), cache: context.cache.statistics)
        renderOptions.report(context)
        if !failures.isEmpty { throw ExitCode(1) }
    }

    private enum Outcome { case success(skipped: Bool), failure(String) }

    private func process(_ input: String, chain: FilterChain, settings: [String: String], context: RenderContext,
                         format: ImageFileFormat?) -> Outcome {
        let inputURL = URL(fileURLWithPath: input)
        let base = inputURL.deletingPathExtension().lastPathComponent
        let ext = format?.preferredExtension ?? inputURL.pathExtension
        let target = URL(fileURLWithPath: output).appendingPathComponent("\(base).\(ext)")
        if skipExisting && FileManager.default.fileExists(atPath: target.path) { return .success(skipped: true) }
        do {
            let image = try Image(contentsOf: inputURL, options: renderOptions.loadOptions)
            let result = try chain.apply(to: image, settings: settings, assets: try assetOptions.lookup())
            let depth = image.fileHeader?.decodedDepth ?? 8
            let outputFormat = try outputFormat(for: target.path, quality: quality, depth: depth)
            try context.write(result, to: target, format: outputFormat, in: renderRect(result, input: image))
            // This input is never read again; shared assets and masks stay cached.
            context.cache.removeValues(for: image)
            return .success(skipped: false)
        } catch let error as LumenError {
            return .failure(error.description)
        } catch {
            return .failure("\(input): \(error)")
        }
    }
}

/// Progress on a terminal (a bar on one line) or plain lines otherwise, and the summary.
final class BatchProgress {
    let total: Int
    let json: Bool
    let isTerminal = isatty(STDERR_FILENO) != 0
    private var done = 0, skipped = 0

    init(total: Int, json: Bool) { self.total = total; self.json = json }

    func finished(_ input: String, skipped wasSkipped: Bool, failure: String?) {
        done += 1
        if wasSkipped { skipped += 1 }
        if let failure {
            if isTerminal { FileHandle.standardError.write("\r\u{1B}[K".data(using: .utf8)!) }
            printError("lumen: \(failure)")
        }
        if isTerminal {
            let width = 30, filled = width * done / max(total, 1)
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardError.write("\r[\(bar)] \(done)/\(total)".data(using: .utf8)!)
        } else if !json {
            printError("[\(done)/\(total)] \(input)\(wasSkipped ? " (skipped, output exists)" : failure == nil ? "" : " FAILED")")
        }
    }

    func summary(failures: [(String, String)], seconds: Double, cache: RenderCache.Statistics) {
        if isTerminal { FileHandle.standardError.write("\n".data(using: .utf8)!) }
        let succeeded = done - failures.count - skipped
        if json {
            print(jsonText(["total": total, "succeeded": succeeded, "skipped": skipped, "failed": failures.count,
                            "failures": failures.map { ["input": $0.0, "error": $0.1] }, "seconds": seconds]))
        } else {
            print("\(succeeded) written, \(skipped) skipped, \(failures.count) failed of \(total) in \(String(format: "%.2f", seconds)) s")
        }
    }
}
