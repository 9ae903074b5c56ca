import LumenPlatform

/// Linear-time scans of an XMP packet's bytes for the few constructs Lumen edits. XMP is
/// UTF-8 XML whose markup is ASCII, so the bytes are searched directly, and a packet of
/// any size (a PNG's iTXt chunk, a HEIF item) costs about one pass. A backtracking regular
/// expression with a lazy `.*?` up to a closing tag costs a pass per opening tag that has
/// none: 80 KB of such tags took 9 s with Swift Regex, 1.7 s with NSRegularExpression.
enum XMPBytes {
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    /// A byte of a regex word (`\w`): ASCII letters, digits, `_`, and any byte of a
    /// non-ASCII character (letters in XML names).
    static func isWord(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte >= 0x80 }

    /// The first position of `needle` in `bytes` at or after `start`: memchr for its first
    /// byte, memcmp for the rest.
    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first, start >= 0 else { return nil }
        var at = start
        while bytes.count - at >= needle.count,
              let hit = memchr(base + at, Int32(first), bytes.count - at - needle.count + 1) {
            if memcmp(hit, needle, needle.count) == 0 { return UnsafeRawPointer(hit) - base }
            at = UnsafeRawPointer(hit) - base + 1
        }
        return nil
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBytes { find(needle, in: $0, from: start) }
    }

    /// `find` remembered: asking again from further on costs nothing until the position
    /// found is passed, so looking for a closing tag after each of many opening tags scans
    /// the packet once, not once per tag.
    struct Finder {
        let needle: [UInt8]
        private var searchedFrom = Int.max
        private var found: Int?

        init(_ needle: [UInt8]) { self.needle = needle }

        mutating func first(in bytes: [UInt8], from start: Int) -> Int? {
            if start >= searchedFrom, found.map({ $0 >= start }) ?? true { return found }
            searchedFrom = start
            found = XMPBytes.find(needle, in: bytes, from: start)
            return found
        }
    }

    /// `bytes` without the given ranges (ascending, not overlapping).
    static func removing(_ cuts: [Range<Int>], from bytes: [UInt8]) -> [UInt8] {
        guard !cuts.isEmpty else { return bytes }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var from = 0
        for cut in cuts {
            kept += bytes[from..<cut.lowerBound]
            from = cut.upperBound
        }
        return kept + bytes[from...]
    }

    /// Every `exif:GPS…` property of an XMP packet taken out, as an attribute
    /// (` exif:GPSLatitude="…"`, or with single quotes) or as an element (`<exif:GPSAltitude …/>`,
    /// `<exif:GPSLatitude …>…</exif:GPSLatitude>`).
    static func removingGPS(_ packet: [UInt8]) -> [UInt8] {
        removingGPSElements(removingGPSElements(removingGPSAttributes(packet), selfClosing: true), selfClosing: false)
    }

    /// What `\s+exif:GPS[A-Za-z]*\s*=\s*"[^"]*"` (or with `'`) matches.
    static func removingGPSAttributes(_ bytes: [UInt8]) -> [UInt8] {
        let key = Array("exif:GPS".utf8)
        var cuts: [Range<Int>] = [], next = 0
        var quotes = [Finder([UInt8(ascii: "\"")]), Finder([UInt8(ascii: "'")])]
        while let at = find(key, in: bytes, from: next) {
            next = at + 1
            var start = at
            while start > (cuts.last?.upperBound ?? 0), isSpace(bytes[start - 1]) { start -= 1 }
            guard start < at else { continue }
            var end = at + key.count
            while end < bytes.count, isLetter(bytes[end]) { end += 1 }
            while end < bytes.count, isSpace(bytes[end]) { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "=") else { continue }
            end += 1
            while end < bytes.count, isSpace(bytes[end]) { end += 1 }
            guard end < bytes.count, let kind = [UInt8(ascii: "\""), UInt8(ascii: "'")].firstIndex(of: bytes[end]),
                  let close = quotes[kind].first(in: bytes, from: end + 1) else { continue }
            cuts.append(start..<close + 1)
            next = close + 1
        }
        return removing(cuts, from: bytes)
    }

    /// What `<exif:GPS([A-Za-z]*)\b[^>]*/>` matches (`selfClosing`), or else
    /// `<exif:GPS([A-Za-z]*)\b[^>]*>.*?</exif:GPS\1>` across lines.
    static func removingGPSElements(_ bytes: [UInt8], selfClosing: Bool) -> [UInt8] {
        let open = Array("<exif:GPS".utf8)
        var cuts: [Range<Int>] = [], next = 0
        var tagEnd = Finder([UInt8(ascii: ">")])
        var closers: [[UInt8]: Finder] = [:]
        while let at = find(open, in: bytes, from: next) {
            next = at + 1
            let name = at + open.count
            var end = name
            while end < bytes.count, isLetter(bytes[end]) { end += 1 }
            guard end == bytes.count || !isWord(bytes[end]) else { continue }
            guard let close = tagEnd.first(in: bytes, from: end) else { break }  // no '>' further on
            if selfClosing {
                guard close > end, bytes[close - 1] == UInt8(ascii: "/") else { continue }
                cuts.append(at..<close + 1)
                next = close + 1
            } else {
                let closer = Array("</exif:GPS".utf8) + bytes[name..<end] + [UInt8(ascii: ">")]
                var finder = closers[closer] ?? Finder(closer)
                let found = finder.first(in: bytes, from: close + 1)
                closers[closer] = finder
                guard let found else { continue }
                cuts.append(at..<found + closer.count)
                next = found + closer.count
            }
        }
        return removing(cuts, from: bytes)
    }
}

extension XMPBytes {
    /// The matches of `<(\w+):Directory\b[\s\S]*?</\1:Directory>`, left to right: each
    /// container directory's bytes and its namespace prefix.
    static func directories(_ bytes: [UInt8]) -> [(range: Range<Int>, prefix: [UInt8])] {
        let key = Array(":Directory".utf8)
        var found: [(range: Range<Int>, prefix: [UInt8])] = [], next = 0
        var closers: [[UInt8]: Finder] = [:]
        while let colon = find(key, in: bytes, from: next) {
            next = colon + 1
            var start = colon
            while start > 0, isWord(bytes[start - 1]) { start -= 1 }
            // `<` right before the whole word (a longer word would not be followed by ":Directory"),
            // not inside the last match, and a word boundary after "Directory".
            guard start < colon, start > 0, bytes[start - 1] == UInt8(ascii: "<"), start - 1 >= (found.last?.range.upperBound ?? 0),
                  colon + key.count == bytes.count || !isWord(bytes[colon + key.count]) else { continue }
            let prefix = Array(bytes[start..<colon])
            let closer = Array("</".utf8) + prefix + Array(":Directory>".utf8)
            var finder = closers[closer] ?? Finder(closer)
            let end = finder.first(in: bytes, from: colon + key.count)
            closers[closer] = finder
            guard let end else { continue }
            found.append((start - 1..<end + closer.count, prefix))
            next = end + closer.count
        }
        return found
    }

    /// The matches of `<hdrgm:(\w+)>\s*<rdf:Seq>(.*?)</rdf:Seq>` across lines, left to
    /// right: each gain-map property written as a sequence, and the sequence's content.
    static func gainMapSequences(_ bytes: [UInt8]) -> [(name: [UInt8], body: [UInt8])] {
        let open = Array("<hdrgm:".utf8), sequence = Array("<rdf:Seq>".utf8)
        var found: [(name: [UInt8], body: [UInt8])] = [], next = 0
        var closer = Finder(Array("</rdf:Seq>".utf8))
        while let at = find(open, in: bytes, from: next) {
            next = at + 1
            var end = at + open.count
            while end < bytes.count, isWord(bytes[end]) { end += 1 }
            guard end > at + open.count, end < bytes.count, bytes[end] == UInt8(ascii: ">") else { continue }
            var body = end + 1
            while body < bytes.count, isSpace(bytes[body]) { body += 1 }
            guard bytes.count - body >= sequence.count, bytes[body..<body + sequence.count].elementsEqual(sequence),
                  let close = closer.first(in: bytes, from: body + sequence.count) else { continue }
            found.append((Array(bytes[at + open.count..<end]), Array(bytes[body + sequence.count..<close])))
            next = close + closer.needle.count
        }
        return found
    }
}
