import ArgumentParser
import LumenPlatform
import Lumen

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Print size, format, depth, alpha, orientation, ICC, metadata and frames of image files.").underLumen()
    @Argument(help: "Image files, or - for standard input.") var files: [String]
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Also compute a BlurHash placeholder (4×3 components, from the image fitted in 100×100; decodes the pixels).") var blurhash = false
    @Flag(help: "Also compute a ThumbHash placeholder, in base64 (from the image fitted in 100×100; decodes the pixels).") var thumbhash = false
    @Option(name: .customLong("blurhash-components"), help: "BlurHash components across and down, XxY, each 1–9 (default 4x3).") var blurhashComponents = "4x3"

    func validate() throws {
        let parts = blurhashComponents.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy((1...9).contains) else {
            throw ValidationError("--blurhash-components must be XxY with each 1–9 (4x3), got '\(blurhashComponents)'")
        }
    }

    func run() throws {
        var failed = false
        var records: [[String: Any]] = []
        let components = blurhashComponents.lowercased().split(separator: "x").compactMap { Int($0) }
        for file in files {
            do {
                let header: ImageHeader, metadata: ImageMetadata
                var image: () throws -> Image
                if file == "-" {
                    let data = StandardStreams.readInput()
                    header = try ImageFile.header(of: data, name: "<stdin>")
                    metadata = try ImageFile.metadata(of: data, name: "<stdin>")
                    image = { try Image(data: data, name: "<stdin>") }
                } else {
                    header = try ImageFile.header(at: URL(fileURLWithPath: file))
                    metadata = try ImageFile.metadata(at: URL(fileURLWithPath: file))
                    image = { try Image(contentsOf: URL(fileURLWithPath: file)) }
                }
                var placeholders: [String: String] = [:]
                if blurhash || thumbhash {
                    let loaded = try image()
                    if blurhash { placeholders["blurhash"] = try loaded.blurHash(xComponents: components[0], yComponents: components[1]) }
                    if thumbhash { placeholders["thumbhash"] = Data(try loaded.thumbHash()).base64EncodedString() }
                }
                let size = header.orientedSize
                var record: [String: Any] = [
                    "file": file, "format": header.format.rawValue, "width": size.width, "height": size.height,
                    "storedWidth": header.width, "storedHeight": header.height, "channels": header.channels,
                    "bitDepth": header.bitDepth, "alpha": header.hasAlpha, "orientation": header.orientation,
                    "icc": header.hasICCProfile, "iccDescription": header.iccDescription ?? "", "details": header.details,
                    "frames": header.frameCount, "metadata": metadata.summary,
                ]
                if header.frameCount > 1 { record["frameDurations"] = header.frameDurations }
                for (key, value) in placeholders { record[key] = value }
                records.append(record)
                if !json {
                    let frames = header.frameCount > 1
                        ? ", \(header.frameCount) frames of " + header.frameDurations.map { String(printf: "%g s", $0) }.joined(separator: ", ")
                        : ""
                    let blocks = metadata.blockNames.filter { $0 != "icc" }
                    print("\(file): \(header.format.rawValue.uppercased()) \(size.width)×\(size.height), \(header.channels) channel\(header.channels == 1 ? "" : "s"), \(header.bitDepth)-bit, \(header.hasAlpha ? "alpha" : "no alpha"), orientation \(header.orientation), \(header.hasICCProfile ? "ICC profile" + (header.iccDescription.map { " \"\($0)\"" } ?? "") : "no ICC profile")\(blocks.isEmpty ? "" : ", " + blocks.joined(separator: ", "))\(frames) (\(header.details.joined(separator: ", ")))")
                    for key in ["blurhash", "thumbhash"] { if let value = placeholders[key] { print("  \(key): \(value)") } }
                }
            } catch let error as LumenError {
                printError("lumen: \(error)")
                failed = true
            }
        }
        if json {
            let data = try jsonData(records)
            print(String(decoding: data, as: UTF8.self))
        }
        if failed { throw ExitCode(2) }
    }
}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", abstract: "Convert an image between JPEG, PNG, TIFF, WebP, HEIC, AVIF and JPEG XL (GIF is read too).",
        discussion: "Metadata (EXIF, XMP, IPTC, ICC, resolution) and the colour profile are kept unless --strip, --keep or --profile say otherwise. Use - for standard input or output.").underLumen()
    @Argument(help: "Input image, or - for standard input.") var input: String
    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (\(writableExtensionsHelp)), or - for standard output.")) var output: String
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var renderOptions: RenderOptions

    func run() throws {
        try reportingErrors {
            let signals = try prepareToWrite(output, inputs: [input])
            defer { signals.forEach { $0.cancel() } }
            if outputOptions.losslessJPEG { return try recompressJPEG() }
            let image = try loadImage(input, options: renderOptions.loadOptions)
            let format = try outputOptions.format(for: output, sourceDepth: image.fileHeader?.decodedDepth ?? 8)
            let context = try renderOptions.context()
            try writeImage(image, to: output, format: format, context: context)
            renderOptions.report(context)
        }
    }

    /// `--lossless-jpeg`: the JPEG's coefficients go into the JPEG XL as they are (no
    /// decode, no profile conversion, every marker kept), so nothing that changes pixels
    /// or metadata may be asked for with it.
    private func recompressJPEG() throws {
        let format = try outputOptions.format(for: output)
        let conflicting = [("--quality", outputOptions.quality != nil), ("--distance", outputOptions.distance != nil),
                           ("--lossless", outputOptions.lossless), ("--depth", outputOptions.depth != nil),
                           ("--strip", outputOptions.strip), ("--keep", outputOptions.keep != nil),
                           ("--strip-gps", outputOptions.stripGPS), ("--profile", outputOptions.profile != nil)]
        if let (flag, _) = conflicting.first(where: \.1) {
            throw ValidationError("--lossless-jpeg keeps the JPEG exactly as it is: it takes no \(flag)")
        }
        guard input != "-" && output != "-" else {
            let jpeg = input == "-" ? StandardStreams.readInput() : try Data(contentsOf: URL(fileURLWithPath: input))
            let jxl = try JPEGXL.recompress(jpeg: jpeg, effort: format.effort, name: input == "-" ? "<stdin>" : input)
            if output == "-" { StandardStreams.writeOutput(jxl) } else { try jxl.write(to: URL(fileURLWithPath: output), options: .atomic) }
            return
        }
        try JPEGXL.recompress(jpegAt: URL(fileURLWithPath: input), to: URL(fileURLWithPath: output), effort: format.effort)
    }
}
