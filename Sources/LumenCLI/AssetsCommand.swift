import ArgumentParser
import LumenPlatform
import Lumen

/// `--assets DIR --scale S --idiom phone|pad --appearance light|dark`, for `asset("name")`.
struct AssetOptions: ParsableArguments {
    @Option(name: .customLong("assets"), help: "Folder with loose images or .xcassets catalogs (repeatable).") var folders: [String] = []
    @Option(help: "Display scale 1, 2 or 3.") var scale: Int = 1
    @Option(help: "Device idiom: phone or pad.") var idiom: String = "phone"
    @Option(help: "Appearance: light or dark.") var appearance: String = "light"

    func catalog() -> AssetCatalog? {
        folders.isEmpty ? nil : AssetCatalog(directories: folders.map { URL(fileURLWithPath: $0) })
    }

    func traits() throws -> AssetTraits {
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3") }
        guard let idiom = AssetTraits.Idiom(rawValue: idiom) else { throw ValidationError("--idiom must be phone or pad") }
        guard let appearance = AssetTraits.Appearance(rawValue: appearance) else { throw ValidationError("--appearance must be light or dark") }
        return AssetTraits(scale: scale, idiom: idiom, appearance: appearance)
    }

    func lookup() throws -> FilterChain.AssetLookup? {
        guard let catalog = catalog() else { return nil }
        return FilterChain.AssetLookup(catalog: catalog, traits: try traits())
    }
}

struct Assets: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "assets", abstract: "Multi-resolution assets: resolve a name, or make @1x/@2x/@3x variants.",
                                                    subcommands: [Resolve.self, Variants.self]).underLumen()

    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resolve", abstract: "Show which file an asset name resolves to for some traits, and why.")
        @Argument(help: "Asset name (without @2x, ~ipad or extension).") var name: String
        @OptionGroup var assets: AssetOptions

        func run() throws {
            guard let catalog = assets.catalog() else { throw ValidationError("give at least one --assets DIR") }
            try reportingErrors {
                let resolution = try catalog.resolve(name, traits: try assets.traits())
                let traits = resolution.traits
                print("\(name) for \(traits.scale)x \(traits.idiom.rawValue) \(traits.appearance.rawValue): \(resolution.choice.variant.url.path)")
                print("  because: \(resolution.choice.reason)")
                if resolution.choice.resampling != 1 { print("  resampled by \(resolution.choice.resampling)") }
                print("  candidates:")
                for variant in resolution.variants { print("    \(variant.url.path) — \(variant)") }
            }
        }
    }

    struct Variants: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "variants", abstract: "Write @1x/@2x/@3x files (or an .imageset) from one master image.")
        @Argument(help: "The master image, drawn for the largest scale.") var master: String
        @Option(help: "Asset name.") var name: String
        @Option(name: .shortAndLong, help: "Output folder.") var output: String
        @Option(help: "Scales to write, e.g. 1,2,3.") var scales: String = "1,2,3"
        @Flag(help: "Write NAME.imageset with a Contents.json instead of loose files.") var catalog = false
        @OptionGroup var renderOptions: RenderOptions

        func run() throws {
            let list = scales.split(separator: ",").compactMap { Int($0.trimmingSpaces()) }
            guard !list.isEmpty, list.allSatisfy({ (1...3).contains($0) }) else { throw ValidationError("--scales takes 1, 2 and/or 3, e.g. 1,2,3") }
            try reportingErrors {
                let url = URL(fileURLWithPath: master)
                let image = try Image(contentsOf: url, options: renderOptions.loadOptions)
                let ext = url.pathExtension.lowercased() == "jpeg" ? "jpg" : url.pathExtension.lowercased()
                var folder = URL(fileURLWithPath: output)
                if catalog { folder.appendPathComponent("\(name).imageset") }
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let largest = list.max()!
                let context = try renderOptions.context()
                var slots: [[String: String]] = []
                for scale in list.sorted() {
                    let file = scale == 1 ? "\(name).\(ext)" : "\(name)@\(scale)x.\(ext)"
                    let scaled = scale == largest ? image : try image.applyingLanczosScale(Double(scale) / Double(largest))
                    try context.write(scaled, to: folder.appendingPathComponent(file))
                    slots.append(["idiom": "universal", "scale": "\(scale)x", "filename": file])
                    print(folder.appendingPathComponent(file).path)
                }
                if catalog {
                    let contents: [String: Any] = ["images": slots, "info": ["author": "lumen", "version": 1]]
                    let data = try jsonData(contents)
                    try data.write(to: folder.appendingPathComponent("Contents.json"), options: .atomic)
                    print(folder.appendingPathComponent("Contents.json").path)
                }
            }
        }
    }
}
