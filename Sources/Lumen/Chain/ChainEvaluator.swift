import LumenPlatform

/// A value while a chain is being built.
enum ChainValue {
    case number(Double)
    case vector([Double])
    case color(Color)
    case string(String)
    case image(Image)
    /// Bytes: a `.cube` table read by load().
    case data(Data)

    init?(_ any: Any) {
        guard let value = FilterValue(any) else { return nil }
        switch value {
        case let .number(v): self = .number(v)
        case let .vector(v): self = .vector(v)
        case let .color(c): self = .color(c)
        case let .string(s): self = .string(s)
        case let .image(i): self = .image(i)
        case let .transform(t): self = .vector([t.a, t.b, t.c, t.d, t.tx, t.ty])
        case let .data(d): self = .data(d)
        }
    }

    var filterValue: FilterValue {
        switch self {
        case let .number(v): return .number(v)
        case let .vector(v): return .vector(v)
        case let .color(c): return .color(c)
        case let .string(s): return .string(s)
        case let .image(i): return .image(i)
        case let .data(d): return .data(d)
        }
    }

    var typeName: String {
        switch self {
        case .number: return "a number"
        case .vector: return "a vector"
        case .color: return "a color"
        case .string: return "a string"
        case .image: return "an image"
        case .data: return "a colour table"
        }
    }
}

/// Builds the image graph of a parsed chain: resolves names, evaluates expressions,
/// validates every step against the filter registry and reports errors at their line
/// and column.
struct ChainEvaluator {
    let chain: FilterChain
    /// Chain files being built, outermost first (to report include cycles).
    let includeStack: [String]
    let assets: FilterChain.AssetLookup?
    let options: FilterChain.ApplyOptions
    private var scope: [String: ChainValue] = [:]

    init(chain: FilterChain, includeStack: [String], assets: FilterChain.AssetLookup?, options: FilterChain.ApplyOptions = .init()) {
        self.chain = chain
        self.includeStack = includeStack
        self.assets = assets
        self.options = options
    }

    private func error(_ message: String, at position: SourcePosition) -> LumenError {
        chain.lexer.error(message, at: position)
    }

    mutating func run(input: Image?, overrides: [String: ChainValue]) throws -> Image {
        if let input { scope["input"] = .image(input) }
        let declared = Set(chain.syntax.parameters.map(\.name))
        if let unknown = overrides.keys.sorted().first(where: { !declared.contains($0) }) {
            throw error("unknown parameter '\(unknown)'" + suggestion(unknown, among: Array(declared)), at: SourcePosition(line: 1, column: 1))
        }
        for parameter in chain.syntax.parameters {
            scope[parameter.name] = try overrides[parameter.name] ?? evaluate(parameter.defaultValue)
        }
        guard !chain.syntax.steps.isEmpty else { throw error("the chain has no steps", at: SourcePosition(line: 1, column: 1)) }
        var previous: Image? = input
        for step in chain.syntax.steps {
            let output = try apply(step, previous: previous, isFirst: step.position == chain.syntax.steps[0].position)
            if let name = step.name { scope[name] = .image(output) }
            previous = output
        }
        return previous!
    }

    private func suggestion(_ name: String, among names: [String]) -> String {
        let near = NameMatcher.nearest(to: name, in: names)
        return near.isEmpty ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: ", "))?)"
    }

    private mutating func apply(_ step: ChainSyntax.Step, previous: Image?, isFirst: Bool) throws -> Image {
        if step.isChain { return try applyIncludedChain(step, previous: previous) }
        if let expression = step.value {
            guard case let .image(image) = try evaluate(expression) else {
                throw error("\(step.filter)(…) does not give an image", at: step.position)
            }
            return image
        }
        guard let descriptor = FilterRegistry.descriptor(named: step.filter) else {
            let near = FilterRegistry.suggestions(for: step.filter)
            throw error("unknown filter '\(step.filter)'" + (near.isEmpty ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: ", "))?)"), at: step.position)
        }
        var values: [String: FilterValue] = [:]
        var positions: [String: SourcePosition] = [:]
        for argument in step.arguments {
            guard let key = descriptor.canonicalKey(argument.key) else {
                throw error("\(descriptor.name) has no key '\(argument.key)'" + suggestion(argument.key, among: descriptor.parameters.map(\.key)), at: argument.position)
            }
            var value = try evaluate(argument.value).filterValue
            // A color where an image is expected is an infinite image of that color.
            if case let .color(color) = value, descriptor.parameter(key)?.kind == .image { value = .image(Image(color: color)) }
            values[key] = value
            positions[key] = argument.position
        }
        if values["image"] == nil, descriptor.parameters.contains(where: { $0.key == "image" }) {
            guard let previous else {
                throw error("\(descriptor.name) needs an image: this chain reads 'input', so give it an input file", at: step.position)
            }
            values["image"] = .image(previous)
        }
        do {
            let output = try descriptor.apply(values)
            guard options.extent == .input, case let .image(source)? = values["image"] else { return output }
            return FilterChain.ExtentPolicy.keepingInputExtent(output, of: source, category: descriptor.category)
        } catch let failure as LumenError {
            switch failure {
            case let .invalidValue(_, key, reason): throw error("\(descriptor.name) \(key): \(reason)", at: positions[key] ?? step.position)
            case let .missingInput(_, key): throw error("\(descriptor.name) needs '\(key)'", at: step.position)
            case let .unknownKey(_, key, _): throw error("\(descriptor.name) has no key '\(key)'", at: step.position)
            case .chain: throw failure
            default: throw error(failure.description, at: step.position)
            }
        }
    }

    /// How deep chains may include chains (each level is a file and a recursion).
    static let includeDepthLimit = 32

    private mutating func applyIncludedChain(_ step: ChainSyntax.Step, previous: Image?) throws -> Image {
        let url = URL(fileURLWithPath: step.filter, relativeTo: chain.directory).standardizedFileURL
        if let refusal = chain.fileAccess.refusal(url) { throw error("chain(\"\(step.filter)\"): \(refusal)", at: step.position) }
        guard includeStack.count < Self.includeDepthLimit else {
            throw error("chains include chains at most \(Self.includeDepthLimit) deep", at: step.position)
        }
        // Only .chain files are read as chains: an error in any other file would quote it.
        guard url.pathExtension == "chain" else {
            throw error("chain(\"\(step.filter)\"): chain files end in .chain", at: step.position)
        }
        if includeStack.contains(url.path) {
            throw error("chain(\"\(step.filter)\") includes itself (cycle: \((includeStack + [url.path]).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " → ")))", at: step.position)
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw error("no chain file at \(url.path)", at: step.position)
        }
        let included = try FilterChain(contentsOf: url, fileAccess: chain.fileAccess)
        var input = previous
        var overrides: [String: ChainValue] = [:]
        for argument in step.arguments {
            let value = try evaluate(argument.value)
            if argument.key == "image" || argument.key == "inputImage" {
                guard case let .image(image) = value else { throw error("image must be an image, got \(value.typeName)", at: argument.position) }
                input = image
            } else {
                guard included.parameterNames.contains(argument.key) else {
                    throw error("\(URL(fileURLWithPath: step.filter).lastPathComponent) has no param '\(argument.key)'" + suggestion(argument.key, among: included.parameterNames), at: argument.position)
                }
                overrides[argument.key] = value
            }
        }
        var evaluator = ChainEvaluator(chain: included, includeStack: includeStack + [url.path], assets: assets, options: options)
        return try evaluator.run(input: input, overrides: overrides)
    }

    mutating func evaluate(_ expression: ChainSyntax.Expression) throws -> ChainValue {
        switch expression {
        case let .number(v, _): return .number(v)
        case let .string(s, _): return .string(s)
        case let .color(text, at):
            guard let color = Color(parsing: text) else { throw error("malformed color '\(text)'", at: at) }
            return .color(color)
        case let .vector(items, at):
            var numbers: [Double] = []
            for item in items {
                guard case let .number(v) = try evaluate(item) else { throw error("vector items must be numbers", at: at) }
                numbers.append(v)
            }
            return .vector(numbers)
        case let .name(name, at):
            if let value = scope[name] { return value }
            if let color = Color.named[name.lowercased()] { return .color(color) }
            if name == "input" { throw error("this chain reads 'input' but no input image was given", at: at) }
            throw error("undefined name '\(name)'" + suggestion(name, among: Array(scope.keys)), at: at)
        case let .property(base, property, at):
            return try self.property(property, of: try evaluate(base), at: at)
        case let .call(function, arguments, at):
            return try call(function, arguments, at: at)
        case let .negate(inner, at):
            switch try evaluate(inner) {
            case let .number(v): return .number(-v)
            case let .vector(v): return .vector(v.map { -$0 })
            case let other: throw error("cannot negate \(other.typeName)", at: at)
            }
        case let .binary(op, left, right, at):
            return try arithmetic(op, try evaluate(left), try evaluate(right), at: at)
        }
    }

    private func property(_ name: String, of value: ChainValue, at: SourcePosition) throws -> ChainValue {
        switch value {
        case let .image(image):
            let e = image.extent
            if e.isInfinite, ["width", "height", "center", "extent", "minSide", "maxSide"].contains(name) {
                throw error("the image has an infinite extent, so it has no .\(name)", at: at)
            }
            switch name {
            case "width": return .number(e.width)
            case "height": return .number(e.height)
            case "center": return .vector([e.midX, e.midY])
            case "extent": return .vector([e.x, e.y, e.width, e.height])
            case "minSide": return .number(min(e.width, e.height))
            case "maxSide": return .number(max(e.width, e.height))
            default: throw error("images have .width .height .center .extent .minSide .maxSide, not .\(name)", at: at)
            }
        case let .vector(v):
            let index = ["x": 0, "y": 1, "width": 2, "height": 3][name]
            guard let index, index < v.count else { throw error("this vector has no .\(name)", at: at) }
            return .number(v[index])
        default:
            throw error("\(value.typeName) has no property .\(name)", at: at)
        }
    }

    private mutating func call(_ function: String, _ arguments: [ChainSyntax.Expression], at: SourcePosition) throws -> ChainValue {
        let values = try arguments.map { try evaluate($0) }
        switch function {
        case "rgb", "rgba":
            let numbers = try values.map { value -> Double in
                guard case let .number(v) = value else { throw error("\(function)(…) takes numbers", at: at) }
                return v
            }
            guard numbers.count == (function == "rgb" ? 3 : 4) else { throw error("\(function)(…) takes \(function == "rgb" ? 3 : 4) numbers", at: at) }
            // Components above 1 are read as 0…255 (CSS style); alpha is always 0…1.
            let scale = numbers.prefix(3).contains { $0 > 1 } ? 255.0 : 1.0
            return .color(Color(red: numbers[0] / scale, green: numbers[1] / scale, blue: numbers[2] / scale,
                                alpha: numbers.count == 4 ? numbers[3] : 1))
        case "load":
            guard (1...2).contains(values.count), case let .string(path) = values[0] else {
                throw error("load(…) takes a file path in quotes, and optionally a frame number: load(\"anim.gif\", 3)", at: at)
            }
            var frame = 0
            if values.count == 2 {
                guard case let .number(n) = values[1], n.isFinite, n >= 0, n < 1_000_000, n == n.rounded() else {
                    throw error("load(…)'s frame must be a whole number from 0", at: at)
                }
                frame = Int(n)
            }
            let url = URL(fileURLWithPath: path, relativeTo: chain.directory).standardizedFileURL
            if let refusal = chain.fileAccess.refusal(url) { throw error("load(\"\(path)\"): \(refusal)", at: at) }
            if url.pathExtension.lowercased() == "cube" {  // a 3D LUT, for colorCube's cubeData
                do { return .data(try CubeLUTFile(contentsOf: url).data) } catch let failure as LumenError {
                    throw error(failure.description, at: at)
                }
            }
            var loadOptions = options.loadOptions
            loadOptions.frame = frame
            do { return .image(try Image(contentsOf: url, options: loadOptions)) } catch let failure as LumenError {
                throw error(failure.description, at: at)
            }
        case "asset":
            guard values.count == 1, case let .string(name) = values[0] else { throw error("asset(…) takes a name in quotes", at: at) }
            guard let assets else { throw error("asset(\"\(name)\") needs asset folders (--assets DIR)", at: at) }
            do {
                let t = assets.traits
                let chosen = try assets.catalog.resolve(name, traits: t)
                if let refusal = chain.fileAccess.refusal(chosen.choice.variant.url) { throw error("asset(\"\(name)\"): \(refusal)", at: at) }
                return .image(try assets.catalog.image(named: name, scale: t.scale, idiom: t.idiom, appearance: t.appearance))
            } catch let failure as LumenError {
                throw error(failure.description, at: at)
            }
        case "min", "max", "clamp", "round":
            let numbers = try values.map { value -> Double in
                guard case let .number(v) = value else { throw error("\(function)(…) takes numbers", at: at) }
                return v
            }
            switch function {
            case "round":
                guard numbers.count == 1 else { throw error("round(…) takes one number", at: at) }
                return .number(numbers[0].rounded())
            case "clamp":
                guard numbers.count == 3, numbers[1] <= numbers[2] else { throw error("clamp(x, low, high) takes three numbers, low ≤ high", at: at) }
                return .number(min(max(numbers[0], numbers[1]), numbers[2]))
            default:
                guard let first = numbers.first else { throw error("\(function)(…) takes one or more numbers", at: at) }
                return .number(numbers.dropFirst().reduce(first, function == "min" ? { min($0, $1) } : { max($0, $1) }))
            }
        default:
            throw error("unknown function '\(function)' (there are rgb, rgba, min, max, clamp, round, load, asset)", at: at)
        }
    }

    private func arithmetic(_ op: Character, _ a: ChainValue, _ b: ChainValue, at: SourcePosition) throws -> ChainValue {
        func combine(_ x: Double, _ y: Double) throws -> Double {
            switch op {
            case "+": return x + y
            case "-": return x - y
            case "*": return x * y
            default:
                guard y != 0 else { throw error("division by zero", at: at) }
                return x / y
            }
        }
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(try combine(x, y))
        case let (.vector(v), .number(y)): return .vector(try v.map { try combine($0, y) })
        case let (.number(x), .vector(v)): return .vector(try v.map { try combine(x, $0) })
        case let (.vector(v), .vector(w)):
            guard v.count == w.count else { throw error("cannot combine vectors of \(v.count) and \(w.count) numbers", at: at) }
            return .vector(try zip(v, w).map { try combine($0, $1) })
        default:
            throw error("cannot apply '\(op)' to \(a.typeName) and \(b.typeName)", at: at)
        }
    }
}
