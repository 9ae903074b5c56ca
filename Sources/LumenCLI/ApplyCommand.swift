import ArgumentParser
import LumenPlatform
import Lumen

struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "apply", abstract: "Run a filter chain on one image.").underLumen()
    @Argument(help: "Chain file (omit with -e), then the input image.") var arguments: [String]
    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (\(writableExtensionsHelp)), or - for standard output.")) var output: String
    @OptionGroup var chain: ChainSource
    @OptionGroup var outputOptions: OutputOptions
    @Option(help: "Flatten over this color (#rrggbb or a name).") var background: String?
    @OptionGroup var renderOptions: RenderOptions
    @OptionGroup var assetOptions: AssetOptions

    func run() throws {
        let expected = chain.expression == nil ? 2 : 1
        guard arguments.count == expected else {
            throw ValidationError(chain.expression == nil ? "expected CHAIN INPUT" : "expected INPUT after -e TEXT")
        }
        try reportingErrors {
            let signals = try prepareToWrite(output, inputs: [arguments[expected - 1]] + (expected == 2 ? [arguments[0]] : []))
            defer { signals.forEach { $0.cancel() } }
            let filterChain = try chain.load(expected == 2 ? arguments[0] : nil)
            let input = try loadImage(arguments[expected - 1], options: renderOptions.loadOptions)
            let result = try filterChain.apply(to: input, settings: try chain.parsedSettings(), assets: try assetOptions.lookup(),
                                               options: try chain.applyOptions(renderOptions.loadOptions))
            let format = try outputOptions.format(for: output, sourceDepth: input.fileHeader?.decodedDepth ?? 8)
            let context = try renderOptions.context()
            try writeImage(result, to: output, format: format, context: context,
                           in: renderRect(result, input: input), background: try parseBackground(background))
            renderOptions.report(context)
        }
    }
}

func parseBackground(_ text: String?) throws -> Color? {
    guard let text else { return nil }
    guard let color = Color(parsing: text) else { throw ValidationError("--background: '\(text)' is not a color (#rrggbb or a name)") }
    return color
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Render a chain that needs no input (generators): at a size, or over its extent when finite (barcodes).").underLumen()
    @Argument(help: "Chain file (omit with -e).") var chainFile: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (\(writableExtensionsHelp)), or - for standard output.")) var output: String
    @Option(help: "Size WxH: renders the rect [0, 0, W, H]. Optional when the result has a finite extent (a barcode).") var size: String?
    @OptionGroup var chain: ChainSource
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var renderOptions: RenderOptions
    @OptionGroup var assetOptions: AssetOptions

    func run() throws {
        var rect: Rect?
        if let size {
            let parsed = try parseSize(size, option: "--size")
            rect = Rect(x: 0, y: 0, width: Double(parsed.width ?? 1), height: Double(parsed.height ?? 1))
        }
        try reportingErrors {
            let signals = try prepareToWrite(output, inputs: chainFile.map { [$0] } ?? [])
            defer { signals.forEach { $0.cancel() } }
            let filterChain = try chain.load(chainFile)
            let result = try filterChain.apply(to: nil, settings: try chain.parsedSettings(), assets: try assetOptions.lookup(),
                                               options: try chain.applyOptions(renderOptions.loadOptions))
            guard let rect = rect ?? (result.extent.isInfinite ? nil : result.extent) else {
                throw ValidationError("the chain's result is infinite: give --size WxH")
            }
            guard !rect.isEmpty else { throw ValidationError("the chain's result is empty (an empty message?)") }
            let context = try renderOptions.context()
            try writeImage(result, to: output, format: try outputOptions.format(for: output), context: context, in: rect)
            renderOptions.report(context)
        }
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain", abstract: "Show the optimized graph, regions of interest, tiles, cache and time of a render.").underLumen()
    @Argument(help: "Chain file (omit with -e), then an optional input image.") var arguments: [String] = []
    @OptionGroup var chain: ChainSource
    @Option(help: "Size WxH for chains without input.") var size: String?
    @OptionGroup var renderOptions: RenderOptions
    @OptionGroup var assetOptions: AssetOptions

    func run() throws {
        try reportingErrors {
            let chainPath = chain.expression == nil ? arguments.first : nil
            let inputPath = chain.expression == nil ? arguments.dropFirst().first : arguments.first
            let filterChain = try chain.load(chainPath)
            let input = try inputPath.map { try loadImage($0, options: renderOptions.loadOptions) }
            let result = try filterChain.apply(to: input, settings: try chain.parsedSettings(), assets: try assetOptions.lookup(),
                                               options: try chain.applyOptions(renderOptions.loadOptions))
            var rect = renderRect(result, input: input)
            if let size {
                let parsed = try parseSize(size, option: "--size")
                rect = Rect(x: 0, y: 0, width: Double(parsed.width ?? 1), height: Double(parsed.height ?? 1))
            }
            let context = try renderOptions.context(listsGraphs: true)
            // Render for real (pixels discarded) so the figures are measured, not guessed.
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-explain-\(getpid()).png")
            defer { try? FileManager.default.removeItem(at: scratch) }
            try context.write(result, to: scratch, format: .png(compressionLevel: 0), in: rect)
            let tiles = context.options
            print("tiles \(tiles.tileWidth)×\(tiles.tileHeight), \(tiles.threads) threads")
            print(context.lastReport.map(\.description) ?? "")
        }
    }
}
