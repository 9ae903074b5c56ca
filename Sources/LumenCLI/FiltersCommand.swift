import ArgumentParser
import LumenPlatform
import Lumen

struct Filters: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "filters", abstract: "List filters, or describe one.", subcommands: [List.self, Describe.self, Gallery.self], defaultSubcommand: List.self).underLumen()

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List filters (optionally of one category).")
        @Option(help: "Category, e.g. blur, colorAdjustment, generator.") var category: String?
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            var selected = FilterRegistry.all
            if let category {
                guard let c = FilterCategory(name: category) else {
                    printError("lumen: unknown category '\(category)' (there are \(FilterCategory.allCases.map(\.shortName).joined(separator: ", ")))")
                    throw ExitCode(2)
                }
                selected = selected.filter { $0.category == c }
            }
            if json {
                print(jsonText(selected.map(describe)))
            } else {
                let width = selected.map(\.name.count).max() ?? 0
                for d in selected {
                    print("\(d.name.padded(to: width))  \((d.coreImageName ?? "—").padded(to: 34)) \(d.category.shortName.padded(to: 20)) \(d.summary)")
                }
            }
        }
    }

    struct Describe: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "describe", abstract: "Describe one filter: parameters, defaults, ranges, formula.")
        @Argument(help: "Filter name (lowerCamel or Core Image).") var name: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            guard let d = FilterRegistry.descriptor(named: name) else {
                let near = FilterRegistry.suggestions(for: name)
                printError("lumen: unknown filter '\(name)'" + (near.isEmpty ? "" : " (did you mean \(near.joined(separator: ", "))?)"))
                throw ExitCode(2)
            }
            if json { print(jsonText(describe(d))); return }
            print("\(d.name) (\(d.coreImageName ?? "Lumen only")), \(d.category.shortName)\n  \(d.summary)")
            if !d.details.isEmpty { print("  \(d.details)") }
            for p in d.parameters {
                var line = "  \(p.key) [\(p.kind.rawValue)]"
                if let v = p.defaultValue { line += " = \(v)" } else { line += " (required)" }
                if p.minimum != nil || p.maximum != nil { line += " range \(p.minimum.map { "\($0)" } ?? "−∞")…\(p.maximum.map { "\($0)" } ?? "+∞")" }
                print(line + "  — \(p.summary)")
            }
        }
    }
}

extension Filters {
struct Gallery: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gallery", abstract: "Render every filter onto a photo and write an index.html to browse them.")
    @Argument(help: "The photo.") var input: String
    @Option(name: .shortAndLong, help: "Output folder.") var output: String
    @Option(help: "Longest side of the working copy the filters are shown on (0: the photo's own size).")
    var size: Int = FilterGallery.defaultWorkingSize
    @OptionGroup var renderOptions: RenderOptions

    func validate() throws {
        guard size >= 0 else { throw ValidationError("--size must be 0 or more, got \(size)") }
    }

    func run() throws {
        try reportingErrors {
            let photo = try Image(contentsOf: URL(fileURLWithPath: input), options: renderOptions.loadOptions)
            let entries = try FilterGallery(photo: photo, context: try renderOptions.context(), workingSize: size == 0 ? nil : size).write(to: URL(fileURLWithPath: output))
            print("\(entries.count) filters → \(URL(fileURLWithPath: output).appendingPathComponent("index.html").path)")
            let slowest = entries.sorted { $0.milliseconds > $1.milliseconds }.prefix(5)
            print("slowest: " + slowest.map { "\($0.filter.name) \(Int($0.milliseconds)) ms" }.joined(separator: ", "))
        }
    }
}
}

func describe(_ d: FilterDescriptor) -> [String: Any] {
    [
        "name": d.name, "coreImageName": d.coreImageName ?? JSONValue.null, "factoryName": d.factoryName ?? JSONValue.null,
        "category": d.category.shortName, "summary": d.summary,
        "details": d.details,
        "parameters": d.parameters.map { p -> [String: Any] in
            var entry: [String: Any] = ["key": p.key, "coreImageKey": p.coreImageKey, "kind": p.kind.rawValue, "summary": p.summary,
                                        "required": p.isRequired]
            if let v = p.defaultValue { entry["default"] = v.description }
            if let v = p.minimum { entry["minimum"] = v }
            if let v = p.maximum { entry["maximum"] = v }
            if let v = p.identity { entry["identity"] = v.description }
            return entry
        },
    ]
}

/// `object` (built of dictionaries, arrays, strings, numbers, booleans) as pretty-printed
/// JSON with sorted keys.
func jsonData(_ object: Any) throws -> Data {
    guard let value = JSONValue(object) else { throw EncodingError.invalidValue(object, .init(codingPath: [], debugDescription: "not representable as JSON")) }
    return try value.prettyPrinted()
}

func jsonText(_ object: Any) -> String {
    let data = (try? JSONValue(object)?.prettyPrinted()) ?? Data()
    return String(decoding: data, as: UTF8.self)
}
