import Foundation
import Testing
@testable import Lumen

/// Lumen's own PDF417 encoder: module for module against the zint command-line tool where
/// both must choose the same codewords, read back by zxing-cpp in every compaction mode,
/// and sized as ISO/IEC 15438's rules give by hand.
@Suite struct PDF417Tests {
    static func symbol(_ message: [UInt8], _ compaction: PDF417.Compaction = .automatic, alwaysSpecify: Bool = false,
                       level: Int = -1, columns: Int = 0, rows: Int = 0, compact: Bool = false) throws -> BarcodeSymbol {
        try PDF417.symbol(message, compaction: compaction, alwaysSpecify: alwaysSpecify, level: level,
                          layout: PDF417.Layout(columns: columns, rows: rows, compact: compact))
    }

    static func escaped(_ bytes: [UInt8]) -> String { bytes.map { String(format: "\\x%02X", $0) }.joined() }

    /// The committed pattern table is the one zint's symbols give, with every codeword of
    /// those symbols known in advance and each pattern's structure checked (see the script).
    @Test func thePatternTableIsWhatZintDraws() throws {
        let output = try runScript("generate-pdf417-patterns.py", ["--check"], hint: "needs the zint command-line tool")
        #expect(output.contains("matches zint"))
        #expect(PDF417.patterns.count == 3 * 929)
    }

    @Test func modulesEqualZintsWhereTheCodewordsMustBeTheSame() throws {
        // Bytes above 0x7F leave one compaction (byte: 924 for a multiple of 6, 901
        // otherwise), 13+ digits numeric, upper case and digits text; zint agrees.
        let high = (0..<12).map { (i: Int) -> UInt8 in UInt8(0x80 + (i * 29) % 128) }
        let long = (0..<500).map { (i: Int) -> UInt8 in UInt8(0x80 + (i * 61 + 5) % 128) }
        let digits = Array("12345678901234567890123456789012345678901234567890".utf8)
        let cases: [(String, [UInt8], level: Int, columns: Int, rows: Int, compact: Bool)] = [
            ("byte 924", high, 2, 3, 0, false),
            ("byte 901", Array(high.prefix(7)), 0, 1, 0, false),
            ("byte, 500", long, 4, 12, 0, false),
            ("numeric", digits, 1, 2, 0, false),
            ("text", Array("PDF417 ISO 15438 TEXT".utf8), 3, 4, 0, false),
            ("text, mixed case", Array("Lumen PDF417".utf8), 3, 4, 0, false),
            ("compact", Array("Lumen PDF417".utf8), 3, 4, 0, true),
            ("rows", Array("Lumen PDF417".utf8), 2, 2, 20, false),
            ("level 8", Array("LUMEN".utf8), 8, 9, 0, false),
        ]
        for (name, message, level, columns, rows, compact) in cases {
            var arguments = ["-b", compact ? "56" : "55", "--binary", "--esc", "--secure=\(level)", "--cols=\(columns)"]
            if rows > 0 { arguments.append("--rows=\(rows)") }
            let zint = try BarcodeTests.zintDump(arguments + ["-d", Self.escaped(message)])
            let ours = try Self.symbol(message, level: level, columns: columns, rows: rows, compact: compact)
            BarcodeTests.expectModules(ours, equal: zint, name)
        }
    }

    @Test func eachCompactionModeHasTheSizeISOGives() throws {
        // One data column and correction level 0 (2 codewords), so rows = codewords:
        // 1 length descriptor + data + 2. Twenty digits:
        //   numeric: 902, then "1" + 20 digits < 900^7 in 7 codewords → 1 + 8 + 2 = 11
        //   text: ml latch + 20 digits = 21 values, 11 codewords → 1 + 11 + 2 = 14 (15 with 900)
        //   byte: 901, 3 groups of 6 in 15 codewords, 2 bytes in 2 → 1 + 18 + 2 = 21
        //   automatic: 13 or more digits are numeric → 11
        let twenty = Array("12345678901234567890".utf8)
        func rows(_ message: [UInt8], _ mode: PDF417.Compaction, _ always: Bool = false) throws -> Int {
            try Self.symbol(message, mode, alwaysSpecify: always, level: 0, columns: 1).height
        }
        #expect(try rows(twenty, .numeric) == 11)
        #expect(try rows(twenty, .text) == 14)
        #expect(try rows(twenty, .text, true) == 15)
        #expect(try rows(twenty, .byte) == 21)
        #expect(try rows(twenty, .automatic) == 11)
        // "Hello": five text characters are text (H, ll, e, l, l, o: 3 codewords) → 6;
        // "Hi": fewer than five are bytes (901 + 2) → 6, not text's 5 (H, ll, i: 2 codewords).
        #expect(try rows(Array("Hello".utf8), .automatic) == 6)
        #expect(try rows(Array("Hello".utf8), .automatic, true) == 7)
        #expect(try rows(Array("Hi".utf8), .automatic) == 6)
        #expect(try rows(Array("Hi".utf8), .text) == 5)
        // One byte inside text is shifted (913, byte) and text goes on in lower case:
        // H ll e l l o (3) + 2 + as W o r l d (3) → 1 + 8 + 2 = 11; a latch would take 12.
        #expect(try rows(Array("Hello".utf8) + [0x80] + Array("World".utf8), .automatic) == 11)
        // The filter keys reach the encoder: the image is 3 pixels a row plus 4.
        let image = try FilterRegistry.descriptor(named: "CIPDF417BarcodeGenerator")!.apply(
            ["message": .data(Data(twenty)), "compactionMode": .number(3), "dataColumns": .number(1), "correctionLevel": .number(0)])
        #expect(image.extent.height == Double(3 * 21 + 4))
        let always = try FilterRegistry.descriptor(named: "pdf417Barcode")!.apply(
            ["message": .data(Data(twenty)), "compactionMode": .number(2), "alwaysSpecifyCompaction": .number(1),
             "dataColumns": .number(1), "correctionLevel": .number(0)])
        #expect(always.extent.height == Double(3 * 15 + 4))
    }

    @Test func everyModeDecodesToItsMessage() throws {
        // Messages a fixed generator makes: every text character (all four sub-modes and
        // their shifts), digit runs on both sides of 13, and bytes alone and in runs.
        var state: UInt64 = 15438
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let text = Array((32...126).map(UInt8.init)) + [9, 10, 13]
        var messages: [(String, [UInt8], [PDF417.Compaction])] = []
        for k in 0..<24 {
            var m: [UInt8] = []
            while m.count < 20 + next(120) {
                switch next(6) {
                case 0: m += (0..<(5 + next(20))).map { _ in UInt8(65 + next(26)) }
                case 1: m += (0..<(5 + next(20))).map { _ in UInt8(97 + next(26)) }
                case 2: m += (0..<(1 + next(30))).map { _ in UInt8(48 + next(10)) }
                case 3 where k % 2 == 1: m += (0..<(1 + next(8))).map { _ in UInt8(next(256)) }
                default: m += (0..<(1 + next(6))).map { _ in text[next(text.count)] }
                }
            }
            let modes: [PDF417.Compaction] = m.allSatisfy(PDF417.isText) ? [.automatic, .text, .byte] : [.automatic, .byte]
            messages.append(("random-\(k)", m, modes))
        }
        messages.append(("digits", Array("0123456789".utf8) + Array("98765432109876543210123456789012345678901234567890".utf8), [.automatic, .numeric, .text, .byte]))
        messages.append(("shifted-byte-after-odd-text", Array("Hello".utf8) + [0x80] + Array("World".utf8), [.automatic]))
        messages.append(("shifted-byte-after-even-text", Array("Hallo!".utf8) + [0xFF] + Array("Welt".utf8), [.automatic]))
        messages.append(("all-text-characters", text, [.automatic, .text, .byte]))
        // An odd count of values in punctuation is padded with 29, which there latches to
        // alpha: text after the shifted byte must go on from alpha (found by review).
        messages.append(("byte-after-punctuation", Array("HEY!!".utf8) + [0xE9] + Array(" there".utf8), [.automatic]))
        messages.append(("byte-after-punctuation-2", Array("ABC@@".utf8) + [0x80] + Array("@@@@@".utf8), [.automatic]))

        let directory = Paths.temporaryDirectory()  // names without spaces: the decoder's output is split on them
        var expected: [URL: Data] = [:]
        let context = RenderContext()
        for (name, message, modes) in messages {
            for mode in modes {
                for always in [false, true] {
                    let image = try FilterRegistry.descriptor(named: "pdf417Barcode")!.apply(
                        ["message": .data(Data(message)), "compactionMode": .number(Double(mode.rawValue)),
                         "alwaysSpecifyCompaction": .number(always ? 1 : 0)])
                    let url = directory.appendingPathComponent("\(name)-\(mode.rawValue)-\(always).png")
                    try context.write(image, to: url)
                    expected[url] = Data(message)
                }
            }
        }
        let decoded = try BarcodeTests.decode(Array(expected.keys))
        for (url, message) in expected {
            #expect(decoded[url.path]?.format == "PDF417", "\(url.lastPathComponent)")
            #expect(decoded[url.path]?.bytes == message, "\(url.lastPathComponent): \(decoded[url.path]?.bytes.count ?? 0) bytes back of \(message.count)")
        }
    }

    /// Messages weighted towards what switches sub-modes most: punctuation, mixed
    /// characters, case changes, short digit runs and lone bytes between them, each
    /// encoded automatically and read back by zxing-cpp. 200 here; scripts/check-long runs
    /// 5,000 (LUMEN_PDF417_FUZZ). A review's fuzzing of this kind found the punctuation pad.
    @Test func fuzzedMessagesDecode() throws {
        let count = Int(ProcessInfo.processInfo.environment["LUMEN_PDF417_FUZZ"] ?? "") ?? 200
        var state = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        let pools: [[UInt8]] = [Array(";<>@[\\]_`~!,:-.$/\"|*()?{}'".utf8), Array("0123456789&#-.$/+%*=^ ".utf8),
                                Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ ".utf8), Array("abcdefghijklmnopqrstuvwxyz ".utf8), [9, 10, 13]]
        let directory = Paths.temporaryDirectory()
        var expected: [URL: Data] = [:]
        let context = RenderContext()
        for k in 0..<count {
            var m: [UInt8] = []
            for _ in 0..<(1 + next(12)) {
                if next(5) == 0 {
                    m += (0..<(1 + next(2))).map { _ in UInt8(128 + next(128)) }  // lone bytes, now and then two
                } else {
                    let pool = pools[next(pools.count)]
                    m += (0..<(1 + next(7))).map { _ in pool[next(pool.count)] }
                }
            }
            let image = try FilterRegistry.descriptor(named: "pdf417Barcode")!.apply(
                ["message": .data(Data(m)), "alwaysSpecifyCompaction": .number(Double(k % 2))])
            let url = directory.appendingPathComponent("fuzz-\(k).png")
            try context.write(image, to: url)
            expected[url] = Data(m)
        }
        let decoded = try BarcodeTests.decode(Array(expected.keys))
        let wrong = expected.filter { decoded[$0.key.path]?.bytes != $0.value }
        #expect(wrong.isEmpty, "\(wrong.count) of \(count) read back wrong, e.g. \(wrong.first.map { Array($0.value) } ?? [])")
    }

    @Test func aModeThatCannotHoldTheMessageIsALocatedError() throws {
        let pdf = FilterRegistry.descriptor(named: "pdf417Barcode")!
        for (mode, message, fragment) in [(1, "1234a", "byte 4 of the message is 'a'"), (2, Data([0x41, 0xFF]), "byte 1 of the message is 0xFF")] as [(Int, Any, String)] {
            let data = (message as? Data) ?? Data((message as! String).utf8)
            let error = #expect(throws: LumenError.self) {
                _ = try pdf.apply(["message": .data(data), "compactionMode": .number(Double(mode))])
            }
            guard case let .invalidValue(filter, key, reason)? = error else { continue }
            #expect(filter == "pdf417Barcode" && key == "compactionMode" && reason.contains(fragment), "\(reason)")
        }
        // Limits that no column count meets name the key; too many codewords name the message.
        let tooNarrow = #expect(throws: LumenError.self) {
            _ = try pdf.apply(["message": .string("Lumen"), "maxWidth": .number(60)])
        }
        if case let .invalidValue(_, key, _)? = tooNarrow { #expect(key == "maxWidth") }
        let tooLong = #expect(throws: LumenError.self) {
            _ = try pdf.apply(["message": .data(Data(repeating: 0x80, count: 1200)), "correctionLevel": .number(0)])
        }
        if case let .invalidValue(_, key, reason)? = tooLong { #expect(key == "message" && reason.contains("928"), "\(reason)") }
    }

    @Test func theLayoutIsCoreImages() throws {
        // Core Image's rule: each column count takes the fewest rows (at least 3) that hold
        // the codewords, and the width/height (pixels, quiet zone included: 73 + 17c by
        // 3r + 4, compact 39 + 17c) nearest the preferred ratio (3 when not given) wins.
        // "Lumen" is L ll u m e n, 3 codewords; + the length descriptor + 8 for level 2 = 12.
        //   c = 1: 12 rows, 90 × 40 = 2.25; c = 2: 6 rows, 107 × 22 = 4.86;
        //   c = 3: 4 rows, 124 × 16 = 7.75; c = 4: 3 rows, 141 × 13 = 10.8 (wider still)
        //   compact: 56 × 40 = 1.4; 73 × 22 = 3.32; 90 × 16 = 5.63
        let cases: [([String: FilterValue], Double, Double)] = [
            ([:], 90, 40), (["preferredAspectRatio": .number(3)], 90, 40), (["preferredAspectRatio": .number(5)], 107, 22),
            (["preferredAspectRatio": .number(8)], 124, 16), (["preferredAspectRatio": .number(1)], 90, 40),
            (["compactStyle": .number(1)], 73, 22), (["minWidth": .number(100)], 107, 22), (["maxHeight": .number(16)], 124, 16),
        ]
        for (values, width, height) in cases {
            var all = values
            all["message"] = .string("Lumen")
            let extent = try FilterRegistry.descriptor(named: "pdf417Barcode")!.apply(all).extent
            #expect(extent.width == width && extent.height == height, "\(values): \(extent)")
        }
        // Limits no symbol meets name the key that narrowed the choice; a level too high
        // for the message names correctionLevel.
        let pdf = FilterRegistry.descriptor(named: "pdf417Barcode")!
        for (values, key) in [(["maxWidth": FilterValue.number(90), "maxHeight": .number(13)], "maxHeight"),
                              (["dataColumns": .number(1), "rows": .number(5)], "rows"),
                              (["correctionLevel": .number(8), "message": .data(Data(repeating: 0x80, count: 500))], "correctionLevel")] {
            var all = values
            if all["message"] == nil { all["message"] = .string("Lumen") }
            let error = #expect(throws: LumenError.self) { _ = try pdf.apply(all) }
            if case let .invalidValue(_, named, _)? = error { #expect(named == key, "\(values)") }
        }
    }
}
