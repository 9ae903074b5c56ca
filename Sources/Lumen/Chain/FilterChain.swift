import LumenPlatform

/// A filter-chain file (`*.chain`): steps that build an image graph from `input`,
/// with `param`s a caller can override. Parsing happens once at init; `apply` builds
/// the graph (cheap, no pixels). A chain can also be used as a step of another chain.
public final class FilterChain: Sendable {
    /// Where the chain came from, for error messages.
    public let file: String
    /// Relative `load(...)` and `chain(...)` paths resolve against this directory.
    public let directory: URL
    /// What `load`, `chain` and `asset` may read (included chains inherit it).
    public let fileAccess: FileAccess
    let syntax: ChainSyntax
    let lexer: ChainLexer

    /// Parses the chain file at `url`; relative paths in it resolve beside it. Errors name the file, line and column.
    public init(contentsOf url: URL, fileAccess: FileAccess = .unrestricted) throws {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw LumenError.chain(file: url.path, line: 0, column: 0, message: "cannot read the chain file", excerpt: "")
        }
        file = url.path
        directory = url.deletingLastPathComponent()
        self.fileAccess = fileAccess
        lexer = ChainLexer(text: text, file: url.path)
        var parser = ChainParser(text: text, file: url.path)
        syntax = try parser.parse()
    }

    /// A chain from text, e.g. `FilterChain("gaussianBlur radius=4 | vignetteEffect")`.
    public init(_ text: String, file: String = "<chain>", directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                fileAccess: FileAccess = .unrestricted) throws {
        self.file = file
        // A folder URL, so relative paths resolve inside it (not beside it) however it was made.
        self.directory = URL(fileURLWithPath: directory.path, isDirectory: true)
        self.fileAccess = fileAccess
        lexer = ChainLexer(text: text, file: file)
        var parser = ChainParser(text: text, file: file)
        syntax = try parser.parse()
    }

    /// Where `asset("name")` looks, and for which traits.
    public struct AssetLookup: Sendable {
        /// The folders searched for named images.
        public var catalog: AssetCatalog
        /// The scale, idiom and appearance a variant is chosen for.
        public var traits: AssetTraits
        /// A lookup in `catalog` for `traits` (1x, phone, light by default).
        public init(catalog: AssetCatalog, traits: AssetTraits = AssetTraits()) {
            self.catalog = catalog
            self.traits = traits
        }
    }

    /// The names of the chain's `param` declarations.
    public var parameterNames: [String] { syntax.parameters.map(\.name) }

    /// True when the chain reads `input` (explicitly or as the first step's image).
    public var readsInput: Bool {
        guard let first = syntax.steps.first else { return false }
        if first.isChain { return true }
        let takesImage = FilterRegistry.descriptor(named: first.filter)?.parameters.contains { $0.key == "image" } ?? true
        let givesImage = first.arguments.contains { ["image", "inputImage"].contains($0.key) }
        return (takesImage && !givesImage) || syntaxMentionsInput
    }

    private var syntaxMentionsInput: Bool {
        func mentions(_ e: ChainSyntax.Expression) -> Bool {
            switch e {
            case let .name(n, _): return n == "input"
            case let .property(inner, _, _), let .negate(inner, _): return mentions(inner)
            case let .binary(_, a, b, _): return mentions(a) || mentions(b)
            case let .vector(items, _), let .call(_, items, _): return items.contains(where: mentions)
            default: return false
            }
        }
        return syntax.steps.contains { $0.arguments.contains { mentions($0.value) } } || syntax.parameters.contains { mentions($0.defaultValue) }
    }

    /// Builds the chain's output for `input` with `parameters` overriding `param`
    /// defaults (numbers, vectors, colors, strings or images).
    public func apply(to input: Image?, parameters: [String: Any] = [:], assets: AssetLookup? = nil,
                      options: ApplyOptions = ApplyOptions()) throws -> Image {
        var values: [String: ChainValue] = [:]
        for (key, value) in parameters {
            guard let converted = ChainValue(value) else {
                throw lexer.error("parameter '\(key)' has an unsupported type \(type(of: value))", at: SourcePosition(line: 1, column: 1))
            }
            values[key] = converted
        }
        var evaluator = ChainEvaluator(chain: self, includeStack: [file], assets: assets, options: options)
        return try evaluator.run(input: input, overrides: values)
    }

    /// Like `apply(to:parameters:)` with overrides written as chain expressions
    /// (`--set strength=0.8`, `--set tint=#ff8800`). A `param` whose default is text takes
    /// the value as text when it is not a quoted string (`--set message=https://…`).
    public func apply(to input: Image?, settings: [String: String], assets: AssetLookup? = nil,
                      options: ApplyOptions = ApplyOptions()) throws -> Image {
        var values: [String: ChainValue] = [:]
        for (key, text) in settings {
            let declared = syntax.parameters.first { $0.name == key }
            var takesText = false
            if let declared, case .string = declared.defaultValue { takesText = true }
            values[key] = try Self.setting(text, named: key, takesText: takesText, directory: directory, fileAccess: fileAccess, assets: assets)
        }
        var evaluator = ChainEvaluator(chain: self, includeStack: [file], assets: assets, options: options)
        return try evaluator.run(input: input, overrides: values)
    }

    /// The value of a setting (`--set name=value`): `text` is a chain expression (a number,
    /// `[x, y]`, `#ff8800`, `rgb(…)`, a quoted string, arithmetic), evaluated as a chain's
    /// `param` default is. This is the one meaning of `--set` everywhere: a chain's `param`
    /// for the chain commands, a filter's parameter for `lumen transition`. Errors name
    /// `--set NAME`. With `takesText`, text that is not quoted is taken as it is.
    public static func settingValue(_ text: String, named name: String, takesText: Bool = false,
                                    fileAccess: FileAccess = .none) throws -> FilterValue {
        try setting(text, named: name, takesText: takesText, directory: nil, fileAccess: fileAccess, assets: nil).filterValue
    }

    private static func setting(_ text: String, named key: String, takesText: Bool, directory: URL?, fileAccess: FileAccess,
                                assets: AssetLookup?) throws -> ChainValue {
        if takesText && !text.trimmingSpaces().hasPrefix("\"") { return .string(text) }
        let expressionChain = try FilterChain("param value = \(text)", file: "--set \(key)",
                                              directory: directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                              fileAccess: fileAccess)
        guard let expression = expressionChain.syntax.parameters.first?.defaultValue else {
            throw expressionChain.lexer.error("no value given", at: SourcePosition(line: 1, column: 1))
        }
        var evaluator = ChainEvaluator(chain: expressionChain, includeStack: [], assets: assets)
        return try evaluator.evaluate(expression)
    }
}
