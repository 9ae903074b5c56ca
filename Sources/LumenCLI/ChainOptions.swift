import ArgumentParser
import LumenPlatform
import Lumen

/// `CHAIN|-e TEXT` plus `--set k=v`, shared by the chain-running commands.
struct ChainSource: ParsableArguments {
    @Option(name: .customShort("e"), help: "Chain text instead of a file, e.g. 'gaussianBlur radius=4 | vignetteEffect'.")
    var expression: String?
    @Option(name: .customLong("set"), help: "Override a chain param: --set name=value (repeatable).")
    var settings: [String] = []
    @Option(name: .customLong("allow-read"), help: "Folders the chain's load(), chain() and asset() may read (repeatable); others are refused. For chains you did not write.")
    var allowRead: [String] = []
    @Flag(name: .customLong("no-file-access"), help: "The chain may not read any file (load, chain, asset).")
    var noFileAccess = false
    @Option(help: "input (default): blurs, sharpens and other neighbourhood filters keep the image's extent, as Core Image users crop to inputImage.extent; grown: Core Image's grown extents, fading borders included.")
    var extent: String = "input"

    /// How the chain is applied: the extent policy, and `load` options for its load(…) calls.
    func applyOptions(_ load: Image.LoadOptions) throws -> FilterChain.ApplyOptions {
        guard let policy = FilterChain.ExtentPolicy(rawValue: extent) else {
            throw ValidationError("--extent must be input or grown, got '\(extent)'")
        }
        return FilterChain.ApplyOptions(extent: policy, loadOptions: load)
    }

    var fileAccess: FileAccess {
        if noFileAccess { return .none }
        return allowRead.isEmpty ? .unrestricted : .roots(allowRead.map { URL(fileURLWithPath: $0) })
    }

    func load(_ path: String?) throws -> FilterChain {
        if noFileAccess && !allowRead.isEmpty { throw ValidationError("--no-file-access and --allow-read cannot be used together") }
        if let expression { return try FilterChain(expression, file: "-e", fileAccess: fileAccess) }
        guard let path else { throw ValidationError("give a chain file or -e TEXT") }
        return try FilterChain(contentsOf: URL(fileURLWithPath: path), fileAccess: fileAccess)
    }

    func parsedSettings() throws -> [String: String] { try parseSettings(settings) }
}

/// `--set name=value` options as name → value text, for every command that takes them
/// (the values are chain expressions: `FilterChain.settingValue`).
func parseSettings(_ settings: [String]) throws -> [String: String] {
    var result: [String: String] = [:]
    for setting in settings {
        guard let eq = setting.firstIndex(of: "="), eq != setting.startIndex else {
            throw ValidationError("--set takes name=value, got '\(setting)'")
        }
        result[String(setting[..<eq])] = String(setting[setting.index(after: eq)...])
    }
    return result
}

/// The rect `apply` and `batch` render: the output's extent, or the input's when infinite.
func renderRect(_ output: Image, input: Image?) -> Rect? {
    output.extent.isInfinite ? input?.extent : nil
}
