/// A position in a chain's text (1-based).
struct SourcePosition: Equatable, Sendable {
    var line: Int
    var column: Int
}

/// The tokens of the chain language.
enum ChainToken: Equatable, Sendable {
    case identifier(String)
    case number(Double)
    case string(String)
    /// `#rrggbb` or `#rrggbbaa`.
    case hexColor(String)
    case symbol(Character)  // = | + - * / ( ) [ ] , .
    case newline
    case end
}

struct LocatedToken: Equatable, Sendable {
    var token: ChainToken
    var position: SourcePosition
}

/// Splits chain text into tokens; `#` followed by a space or at a line start begins a
/// comment, `#` followed by hex digits is a color.
struct ChainLexer: Sendable {
    let file: String
    let lines: [Substring]

    init(text: String, file: String) {
        self.file = file
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Characters of the line quoted on each side of the error's column: a chain written
    /// on one 30,000-character line is quoted around the mistake, not whole.
    static let excerptReach = 60

    func error(_ message: String, at position: SourcePosition) -> LumenError {
        let line = position.line - 1 < lines.count && position.line >= 1 ? Array(lines[position.line - 1]) : []
        guard !line.isEmpty else {
            return .chain(file: file, line: position.line, column: position.column, message: message, excerpt: "")
        }
        let column = min(max(0, position.column - 1), line.count)
        let from = max(0, column - Self.excerptReach), to = min(line.count, column + Self.excerptReach)
        let head = from > 0 ? "…" : "", tail = to < line.count ? "…" : ""
        let quoted = head + String(line[from..<to]) + tail
        let caret = String(repeating: " ", count: head.count + column - from) + "^"
        return .chain(file: file, line: position.line, column: position.column, message: message,
                      excerpt: "\(quoted)\n    \(caret)")
    }

    func tokenize() throws -> [LocatedToken] {
        var tokens: [LocatedToken] = []
        for (index, line) in lines.enumerated() {
            let chars = Array(line)
            var i = 0
            func position() -> SourcePosition { SourcePosition(line: index + 1, column: i + 1) }
            while i < chars.count {
                let c = chars[i]
                if c == " " || c == "\t" || c == "\r" { i += 1; continue }
                let start = position()
                if c == "#" {
                    var j = i + 1
                    while j < chars.count, chars[j].isHexDigit { j += 1 }
                    let digits = j - i - 1
                    if [3, 6, 8].contains(digits) && (j == chars.count || !chars[j].isLetter) {
                        tokens.append(LocatedToken(token: .hexColor(String(chars[i..<j])), position: start))
                        i = j
                        continue
                    }
                    break  // comment to end of line
                }
                if c.isLetter || c == "_" {
                    var j = i
                    while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                    tokens.append(LocatedToken(token: .identifier(String(chars[i..<j])), position: start))
                    i = j
                } else if c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isNumber) {
                    var j = i
                    while j < chars.count, chars[j].isNumber || chars[j] == "." { j += 1 }
                    if j < chars.count, chars[j] == "e" || chars[j] == "E" {
                        var k = j + 1
                        if k < chars.count, chars[k] == "-" || chars[k] == "+" { k += 1 }
                        if k < chars.count, chars[k].isNumber {
                            j = k
                            while j < chars.count, chars[j].isNumber { j += 1 }
                        }
                    }
                    let text = String(chars[i..<j])
                    guard let value = Double(text) else { throw error("malformed number '\(text)'", at: start) }
                    tokens.append(LocatedToken(token: .number(value), position: start))
                    i = j
                } else if c == "\"" {
                    var j = i + 1
                    var text = ""
                    while j < chars.count, chars[j] != "\"" {
                        if chars[j] == "\\", j + 1 < chars.count { j += 1 }
                        text.append(chars[j])
                        j += 1
                    }
                    guard j < chars.count else { throw error("unterminated string", at: start) }
                    tokens.append(LocatedToken(token: .string(text), position: start))
                    i = j + 1
                } else if "=|+-*/()[],.".contains(c) {
                    tokens.append(LocatedToken(token: .symbol(c), position: start))
                    i += 1
                } else {
                    throw error("unexpected character '\(c)'", at: start)
                }
            }
            tokens.append(LocatedToken(token: .newline, position: SourcePosition(line: index + 1, column: chars.count + 1)))
        }
        tokens.append(LocatedToken(token: .end, position: SourcePosition(line: lines.count + 1, column: 1)))
        return tokens
    }
}
