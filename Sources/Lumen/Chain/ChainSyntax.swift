/// The parsed form of a chain file: parameter declarations and steps, each with the
/// position it came from. Parsing checks only syntax; names and filters are checked
/// when the chain is built.
struct ChainSyntax: Sendable {
    struct Parameter: Sendable {
        var name: String
        var defaultValue: Expression
        var position: SourcePosition
    }

    struct Argument: Sendable {
        var key: String
        var value: Expression
        var position: SourcePosition
    }

    struct Step: Sendable {
        /// The name given with `name = …`, if any.
        var name: String?
        /// The filter name, or the path for `chain("path")`.
        var filter: String
        var isChain: Bool
        var arguments: [Argument]
        /// For `name = load("…")` and other value steps: the image expression.
        var value: Expression? = nil
        var position: SourcePosition
    }

    indirect enum Expression: Sendable {
        case number(Double, SourcePosition)
        case string(String, SourcePosition)
        case color(String, SourcePosition)
        case vector([Expression], SourcePosition)
        case name(String, SourcePosition)
        case property(Expression, String, SourcePosition)
        case call(String, [Expression], SourcePosition)
        case binary(Character, Expression, Expression, SourcePosition)
        case negate(Expression, SourcePosition)

        var position: SourcePosition {
            switch self {
            case let .number(_, p), let .string(_, p), let .color(_, p), let .vector(_, p), let .name(_, p),
                 let .property(_, _, p), let .call(_, _, p), let .binary(_, _, _, p), let .negate(_, p):
                return p
            }
        }
    }

    var parameters: [Parameter] = []
    var steps: [Step] = []
}
