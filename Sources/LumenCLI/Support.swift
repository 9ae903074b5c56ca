import ArgumentParser
import LumenPlatform
import Lumen

/// Options every rendering command takes.
struct RenderOptions: ParsableArguments {
    @Option(help: "Worker threads (default: one per core).") var threads: Int?
    @Option(help: "Tile size WxH.") var tile: String?
    @Option(name: .customLong("cache-size"), help: "Render cache budget in bytes (suffixes K, M, G).") var cacheSize: String?
    @Flag(help: "Print cache and timing figures on stderr.") var stats = false
    @Flag(name: .customLong("no-orient"), help: "Keep stored pixels; ignore EXIF orientation.") var noOrient = false
    @Option(help: "Frame of an animated GIF or WebP input (from 0).") var frame: Int = 0
    @Option(name: .customLong("fail-on"), help: "error (default) or warning: also fail when a decoder warns about damaged data it decoded around.")
    var failOn: String = "error"
    @Option(name: .customLong("pixel-limit"),
            help: "Largest width × height an input or output may have (default 268435456, 16384²; suffixes K, M, G).")
    var pixelLimit: String?
    @Option(name: .customLong("memory-limit"),
            help: "Largest memory a decode may need (suffixes K, M, G); default: what ulimit -v or the container leaves this process.")
    var memoryLimit: String?
    @Option(name: .customLong("raw-white-balance"), help: "Camera RAW inputs: as-shot (default), auto, daylight, KELVIN or KELVIN:TINT (2000–25000 K, tint −150…150), or R,G,B multipliers.")
    var rawWhiteBalance: String?
    @Option(name: .customLong("raw-exposure"), help: "Camera RAW inputs: exposure in stops, −2…3, applied before development (default 0).")
    var rawExposure: Double?
    @Option(name: .customLong("raw-highlights"), help: "Camera RAW inputs: clip (default), unclip, blend or rebuild.")
    var rawHighlights: String?
    @Option(name: .customLong("raw-noise-reduction"), help: "Camera RAW inputs: wavelet noise reduction 0…1 (default 0).")
    var rawNoiseReduction: Double?
    @Option(name: .customLong("raw-demosaic"), help: "Camera RAW inputs: linear, vng, ppg, ahd (default), dcb, dht or aahd.")
    var rawDemosaic: String?
    @Flag(name: .customLong("raw-auto-bright"), help: "Camera RAW inputs: dcraw's automatic brightening instead of the camera's exposure.")
    var rawAutoBright = false
    @Flag(name: .customLong("expand-hdr"), help: "Apply inputs' HDR gain maps (Ultra HDR JPEGs): values above 1 where the map says; write .exr to keep them.")
    var expandHDR = false

    func validate() throws { _ = try rawDevelopment() }

    /// How camera RAW inputs are developed, when any --raw-… option is given.
    func rawDevelopment() throws -> RAWDevelopment? {
        guard rawWhiteBalance != nil || rawExposure != nil || rawHighlights != nil || rawNoiseReduction != nil || rawDemosaic != nil || rawAutoBright else {
            return nil
        }
        var development = RAWDevelopment(autoBrightness: rawAutoBright)
        if let balance = rawWhiteBalance?.lowercased() {
            let numbers = balance.split(whereSeparator: { $0 == ":" || $0 == "," }).map { Double($0) }
            switch balance {
            case "as-shot", "asshot", "camera": development.whiteBalance = .asShot
            case "auto", "automatic": development.whiteBalance = .automatic
            case "daylight": development.whiteBalance = .daylight
            default:
                guard !numbers.contains(nil) else {
                    throw ValidationError("--raw-white-balance must be as-shot, auto, daylight, KELVIN[:TINT] or R,G,B, got '\(balance)'")
                }
                let values = numbers.compactMap { $0 }
                switch (values.count, balance.contains(",")) {
                case (1, false): development.whiteBalance = .temperature(kelvin: values[0], tint: 0)
                case (2, false): development.whiteBalance = .temperature(kelvin: values[0], tint: values[1])
                case (3, true): development.whiteBalance = .multipliers(red: values[0], green: values[1], blue: values[2])
                default: throw ValidationError("--raw-white-balance must be as-shot, auto, daylight, KELVIN[:TINT] or R,G,B, got '\(balance)'")
                }
            }
        }
        if let rawExposure { development.exposure = rawExposure }
        if let rawNoiseReduction { development.noiseReduction = rawNoiseReduction }
        if let rawHighlights {
            let all: [String: RAWDevelopment.Highlights] = ["clip": .clip, "unclip": .unclip, "blend": .blend, "rebuild": .rebuild]
            guard let highlights = all[rawHighlights.lowercased()] else {
                throw ValidationError("--raw-highlights must be clip, unclip, blend or rebuild, got '\(rawHighlights)'")
            }
            development.highlights = highlights
        }
        if let rawDemosaic {
            guard let method = RAWDevelopment.Demosaic.allCases.first(where: { "\($0)" == rawDemosaic.lowercased() }) else {
                throw ValidationError("--raw-demosaic must be linear, vng, ppg, ahd, dcb, dht or aahd, got '\(rawDemosaic)'")
            }
            development.demosaic = method
        }
        do { try development.validate() } catch let error as LumenError {
            guard case let .invalidValue(_, key, reason) = error else { throw error }
            throw ValidationError("--raw-\(key == "neutralTemperature" || key == "neutralTint" ? "white-balance" : key == "noiseReduction" ? "noise-reduction" : key): \(reason)")
        }
        return development
    }

    /// The context the options describe. Only `explain` prints the graph, so only it has
    /// the report list it (`RenderContext.Options.listsGraphs`).
    func context(listsGraphs: Bool = false) throws -> RenderContext {
        var options = RenderContext.Options(threads: threads)
        options.listsGraphs = listsGraphs
        switch failOn {
        case "error": options.failOnWarning = false
        case "warning": options.failOnWarning = true
        default: throw ValidationError("--fail-on must be error or warning, got '\(failOn)'")
        }
        if let tile {
            let size = try parseSize(tile, option: "--tile")
            options.tileWidth = size.width ?? 1
            options.tileHeight = size.height ?? 1
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
        if let memoryLimit {
            guard let bytes = parseByteCount(memoryLimit), bytes > 0 else {
                throw ValidationError("--memory-limit must be a positive byte count (suffixes K, M, G), got '\(memoryLimit)'")
            }
            options.memoryLimit = bytes
        }
        return RenderContext(options)
    }

    var loadOptions: Image.LoadOptions {
        Image.LoadOptions(appliesOrientation: !noOrient, frame: frame, raw: (try? rawDevelopment()) ?? nil, expandToHDR: expandHDR)
    }

    /// Prints the last render's decoder warnings, and with --stats its figures, on stderr.
    func report(_ context: RenderContext) {
        for warning in context.lastReport?.warnings ?? [] { printError("lumen: warning: \(warning)") }
        guard stats, let report = context.lastReport else { return }
        let window = report.streamedWindowRows > 0 ? ", streamed through a window of \(report.streamedWindowRows) rows" : ""
        printError("\(report.cache)\nrender: \(String(printf: "%.1f", report.seconds * 1000)) ms, source rows decoded: \(report.decodedRows)\(window)")
    }
}

/// A size argument as the options write it: `WxH`, `N` (a square) when `square` is allowed,
/// and `Wx` or `xH` (one side free, vipsthumbnail's spelling) when `oneSided` is. A missing
/// side is nil. Sides are whole numbers from 1 to 2²⁰.
func parseSize(_ text: String, option: String, square: Bool = false, oneSided: Bool = false) throws -> (width: Int?, height: Int?) {
    let parts = text.lowercased().split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    func side(_ part: String) -> Int? { Int(part).flatMap { (1...(1 << 20)).contains($0) ? $0 : nil } }
    let forms = [square ? "N" : nil, "WxH", oneSided ? "Wx or xH" : nil].compactMap { $0 }.joined(separator: ", ")
    let invalid = ValidationError("\(option) must be \(forms) with sides from 1 to \(1 << 20), got '\(text)'")
    if parts.count == 1 {
        guard square, let n = side(parts[0]) else { throw invalid }
        return (n, n)
    }
    switch (parts[0].isEmpty, parts[1].isEmpty) {
    case (false, false):
        guard let w = side(parts[0]), let h = side(parts[1]) else { throw invalid }
        return (w, h)
    case (false, true) where oneSided:
        guard let w = side(parts[0]) else { throw invalid }
        return (w, nil)
    case (true, false) where oneSided:
        guard let h = side(parts[1]) else { throw invalid }
        return (nil, h)
    default: throw invalid
    }
}

func parseByteCount(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    let upper = text.uppercased().replacing("IB", with: "").replacing("B", with: "")
    if let last = upper.last, let unit = units[last], let value = Double(upper.dropLast()) {
        let bytes = value * Double(unit)
        return bytes.isFinite && bytes >= 0 && bytes < 0x1p62 ? Int(bytes) : nil
    }
    return Int(upper)
}

func printError(_ message: String) {
    StandardStreams.writeError(message + "\n")
}

/// Runs a command body, turning Lumen errors into a one-line message and exit code 2
/// (usage, chain or input error) — or the given code.
func reportingErrors(exitCode: Int32 = 2, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as LumenError {
        printError("lumen: \(error)")
        throw ExitCode(exitCode)
    } catch where error is CocoaError || error is POSIXError {
        // A file-system error from Foundation: said as the reason, never as Foundation's description.
        let cocoa = error as? CocoaError
        let path = cocoa?.filePath ?? cocoa?.url?.path ?? ""
        printError("lumen: \(path.isEmpty ? "" : path + ": ")\(describeFileError(error, at: path))")
        throw ExitCode(exitCode)
    }
}

/// Checks, before any work, that `output` is none of `inputs`, and that a SIGTERM or
/// SIGINT during the write removes the temporary file (exit 3, as a stopped batch).
func prepareToWrite(_ output: String, inputs: [String]) throws -> [DispatchSourceSignal] {
    if output != "-" { try FileIdentity.refuseOverwriting(output, inputs: inputs) }
    return BatchInputOptions.stopOnSignals()
}


/// How outputs are encoded: the options every command that writes images takes.
struct OutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Output format by name or extension (\(OutputOptions.writableFormatNames)): needed with -o -, else the extension decides."))
    var format: String?
    // Which formats take each option comes from the codecs' declarations (`lumen formats`).
    @Option(help: ArgumentHelp("Quality 1–100 (\(OutputOptions.formatsTaking[.quality]!); defaults: \(OutputOptions.defaultQualities))."))
    var quality: Double?
    @Option(help: ArgumentHelp("Bits per channel (\(OutputOptions.depthList); default: the input's).")) var depth: Int?
    @Flag(help: ArgumentHelp("Encode losslessly (\(OutputOptions.formatsTaking[.lossless]!)).")) var lossless = false
    @Option(help: ArgumentHelp("Chroma subsampling, 420 (default) or 444 (\(OutputOptions.formatsTaking[.chromaSubsampling]!)).")) var subsampling: String?
    @Flag(help: ArgumentHelp("Progressive scans instead of one baseline scan (\(OutputOptions.formatsTaking[.progressive]!)).")) var progressive = false
    @Option(name: .customLong("png-compression"), help: ArgumentHelp("zlib level 0 (fastest) … 9 (smallest), default 6 (\(OutputOptions.formatsTaking[.compressionLevel]!)).")) var pngCompression: Int?
    @Option(name: .customLong("png-filter"), help: ArgumentHelp("Row filter: none, sub, up, average, paeth or adaptive (default: libpng picks per row) (\(OutputOptions.formatsTaking[.rowFilter]!))."))
    var pngFilter: String?
    @Option(name: .customLong("tiff-compression"), help: ArgumentHelp("none, lzw or deflate (default) (\(OutputOptions.formatsTaking[.compression]!))."))
    var tiffCompression: String?
    @Option(help: ArgumentHelp("Encoder effort 1 (fastest) … 9 (smallest), default 7, as cjxl -e (\(OutputOptions.formatsTaking[.effort]!)).")) var effort: Int?
    @Option(help: ArgumentHelp("Butteraugli distance instead of --quality: 0 lossless, 1 visually lossless (cjxl's default), up to 25 (\(OutputOptions.formatsTaking[.distance]!)).")) var distance: Double?
    @Flag(name: .customLong("lossless-jpeg"), help: ArgumentHelp("Recompress a JPEG input without decoding it, so the same JPEG can be rebuilt bit for bit with djxl; no filters or resizing (\(OutputOptions.formatsTaking[.losslessJPEG]!)).")) var losslessJPEG = false


    /// Refuses an option the chosen format does not honour, naming the formats that do.
    func checkOptions(for format: ImageFileFormat) throws {
        guard let codec = Codecs.codec(for: format) else { return }
        let given: [(CodecCapabilities.Option, String, Bool)] = [
            (.quality, "--quality", quality != nil), (.lossless, "--lossless", lossless), (.chromaSubsampling, "--subsampling", subsampling != nil),
            (.progressive, "--progressive", progressive), (.compressionLevel, "--png-compression", pngCompression != nil),
            (.rowFilter, "--png-filter", pngFilter != nil), (.effort, "--effort", effort != nil), (.distance, "--distance", distance != nil),
            (.compression, "--tiff-compression", tiffCompression != nil),
            (.losslessJPEG, "--lossless-jpeg", losslessJPEG),
        ]
        for (option, flag, isGiven) in given where isGiven && !codec.capabilities.options.contains(option) {
            throw ValidationError("\(flag) does not apply to \(codec.displayName) (it applies to \(Codecs.formats(with: option)))")
        }
        if let depth, !codec.capabilities.depths.contains(depth) && !(depth == 16 && codec.capabilities.depths.contains(10)) {
            throw ValidationError("--depth must be \(Codecs.list(codec.capabilities.depths.map(String.init))) for \(codec.displayName), got \(depth)")
        }
    }

    /// The JPEG and PNG options given.
    func encoding() throws -> OutputFormat.Encoding {
        var encoding = OutputFormat.Encoding()
        switch subsampling {
        case nil, "420", "4:2:0": break
        case "444", "4:4:4": encoding.chroma444 = true
        case let other?: throw ValidationError("--subsampling must be 420 or 444, got '\(other)'")
        }
        encoding.progressive = progressive
        if let pngCompression {
            guard (0...9).contains(pngCompression) else { throw ValidationError("--png-compression must be 0…9, got \(pngCompression)") }
            encoding.compressionLevel = pngCompression
        }
        if let pngFilter {
            guard let filter = OutputFormat.PNGFilter(rawValue: pngFilter) else {
                throw ValidationError("--png-filter must be none, sub, up, average, paeth or adaptive, got '\(pngFilter)'")
            }
            encoding.pngFilter = filter
        }
        return encoding
    }
    @Flag(help: "Drop all metadata (EXIF, XMP, IPTC, ICC profile, resolution).") var strip = false
    @Option(help: "Keep only these kinds of metadata, comma-separated: exif, xmp, iptc, icc, resolution, or all (the default).") var keep: String?
    @Flag(name: .customLong("strip-gps"), help: "Take the location out of the EXIF and XMP, keeping the rest.") var stripGPS = false
    @Option(help: "Output colour profile: srgb, p3, or an .icc file (default: the input's, sRGB for untagged input).")
    var profile: String?
    @Option(help: "How codes stand for light: srgb (default), or pq / hlg for HDR 16-bit PNG (cICP; SDR white at 203 cd/m², values above it kept).")
    var transfer: String?
    @Option(help: "An input's HDR gain map (Ultra HDR JPEG, iPhone HEIC): keep (written back into JPEG and HEIC outputs made by turning, cropping or scaling; the default), drop, or tonemap (the HDR rendition through the chain, tone-mapped to SDR unless the output holds HDR: .exr, --depth 32 TIFF, --transfer pq|hlg PNG).")
    var hdr: String?

    /// The output format for `path` (`-` = standard output, where `--format` is needed),
    /// with these options; `sourceDepth` is the input's depth, the default.
    func format(for path: String, sourceDepth: Int = 8) throws -> OutputFormat {
        var format: OutputFormat
        if let name = self.format {
            guard let named = ImageFileFormat(name: name), named.isWritable else {
                throw ValidationError("--format must be one of \(ImageFileFormat.writable.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
            }
            format = OutputFormat(fileFormat: named)
        } else if path == "-" {
            throw ValidationError("writing to standard output (-o -) needs --format (\(Codecs.list(ImageFileFormat.writable.map(\.rawValue))))")
        } else if let byPath = OutputFormat(path: path) {
            format = byPath
        } else {
            let ext = path.filenameExtension
            if let known = ImageFileFormat(pathExtension: ext), !known.isWritable {
                throw ValidationError("Lumen reads \(known.displayName) but does not write it: use .webp for animations, .png for stills")
            }
            let extensions = ImageFileFormat.writable.map { "." + $0.preferredExtension }.joined(separator: ", ")
            throw ValidationError("cannot tell the output format from '\(path)': use one of \(extensions), or --format")
        }
        if let quality {
            guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1…100, got \(quality)") }
            format.quality = quality / 100
        }
        try checkOptions(for: format.fileFormat)
        // A format without 16 bits but with 10 (HEIF) takes deeper inputs at 10.
        let depths = Codecs.codec(for: format.fileFormat)?.capabilities.depths ?? [8]
        let wanted = depth ?? sourceDepth
        format = OutputFormat(fileFormat: format.fileFormat, quality: format.quality,
                              depth: wanted > 8 && !depths.contains(16) && depths.contains(10) ? 10 : wanted, lossless: lossless)
        if let tiffCompression {
            let all: [String: OutputFormat.TIFFCompression] = ["none": .none, "lzw": .lzw, "deflate": .deflate]
            guard let compression = all[tiffCompression.lowercased()] else {
                throw ValidationError("--tiff-compression must be none, lzw or deflate, got '\(tiffCompression)'")
            }
            format.tiffCompression = compression
        }
        if let effort {
            guard (1...9).contains(effort) else { throw ValidationError("--effort must be 1…9, got \(effort)") }
            format.effort = effort
        }
        if let distance {
            guard distance.isFinite, (0...25).contains(distance) else { throw ValidationError("--distance must be 0…25, got \(distance)") }
            guard quality == nil, !lossless else { throw ValidationError("--distance replaces --quality and --lossless: give one of them") }
            format.distance = distance
        }
        format.metadata = try metadataPolicy()
        format.profile = try outputProfile()
        format.hdr = try hdrPolicy()
        if let transfer {
            guard let chosen = OutputFormat.Transfer(rawValue: transfer.lowercased()) else {
                throw ValidationError("--transfer must be srgb, pq or hlg, got '\(transfer)'")
            }
            if chosen != .sRGB {
                guard format.fileFormat == .png else { throw ValidationError("--transfer \(chosen.rawValue) writes 16-bit PNG, not \(format.fileFormat.displayName)") }
                guard depth == nil || depth == 16 else { throw ValidationError("--transfer \(chosen.rawValue) writes 16-bit PNG: give no --depth, or 16") }
                format.depth = 16
            }
            format.transfer = chosen
        }
        try encoding().apply(to: &format)
        return format
    }

    func hdrPolicy() throws -> OutputFormat.HDRPolicy {
        guard let hdr else { return .keep }
        guard let policy = OutputFormat.HDRPolicy(rawValue: hdr.lowercased()) else {
            throw ValidationError("--hdr must be keep, drop or tonemap, got '\(hdr)'")
        }
        return policy
    }

    func metadataPolicy() throws -> OutputFormat.MetadataPolicy {
        if strip {
            guard keep == nil, !stripGPS else { throw ValidationError("--strip drops everything: it takes no --keep or --strip-gps") }
            return .strip
        }
        var kinds = Set(OutputFormat.MetadataKind.allCases)
        if let keep, keep.lowercased() != "all" {
            kinds = []
            for name in keep.lowercased().split(separator: ",").map({ $0.trimmingSpaces() }) {
                guard let kind = OutputFormat.MetadataKind(rawValue: name) else {
                    throw ValidationError("--keep takes exif, xmp, iptc, icc, resolution or all, comma-separated; got '\(name)'")
                }
                kinds.insert(kind)
            }
        }
        if kinds == Set(OutputFormat.MetadataKind.allCases) && !stripGPS { return .all }
        if kinds == [.icc] && !stripGPS { return .iccOnly }
        return .kinds(kinds, gps: !stripGPS)
    }

    func outputProfile() throws -> OutputFormat.Profile {
        guard let profile else { return .input }
        switch profile.lowercased() {
        case "srgb": return .sRGB
        case "p3", "display-p3", "displayp3": return .displayP3
        case "input": return .input
        default:
            guard let data = FileManager.default.contents(atPath: profile) else {
                throw ValidationError("--profile must be srgb, p3 or a readable .icc file, got '\(profile)'")
            }
            return .icc(data)
        }
    }
}

/// Reads an image argument: a path, or `-` for standard input (read whole; the content
/// decides the format).
func loadImage(_ path: String, options: Image.LoadOptions) throws -> Image {
    guard path == "-" else { return try Image(contentsOf: URL(fileURLWithPath: path), options: options) }
    let data = StandardStreams.readInput()
    guard !data.isEmpty else { throw LumenError.unreadable(file: "<stdin>", reason: "standard input is empty") }
    return try Image(data: data, options: options, name: "<stdin>")
}

/// Writes an image to a path, or to standard output for `-`.
func writeImage(_ image: Image, to path: String, format: OutputFormat, context: RenderContext,
                in rect: Rect? = nil, background: Color? = nil) throws {
    guard path == "-" else {
        try context.write(image, to: URL(fileURLWithPath: path), format: format, in: rect, background: background)
        return
    }
    let data = try context.encode(image, format: format, in: rect, background: background)
    StandardStreams.writeOutput(data)
}
