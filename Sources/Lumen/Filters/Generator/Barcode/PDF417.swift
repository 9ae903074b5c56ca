/// ISO/IEC 15438 PDF417, encoded here so that Core Image's `compactionMode` and
/// `alwaysSpecifyCompaction` mean what they say (libzint picks compaction itself and
/// cannot be told). Three steps, as the standard describes them:
///
/// 1. **Compaction** turns the message into data codewords (0…928): text (two letters a
///    codeword, in four sub-modes), byte (six bytes in five codewords) or numeric (44
///    digits in 15), switched by latch codewords. Automatic compaction follows the
///    standard's basic algorithm (Annex N), as Core Image and ZXing do.
/// 2. **Error correction**: 2^(level+1) Reed-Solomon codewords over GF(929).
/// 3. **Layout**: columns and rows chosen as Core Image chooses them (below), each row
///    drawn as start, left row indicator, data, right row indicator and stop, each
///    codeword in the pattern of its row's cluster (`PDF417Patterns.swift`).
enum PDF417 {
    enum Compaction: Int { case automatic = 0, numeric = 1, text = 2, byte = 3 }

    /// What the layout may be: 0 means "not given" for every field, as in Core Image.
    struct Layout {
        var columns = 0, rows = 0
        var minWidth = 0.0, maxWidth = 0.0, minHeight = 0.0, maxHeight = 0.0
        var aspectRatio = 0.0
        var compact = false
    }

    /// A message the chosen compaction, level or layout cannot hold: `key` is the filter
    /// key to blame.
    struct Refusal: Error {
        let key: String
        let reason: String
    }

    static let textLatch = 900, byteLatch = 901, numericLatch = 902, byteShift = 913, byteLatchSix = 924

    /// The symbol for `message`: modules one per column, one row per PDF417 row.
    static func symbol(_ message: [UInt8], compaction: Compaction, alwaysSpecify: Bool,
                       level requested: Int, layout: Layout) throws(Refusal) -> BarcodeSymbol {
        let data = try codewords(message, compaction: compaction, alwaysSpecify: alwaysSpecify)
        let level = try correctionLevel(requested, dataCount: data.count)
        let correction = 2 << level
        guard data.count + 1 + correction <= 928 else {
            // A given level is to blame when the message fits with less correction.
            throw Refusal(key: requested >= 0 && data.count + 3 <= 928 ? "correctionLevel" : "message", reason: "\(data.count + 1) data codewords and \(correction) for correction level \(level) are more than a PDF417 symbol's 928")
        }
        let (columns, rows) = try size(dataCount: data.count + 1, correction: correction, layout: layout)
        var stream = [rows * columns - correction] + data
        stream += repeatElement(textLatch, count: rows * columns - correction - stream.count)  // pads
        stream += errorCorrection(stream, count: correction)
        return draw(stream, columns: columns, rows: rows, level: level, compact: layout.compact)
    }

    // MARK: Compaction

    /// The data codewords (without the length descriptor).
    static func codewords(_ message: [UInt8], compaction: Compaction, alwaysSpecify: Bool) throws(Refusal) -> [Int] {
        var out: [Int] = []
        switch compaction {
        case .numeric:
            if let i = message.firstIndex(where: { !isDigit($0) }) {
                throw Refusal(key: "compactionMode", reason: "numeric compaction (1) holds only the digits 0…9, and byte \(i) of the message is \(describe(message[i]))")
            }
            out.append(numericLatch)
            numeric(message[...], into: &out)
        case .text:
            if let i = message.firstIndex(where: { !isText($0) }) {
                throw Refusal(key: "compactionMode", reason: "text compaction (2) holds only printable ASCII, tab, LF and CR, and byte \(i) of the message is \(describe(message[i]))")
            }
            if alwaysSpecify { out.append(textLatch) }
            var submode = Submode.alpha
            text(message[...], into: &out, submode: &submode)
        case .byte:
            bytes(message[...], into: &out, latch: true)
        case .automatic:
            automatic(message, alwaysSpecify: alwaysSpecify, into: &out)
        }
        return out
    }

    /// Annex N's basic algorithm: 13 or more digits in numeric compaction, 5 or more
    /// text characters (or a message of fewer than 13 digits) in text compaction, the
    /// rest in byte compaction, where a single byte inside text is shifted (913) rather
    /// than latched. Text is the mode a symbol starts in, so its latch (900) is written
    /// only after another mode, or first with `alwaysSpecify`.
    private static func automatic(_ message: [UInt8], alwaysSpecify: Bool, into out: inout [Int]) {
        enum Mode { case unspecified, text, byte, numeric }
        var mode: Mode = alwaysSpecify ? .unspecified : .text
        var submode = Submode.alpha
        var i = 0
        while i < message.count {
            let digits = digitRun(message, from: i)
            if digits >= 13 {
                out.append(numericLatch)
                numeric(message[i..<i + digits], into: &out)
                mode = .numeric
                i += digits
                continue
            }
            let text = textRun(message, from: i)
            if text >= 5 || digits == message.count {
                if mode != .text {
                    out.append(textLatch)
                    submode = .alpha
                }
                Self.text(message[i..<i + text], into: &out, submode: &submode)
                mode = .text
                i += text
                continue
            }
            let count = byteRun(message, from: i)
            // One byte inside text is shifted (913): text goes on in its sub-mode after it.
            if count == 1 && mode == .text {
                out += [byteShift, Int(message[i])]
            } else {
                bytes(message[i..<i + count], into: &out, latch: true)
                mode = .byte
            }
            i += count
        }
    }

    private static func digitRun(_ m: [UInt8], from start: Int) -> Int {
        var i = start
        while i < m.count && isDigit(m[i]) { i += 1 }
        return i - start
    }

    /// Text characters from `start`, stopping where a run of 13 digits begins.
    private static func textRun(_ m: [UInt8], from start: Int) -> Int {
        var i = start
        while i < m.count {
            let digits = digitRun(m, from: i)
            if digits >= 13 { break }
            if digits > 0 { i += digits; continue }
            guard isText(m[i]) else { break }
            i += 1
        }
        return i - start
    }

    /// Bytes from `start` (at least one) up to where 13 digits or 5 text characters begin.
    private static func byteRun(_ m: [UInt8], from start: Int) -> Int {
        var i = start
        while i < m.count {
            if i > start && (digitRun(m, from: i) >= 13 || textRun(m, from: i) >= 5) { break }
            i += 1
        }
        return i - start
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isText(_ b: UInt8) -> Bool { (b >= 32 && b <= 126) || b == 9 || b == 10 || b == 13 }

    private static func describe(_ b: UInt8) -> String {
        b >= 32 && b <= 126 ? "'\(Character(Unicode.Scalar(b)))'" : "0x" + String(b, radix: 16, uppercase: true)
    }

    /// Numeric compaction: each group of up to 44 digits, with a leading 1, in base 900.
    static func numeric(_ digits: ArraySlice<UInt8>, into out: inout [Int]) {
        var start = digits.startIndex
        while start < digits.endIndex {
            let end = min(start + 44, digits.endIndex)
            var number = [1] + digits[start..<end].map { Int($0) - 48 }  // decimal digits, most significant first
            var group: [Int] = []
            while !(number.count == 1 && number[0] == 0) {
                var quotient: [Int] = [], remainder = 0
                for d in number {
                    let value = remainder * 10 + d
                    if !quotient.isEmpty || value / 900 > 0 { quotient.append(value / 900) }
                    remainder = value % 900
                }
                group.append(remainder)
                number = quotient.isEmpty ? [0] : quotient
            }
            out += group.reversed()
            start = end
        }
    }

    /// Byte compaction: six bytes in five base-900 codewords; the last bytes (fewer than
    /// six) one codeword each. 924 latches when the count is a multiple of 6, 901 otherwise.
    static func bytes(_ b: ArraySlice<UInt8>, into out: inout [Int], latch: Bool) {
        if latch { out.append(b.count % 6 == 0 ? byteLatchSix : byteLatch) }
        var i = b.startIndex
        while b.endIndex - i >= 6 {
            var value: UInt64 = 0
            for byte in b[i..<i + 6] { value = value << 8 | UInt64(byte) }
            var five = [Int](repeating: 0, count: 5)
            for k in stride(from: 4, through: 0, by: -1) {
                five[k] = Int(value % 900)
                value /= 900
            }
            out += five
            i += 6
        }
        out += b[i...].map { Int($0) }
    }

    enum Submode { case alpha, lower, mixed, punctuation }

    // The sub-modes' characters in value order (ISO/IEC 15438 Table 3); values 26…29 of
    // alpha, lower and mixed are space and the switches, 29 of punctuation is al.
    private static let mixedCharacters = Array("0123456789&\r\t,:#-.$/+%*=^".utf8)
    private static let punctuationCharacters = Array(";<>@[\\]_`~!\r\t,:\n-.$/\"|*()?{}'".utf8)

    static func value(_ b: UInt8, in submode: Submode) -> Int? {
        switch submode {
        case .alpha: return b >= 65 && b <= 90 ? Int(b) - 65 : b == 32 ? 26 : nil
        case .lower: return b >= 97 && b <= 122 ? Int(b) - 97 : b == 32 ? 26 : nil
        case .mixed: return b == 32 ? 26 : mixedCharacters.firstIndex(of: b)
        case .punctuation: return punctuationCharacters.firstIndex(of: b)
        }
    }

    /// Text compaction of text characters, from `submode` (which it leaves where it ended).
    /// Two values a codeword; an odd last value is padded with 29 (a punctuation shift
    /// with nothing after it, which decoders drop; in punctuation, the latch to alpha).
    static func text(_ chars: ArraySlice<UInt8>, into out: inout [Int], submode: inout Submode) {
        let al = 28, ll = 27, ml = 28, pl = 25, ps = 29, `as` = 27, punctuationAL = 29
        var values: [Int] = []
        var i = chars.startIndex
        while i < chars.endIndex {
            let c = chars[i]
            let next: UInt8? = i + 1 < chars.endIndex ? chars[i + 1] : nil
            i += 1
            if let v = value(c, in: submode) { values.append(v); continue }
            // One upper-case letter inside lower case: shift.
            if submode == .lower, let v = value(c, in: .alpha), next.map({ value($0, in: .alpha) == nil || $0 == 32 }) ?? true {
                values += [`as`, v]
                continue
            }
            // Punctuation alone (and not better reached in mixed): shift.
            if submode != .punctuation, let v = value(c, in: .punctuation),
               next.map({ value($0, in: .punctuation) == nil }) ?? true,
               value(c, in: .mixed) == nil || next.map({ value($0, in: .mixed) == nil }) ?? true {
                values += [ps, v]
                continue
            }
            let target: Submode = value(c, in: .alpha) != nil ? .alpha : value(c, in: .lower) != nil ? .lower
                : value(c, in: .mixed) != nil ? .mixed : .punctuation
            switch (submode, target) {
            case (.lower, .alpha): values += [ml, al]
            case (.mixed, .alpha): values += [al]
            case (.punctuation, .alpha): values += [punctuationAL]
            case (.alpha, .lower), (.mixed, .lower): values += [ll]
            case (.punctuation, .lower): values += [punctuationAL, ll]
            case (.alpha, .mixed), (.lower, .mixed): values += [ml]
            case (.punctuation, .mixed): values += [punctuationAL, ml]
            case (.alpha, .punctuation), (.lower, .punctuation): values += [ml, pl]
            case (.mixed, .punctuation): values += [pl]
            default: break
            }
            submode = target
            values.append(value(c, in: target)!)
        }
        if values.count % 2 == 1 {
            values.append(ps)
            // In punctuation, 29 is not a shift but the latch to alpha, where a decoder
            // now is: text after a byte shift (913) goes on from there.
            if submode == .punctuation { submode = .alpha }
        }
        for k in stride(from: 0, to: values.count, by: 2) { out.append(30 * values[k] + values[k + 1]) }
    }

    // MARK: Error correction

    /// The level Core Image and ISO recommend for `dataCount` data codewords when none is
    /// given (−1); a given level 0…8 as it is.
    static func correctionLevel(_ requested: Int, dataCount: Int) throws(Refusal) -> Int {
        if requested >= 0 { return min(requested, 8) }
        switch dataCount {
        case ...40: return 2
        case ...160: return 3
        case ...320: return 4
        case ...863: return 5
        default:
            throw Refusal(key: "message", reason: "\(dataCount) data codewords are more than the recommended correction level holds (863); give correctionLevel 0…4")
        }
    }

    /// Reed-Solomon over GF(929), generator ∏ (x − 3^i) for i = 1…count; the codewords are
    /// the negated remainder of data · x^count, highest power first.
    static func errorCorrection(_ data: [Int], count: Int) -> [Int] {
        let p = 929
        var generator = [1]
        var power = 1
        for _ in 0..<count {
            power = power * 3 % p
            var next = [Int](repeating: 0, count: generator.count + 1)
            for (j, c) in generator.enumerated() {
                next[j] = (next[j] + c) % p
                next[j + 1] = (next[j + 1] + (p - c * power % p)) % p
            }
            generator = next
        }
        var rest = data + [Int](repeating: 0, count: count)
        for i in data.indices where rest[i] != 0 {
            let factor = rest[i]
            for j in 1...count { rest[i + j] = (rest[i + j] + p - factor * generator[j] % p) % p }
        }
        return rest[data.count...].map { (p - $0) % p }
    }

    // MARK: Layout

    /// Columns and rows as Core Image picks them: columns from minWidth…maxWidth (1…30
    /// when not given), rows from minHeight…maxHeight (3…90), sizes in pixels with the
    /// quiet zone; each column count takes the fewest rows that hold the codewords, and
    /// the pair whose width/height is nearest `aspectRatio` (3 when not given) wins, the
    /// wider on a tie. A symbol holds at most 928 codewords.
    static func size(dataCount: Int, correction: Int, layout: Layout) throws(Refusal) -> (columns: Int, rows: Int) {
        let side = layout.compact ? 39 : 73  // start, indicators, stop and quiet zone, in modules
        func ceilDiv(_ a: Double, _ b: Double) -> Int { Int((a / b).rounded(.up)) }
        var columns = 1...30, rows = 3...90
        if layout.columns > 0 {
            columns = layout.columns...layout.columns
        } else {
            let low = layout.minWidth > 0 ? max(1, ceilDiv(layout.minWidth - Double(side), 17)) : 1
            let high = layout.maxWidth > 0 ? min(30, Int(((layout.maxWidth - Double(side)) / 17).rounded(.down))) : 30
            guard low <= high else { throw Refusal(key: high < 1 ? "maxWidth" : "minWidth", reason: "no PDF417 of 1…30 columns is \(Int(layout.minWidth))…\(Int(layout.maxWidth)) pixels wide") }
            columns = low...high
        }
        if layout.rows > 0 {
            rows = max(3, layout.rows)...max(3, layout.rows)
        } else {
            let low = layout.minHeight > 0 ? max(3, ceilDiv(layout.minHeight - 4, 3)) : 3
            let high = layout.maxHeight > 0 ? min(90, Int(((layout.maxHeight - 4) / 3).rounded(.down))) : 90
            guard low <= high else { throw Refusal(key: high < 3 ? "maxHeight" : "minHeight", reason: "no PDF417 of 3…90 rows is \(Int(layout.minHeight))…\(Int(layout.maxHeight)) pixels tall") }
            rows = low...high
        }
        let aspect = layout.aspectRatio > 0 ? layout.aspectRatio : 3
        var best: (columns: Int, rows: Int, distance: Double)?
        for c in columns {
            let r = max(rows.lowerBound, (dataCount + correction + c - 1) / c)
            guard r <= rows.upperBound, r * c <= 928 else { continue }
            let distance = abs(Double(side + 17 * c) / Double(3 * r + 4) - aspect)
            if best == nil || distance <= best!.distance { best = (c, r, distance) }
        }
        guard let best else {
            // The key that narrowed the choice: rows, then the height, the columns, the width.
            let narrowing = [("rows", layout.rows > 0), ("maxHeight", layout.maxHeight > 0), ("dataColumns", layout.columns > 0),
                             ("maxWidth", layout.maxWidth > 0), ("minHeight", layout.minHeight > 0), ("minWidth", layout.minWidth > 0)]
            throw Refusal(key: narrowing.first { $0.1 }?.0 ?? "message",
                          reason: "\(dataCount + correction) codewords fit in no PDF417 of \(columns.lowerBound)…\(columns.upperBound) columns and \(rows.lowerBound)…\(rows.upperBound) rows (at most 928 codewords)")
        }
        return (best.columns, best.rows)
    }

    /// The rows' modules: start, left row indicator, the row's codewords, then the right
    /// row indicator and stop, or (compact) a single bar. Row indicators carry the row
    /// count, the column count and the level, spread over three rows (§5.6).
    static func draw(_ stream: [Int], columns: Int, rows: Int, level: Int, compact: Bool) -> BarcodeSymbol {
        let width = compact ? 17 * (columns + 2) + 1 : 17 * (columns + 4) + 1
        var modules = [Bool](repeating: false, count: width * rows)
        for r in 0..<rows {
            var x = r * width
            func put(_ bits: UInt32, _ count: Int) {
                for k in stride(from: count - 1, through: 0, by: -1) {
                    modules[x] = bits >> UInt32(k) & 1 == 1
                    x += 1
                }
            }
            let cluster = r % 3, base = 30 * (r / 3)
            func codeword(_ value: Int) { put(0x10000 | UInt32(patterns[929 * cluster + value]) << 1, 17) }
            let indicators = [base + (rows - 1) / 3, base + 3 * level + (rows - 1) % 3, base + columns - 1]
            put(start, 17)
            codeword(indicators[cluster])
            for c in 0..<columns { codeword(stream[r * columns + c]) }
            if compact {
                put(1, 1)
            } else {
                codeword(indicators[(cluster + 2) % 3])
                put(stop, 18)
            }
        }
        return BarcodeSymbol(width: width, height: rows, modules: modules)
    }
}
