/// Parses chain text into `ChainSyntax`.
///
/// Grammar (one statement per line; `a | b` chains steps on one line):
///     statement  := "param" NAME "=" expr | NAME "=" CALL | [NAME "="] step ("|" step)*
///     step       := FILTER arg* | "chain" "(" STRING ")" arg*
///     arg        := KEY "=" expr
///     expr       := term (("+" | "-") term)*
///     term       := unary (("*" | "/") unary)*
///     unary      := "-" unary | postfix
///     postfix    := primary ("." NAME)*
///     primary    := NUMBER | STRING | #HEX | NAME | NAME "(" [expr ("," expr)*] ")"
///                 | "[" expr ("," expr)* "]" | "(" expr ")"
///
/// Limits, so that no chain can exhaust the stack (parsing and evaluating recurse over
/// expressions): parentheses, brackets, calls and negations nest at most
/// `maximumNesting` deep, an expression has at most `maximumOperators` binary operators,
/// and a chain at most `maximumSteps` steps. Each is a located error.
struct ChainParser {
    static let maximumNesting = 256
    static let maximumOperators = 1000
    static let maximumSteps = 1000

    private let lexer: ChainLexer
    private var tokens: [LocatedToken] = []
    private var index = 0
    private var nesting = 0
    private var operators = 0

    init(text: String, file: String) {
        lexer = ChainLexer(text: text, file: file)
    }

    mutating func parse() throws -> ChainSyntax {
        tokens = try lexer.tokenize()
        var syntax = ChainSyntax()
        while current.token != .end {
            if current.token == .newline { index += 1; continue }
            operators = 0
            try parseStatement(into: &syntax)
            if syntax.steps.count > Self.maximumSteps { throw error("a chain may have at most \(Self.maximumSteps) steps") }
            guard current.token == .newline || current.token == .end else {
                throw error("expected a new line after the step, found \(describe(current.token))")
            }
        }
        return syntax
    }

    private var current: LocatedToken { tokens[index] }
    private var next: LocatedToken { tokens[min(index + 1, tokens.count - 1)] }

    private func error(_ message: String, at position: SourcePosition? = nil) -> LumenError {
        lexer.error(message, at: position ?? current.position)
    }

    private func describe(_ token: ChainToken) -> String {
        switch token {
        case let .identifier(s): return "'\(s)'"
        case let .number(v): return "'\(format(v))'"
        case let .string(s): return "\"\(s)\""
        case let .hexColor(s): return "'\(s)'"
        case let .symbol(c): return "'\(c)'"
        case .newline: return "end of line"
        case .end: return "end of file"
        }
    }

    private mutating func expect(_ symbol: Character) throws {
        guard current.token == .symbol(symbol) else { throw error("expected '\(symbol)', found \(describe(current.token))") }
        index += 1
    }

    private mutating func identifier(_ what: String) throws -> String {
        guard case let .identifier(name) = current.token else { throw error("expected \(what), found \(describe(current.token))") }
        index += 1
        return name
    }

    private mutating func parseStatement(into syntax: inout ChainSyntax) throws {
        let start = current.position
        if current.token == .identifier("param"), case .identifier = next.token {
            index += 1
            let name = try identifier("a parameter name")
            try expect("=")
            syntax.parameters.append(.init(name: name, defaultValue: try parseExpression(), position: start))
            return
        }
        var name: String?
        if case let .identifier(n) = current.token, next.token == .symbol("=") {
            name = n
            index += 2
            // `name = load("…")`: a value step (an image from a function), not a filter.
            if case let .identifier(function) = current.token, function != "chain", next.token == .symbol("(") {
                let at = current.position
                let value = try parseExpression()
                syntax.steps.append(.init(name: n, filter: function, isChain: false, arguments: [], value: value, position: at))
                return
            }
        }
        var steps = [try parseStep()]
        while current.token == .symbol("|") {
            index += 1
            steps.append(try parseStep())
        }
        // `name = f | g | h`: the name is the line's result so far — after f, f's output (so
        // g and h may use it, as they could on lines of their own), then g's, and at the end
        // h's, the whole pipeline's.
        if let name { for i in steps.indices { steps[i].name = name } }
        syntax.steps += steps
    }

    private mutating func parseStep() throws -> ChainSyntax.Step {
        let position = current.position
        var filter = try identifier("a filter name")
        var isChain = false
        if filter == "chain", current.token == .symbol("(") {
            index += 1
            guard case let .string(path) = current.token else { throw error("chain(...) takes a file path in quotes") }
            index += 1
            try expect(")")
            filter = path
            isChain = true
        }
        var arguments: [ChainSyntax.Argument] = []
        while case let .identifier(key) = current.token {
            let at = current.position
            index += 1
            guard current.token == .symbol("=") else { throw error("expected '=' after '\(key)' (arguments are key=value)") }
            index += 1
            if arguments.contains(where: { $0.key == key }) { throw error("'\(key)' is given twice", at: at) }
            arguments.append(.init(key: key, value: try parseExpression(), position: at))
        }
        return .init(name: nil, filter: filter, isChain: isChain, arguments: arguments, position: position)
    }

    private mutating func parseExpression() throws -> ChainSyntax.Expression {
        var left = try parseTerm()
        while case let .symbol(op) = current.token, op == "+" || op == "-" {
            let at = current.position
            try countOperator()
            index += 1
            left = .binary(op, left, try parseTerm(), at)
        }
        return left
    }

    private mutating func parseTerm() throws -> ChainSyntax.Expression {
        var left = try parseUnary()
        while case let .symbol(op) = current.token, op == "*" || op == "/" {
            let at = current.position
            try countOperator()
            index += 1
            left = .binary(op, left, try parseUnary(), at)
        }
        return left
    }

    private mutating func countOperator() throws {
        operators += 1
        if operators > Self.maximumOperators {
            throw error("an expression may have at most \(Self.maximumOperators) operators")
        }
    }

    /// Runs `body` one nesting level deeper (parentheses, brackets, calls, negation).
    private mutating func nested<T>(_ body: (inout ChainParser) throws -> T) throws -> T {
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Self.maximumNesting { throw error("expressions may nest at most \(Self.maximumNesting) levels deep") }
        return try body(&self)
    }

    private mutating func parseUnary() throws -> ChainSyntax.Expression {
        if current.token == .symbol("-") {
            let at = current.position
            index += 1
            return .negate(try nested { try $0.parseUnary() }, at)
        }
        var value = try parsePrimary()
        while current.token == .symbol(".") {
            let at = current.position
            index += 1
            value = .property(value, try identifier("a property name"), at)
        }
        return value
    }

    private mutating func parsePrimary() throws -> ChainSyntax.Expression {
        try nested { try $0.parsePrimaryUnnested() }
    }

    private mutating func parsePrimaryUnnested() throws -> ChainSyntax.Expression {
        let at = current.position
        switch current.token {
        case let .number(v):
            index += 1
            return .number(v, at)
        case let .string(s):
            index += 1
            return .string(s, at)
        case let .hexColor(s):
            index += 1
            return .color(s, at)
        case let .identifier(name):
            index += 1
            guard current.token == .symbol("(") else { return .name(name, at) }
            index += 1
            var arguments: [ChainSyntax.Expression] = []
            if current.token != .symbol(")") {
                arguments.append(try parseExpression())
                while current.token == .symbol(",") {
                    index += 1
                    arguments.append(try parseExpression())
                }
            }
            try expect(")")
            return .call(name, arguments, at)
        case .symbol("["):
            index += 1
            var items = [try parseExpression()]
            while current.token == .symbol(",") {
                index += 1
                items.append(try parseExpression())
            }
            try expect("]")
            return .vector(items, at)
        case .symbol("("):
            index += 1
            let inner = try parseExpression()
            try expect(")")
            return inner
        default:
            throw error("expected a value, found \(describe(current.token))")
        }
    }
}
