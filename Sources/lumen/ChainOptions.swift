import ArgumentParser
import Foundation
import Lumen

/// `CHAIN|-e TEXT` plus `--set k=v`, shared by the chain-running commands.
struct ChainSource: ParsableArguments {
    @Option(name: .customShort("e"), help: "Chain text instead of a file, e.g. 'gaussianBlur radius=4 | vignetteEffect'.")
    var expression: String?
    @Option(name: .customLong("set"), help: "Override a chain param: --set name=value (repeatable).")
    var settings: [String] = []

    func load(_ path: String?) throws -> FilterChain {
        if let expression { return try FilterChain(expression, file: "-e") }
        guard let path else { throw ValidationError("give a chain file or -e TEXT") }
        return try FilterChain(contentsOf: URL(fileURLWithPath: path))
    }

    func parsedSettings() throws -> [String: String] {
        var result: [String: String] = [:]
        for setting in settings {
            guard let eq = setting.firstIndex(of: "="), eq != setting.startIndex else {
                throw ValidationError("--set takes name=value, got '\(setting)'")
            }
            result[String(setting[..<eq])] = String(setting[setting.index(after: eq)...])
        }
        return result
    }
}

/// The rect `apply` and `batch` render: the output's extent, or the input's when infinite.
func renderRect(_ output: Image, input: Image?) -> Rect? {
    output.extent.isInfinite ? input?.extent : nil
}
