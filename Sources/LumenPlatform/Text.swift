#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `.whitespaces`).
    public func trimmingSpaces() -> String { trimmed { $0.isWhitespace && !$0.isNewline } }

    /// Without leading and trailing white space, line breaks included
    /// (Foundation's `.whitespacesAndNewlines`).
    public func trimmingWhitespace() -> String { trimmed(\.isWhitespace) }

    private func trimmed(_ drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }

    /// Padded with spaces on the right to `width` characters, or cut to them (what
    /// `padding(toLength:withPad:" ", startingAt: 0)` gives).
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
    }

    /// The extension after the last dot of the last path component ("" without one),
    /// as NSString's `pathExtension`.
    public var filenameExtension: String {
        let name = String(self[(lastIndex(of: "/").map(index(after:)) ?? startIndex)...])
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}

extension String {
    /// C's printf formatting of numbers (`%.1f`, `%.3g`, `%05d`): `String(format:)` for
    /// the conversions snprintf knows (not `%@`).
    public init(printf format: String, _ arguments: CVarArg...) {
        var size = 64
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let needed = withVaList(arguments) { vsnprintf(&buffer, size, format, $0) }
            if needed < 0 { self = ""; return }
            if Int(needed) < size {
                self = String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return
            }
            size = Int(needed) + 1
        }
    }
}
