import ArgumentParser
import Foundation
import Lumen

/// Options every rendering command takes.
struct RenderOptions: ParsableArguments {
    @Option(help: "Worker threads (default: one per core).") var threads: Int?
    @Option(help: "Tile size WxH.") var tile: String?
    @Option(name: .customLong("cache-size"), help: "Render cache budget in bytes (suffixes K, M, G).") var cacheSize: String?
    @Flag(help: "Print cache and timing figures on stderr.") var stats = false
    @Flag(name: .customLong("no-orient"), help: "Keep stored pixels; ignore EXIF orientation.") var noOrient = false
    @Option(name: .customLong("pixel-limit"),
            help: "Largest width × height an input or output may have (default 268435456, 16384²; suffixes K, M, G).")
    var pixelLimit: String?

    func context() throws -> RenderContext {
        var options = RenderContext.Options(threads: threads)
        if let tile {
            let parts = tile.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw ValidationError("--tile must be WxH, got '\(tile)'") }
            options.tileWidth = parts[0]
            options.tileHeight = parts[1]
        }
        if let cacheSize {
            guard let bytes = parseByteCount(cacheSize) else { throw ValidationError("--cache-size must be a byte count, got '\(cacheSize)'") }
            options.cacheBytes = bytes
        }
        if let pixelLimit {
            guard let pixels = parseByteCount(pixelLimit), pixels > 0 else {
                throw ValidationError("--pixel-limit must be a positive number of pixels, got '\(pixelLimit)'")
            }
            options.pixelLimit = pixels
        }
        return RenderContext(options)
    }

    var loadOptions: Image.LoadOptions { Image.LoadOptions(appliesOrientation: !noOrient) }

    func report(_ context: RenderContext) {
        guard stats, let report = context.lastReport else { return }
        let window = report.streamedWindowRows > 0 ? ", streamed through a window of \(report.streamedWindowRows) rows" : ""
        printError("\(report.cache)\nrender: \(String(format: "%.1f", report.seconds * 1000)) ms, source rows decoded: \(report.decodedRows)\(window)")
    }
}

func parseByteCount(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    let upper = text.uppercased().replacingOccurrences(of: "IB", with: "").replacingOccurrences(of: "B", with: "")
    if let last = upper.last, let unit = units[last], let value = Double(upper.dropLast()) {
        let bytes = value * Double(unit)
        return bytes.isFinite && bytes >= 0 && bytes < 0x1p62 ? Int(bytes) : nil
    }
    return Int(upper)
}

func printError(_ message: String) {
    FileHandle.standardError.write((message + "\n").data(using: .utf8)!)
}

/// Runs a command body, turning Lumen errors into a one-line message and exit code 2
/// (usage, chain or input error) — or the given code.
func reportingErrors(exitCode: Int32 = 2, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as LumenError {
        printError("lumen: \(error)")
        throw ExitCode(exitCode)
    }
}

func outputFormat(for path: String, quality: Double?, depth: Int?) throws -> OutputFormat {
    guard var format = OutputFormat(path: path) else {
        let extensions = ImageFileFormat.all.map { "." + $0.preferredExtension }.joined(separator: ", ")
        throw ValidationError("cannot tell the output format from '\(path)': use one of \(extensions)")
    }
    if let quality {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1…100, got \(quality)") }
        format.quality = quality / 100
    }
    if let depth {
        guard depth == 8 || depth == 16 else { throw ValidationError("--depth must be 8 or 16, got \(depth)") }
        format = OutputFormat(fileFormat: format.fileFormat, quality: format.quality, depth: depth)
    }
    return format
}
