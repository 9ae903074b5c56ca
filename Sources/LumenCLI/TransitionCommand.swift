import ArgumentParser
import LumenPlatform
import Lumen

struct Transition: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "transition", abstract: "Write N frames of a transition from one image to another, time 0…1 inclusive.").underLumen()
    @Argument(help: "The image the transition starts from.") var from: String
    @Argument(help: "The image it ends on.") var to: String
    @Option(help: "Transition filter, e.g. dissolve (or dissolveTransition, CIDissolveTransition).") var filter: String
    @Option(name: .customLong("set"), help: "Set a filter parameter: --set name=value, the value written as in a chain (0.5, [x, y], #ff8800) (repeatable).") var settings: [String] = []
    @Option(help: "Number of frames (at least 2).") var frames: Int
    @Option(name: .shortAndLong, help: "An animated .webp (libwebp merges identical consecutive frames, adding up their time), or a pattern with a printf number for one file per frame, e.g. 'frames/%03d.png'.")
    var output: String
    @Option(help: "Seconds each frame shows in an animated WebP.") var delay: Double = 0.04
    @Option(help: "Animation quality 1–100 (WebP as cwebp -q, default 75; JPEG XL as cjxl -q, default 90).") var quality: Double?
    @Flag(help: "Lossless animation frames (WebP, JPEG XL).") var lossless = false
    @OptionGroup var renderOptions: RenderOptions

    func run() throws {
        guard frames >= 2 else { throw ValidationError("--frames must be at least 2") }
        guard frames <= 10_000 else { throw ValidationError("--frames must be at most 10000") }
        // An animation when the extension names a format that writes them (WebP, JPEG XL).
        let animationFormat = ImageFileFormat(pathExtension: output.filenameExtension)
            .flatMap { Codecs.codec(for: $0) }.flatMap { $0.capabilities.writesAnimation ? $0.format : nil }
        let animated = animationFormat != nil && !output.contains("%")
        guard animated || output.contains("%") else {
            throw ValidationError("-o needs an animation (\(Codecs.list(Codecs.all.filter(\.capabilities.writesAnimation).map { "." + $0.extensions[0] }))) or a frame number pattern such as frames/%03d.png")
        }
        guard delay.isFinite, delay > 0, delay <= 60 else { throw ValidationError("--delay must be 0…60 seconds, got \(delay)") }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1…100, got \(quality)") }
        guard animated || Self.isFramePattern(output) else {
            throw ValidationError("-o: a frame pattern takes one %d, %0Nd or %%: got '\(output)'")
        }
        try reportingErrors {
            let signals = try prepareToWrite(animated ? output : String(printf: output, Int32(0)), inputs: [from, to])
            defer { signals.forEach { $0.cancel() } }
            // Transitions answer to their short names too (`dissolve`, `swipe`).
            let descriptor = [filter, filter + "Transition"].lazy.compactMap(FilterRegistry.descriptor(named:))
                .first { $0.category == .transition }
            guard let descriptor else {
                throw LumenError.unknownFilter(name: filter, suggestions: FilterRegistry.all.filter { $0.category == .transition }.map(\.name))
            }
            let source = try Image(contentsOf: URL(fileURLWithPath: from), options: renderOptions.loadOptions)
            let target = try Image(contentsOf: URL(fileURLWithPath: to), options: renderOptions.loadOptions)
            var values: [String: FilterValue] = ["image": .image(source), "targetImage": .image(target)]
            for (name, text) in try parseSettings(settings) {
                let takesText = descriptor.parameters.first { $0.key == name }?.kind == .string
                values[name] = try FilterChain.settingValue(text, named: name, takesText: takesText)
            }
            let context = try renderOptions.context()
            let rect = source.extent
            if animated {
                let images = try (0..<frames).map { frame -> Image in
                    values["time"] = .number(Double(frame) / Double(frames - 1))
                    return try descriptor.apply(values)
                }
                var format = OutputFormat(fileFormat: animationFormat ?? .webp, lossless: lossless)
                if let quality { format.quality = quality / 100 }
                try context.writeAnimation(images, durations: [delay], to: URL(fileURLWithPath: output), format: format, in: rect)
                renderOptions.report(context)
                return
            }
            let directory = URL(fileURLWithPath: String(printf: output, Int32(0))).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw LumenError.unwritable(file: directory.path, reason: "cannot create this folder: \(describeFileError(error, at: directory.path))")
            }
            for frame in 0..<frames {
                values["time"] = .number(Double(frame) / Double(frames - 1))
                let image = try descriptor.apply(values)
                try context.write(image, to: URL(fileURLWithPath: String(printf: output, Int32(clamping: frame))), in: rect)
            }
            renderOptions.report(context)
        }
    }

    /// Whether `pattern` is safe for `String(printf:)` with one integer: exactly one `%d` or
    /// `%0Nd` (and `%%`), nothing that would read another argument.
    static func isFramePattern(_ pattern: String) -> Bool {
        var count = 0, index = pattern.startIndex
        while let percent = pattern[index...].firstIndex(of: "%") {
            var next = pattern.index(after: percent)
            if next < pattern.endIndex, pattern[next] == "%" { index = pattern.index(after: next); continue }
            while next < pattern.endIndex, pattern[next].isASCII, pattern[next].isNumber { next = pattern.index(after: next) }
            guard next < pattern.endIndex, pattern[next] == "d", pattern.distance(from: percent, to: next) <= 4 else { return false }
            count += 1
            index = pattern.index(after: next)
        }
        return count == 1
    }
}
