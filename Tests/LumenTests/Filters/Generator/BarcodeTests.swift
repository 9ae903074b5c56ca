import Foundation
import Testing
@testable import Lumen

/// Every barcode generator's symbols, read back by an independent decoder (zxing-cpp,
/// scripts/decode-barcodes.py), for ASCII, UTF-8 and binary messages.
@Suite struct BarcodeTests {
    static let messages: [(String, Data)] = [
        ("ascii", Data("Lumen 1.0 — https://example.org/?q=42".utf8.filter { $0 < 128 })),
        ("utf8", Data("Grüße aus Zürich, 東京 ✓".utf8)),
        ("binary", Data((0..<64).map { (i: Int) -> UInt8 in UInt8((i * 37 + 11) % 256) })),
        // Code 128 holds at most 60 symbol characters.
        ("ascii-short", Data("LUMEN-2026/11 #42 ok".utf8)),
        ("binary-short", Data((0..<16).map { (i: Int) -> UInt8 in UInt8((i * 53 + 7) % 256) })),
    ]

    /// (filter, extra values, zxing's name, messages it must carry)
    static let symbologies: [(String, [String: FilterValue], String, [String])] = [
        ("qrCode", [:], "QRCode", ["ascii", "utf8", "binary"]),
        ("qrCode", ["correctionLevel": .string("H")], "QRCode", ["ascii", "utf8", "binary"]),
        ("qrCode", ["correctionLevel": .string("l")], "QRCode", ["binary"]),
        ("aztecCode", [:], "Aztec", ["ascii", "utf8", "binary"]),
        ("aztecCode", ["compactStyle": .number(1), "correctionLevel": .number(10)], "Aztec", ["ascii"]),
        ("aztecCode", ["layers": .number(12)], "Aztec", ["utf8"]),
        ("pdf417Barcode", [:], "PDF417", ["ascii", "utf8", "binary"]),
        ("pdf417Barcode", ["compactStyle": .number(1), "correctionLevel": .number(5)], "PDF417", ["ascii"]),
        ("pdf417Barcode", ["preferredAspectRatio": .number(3)], "PDF417", ["utf8"]),
        // Code 128 carries bytes 0…255 (above 127 through FNC4); zxing returns them as sent.
        ("code128Barcode", [:], "Code128", ["ascii-short", "binary-short"]),
    ]

    static func decode(_ files: [URL]) throws -> [String: (format: String, bytes: Data)] {
        let finished = try runToEnd("/usr/bin/env", ["python3", Paths.root.appendingPathComponent("scripts/decode-barcodes.py").path] + files.map(\.path))
        let output = finished.stdout
        #expect(finished.status == 0, "zxing-cpp is needed: pip install zxing-cpp pillow (scripts/setup does): \(finished.stderr.suffix(400))")
        var results: [String: (String, Data)] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 3 else { continue }
            var bytes = Data()
            var hex = parts[2][...]
            while hex.count >= 2, let byte = UInt8(hex.prefix(2), radix: 16) { bytes.append(byte); hex = hex.dropFirst(2) }
            results[parts[0]] = (parts[1], bytes)
        }
        return results
    }

    @Test func everySymbolDecodesToItsMessage() throws {
        let directory = Paths.temporaryDirectory()
        var expected: [URL: (String, Data)] = [:]
        let context = RenderContext()
        for (index, (filter, values, format, messageNames)) in Self.symbologies.enumerated() {
            for (name, message) in Self.messages where messageNames.contains(name) {
                var all = values
                all["message"] = .data(message)
                let image = try FilterRegistry.descriptor(named: filter)!.apply(all)
                let url = directory.appendingPathComponent("\(index)-\(filter)-\(name).png")
                try context.write(image, to: url)
                expected[url] = (format, message)
            }
        }
        let decoded = try Self.decode(Array(expected.keys))
        #expect(decoded.count == expected.count)
        for (url, (format, message)) in expected {
            let result = decoded[url.path]
            #expect(result?.format == format, "\(url.lastPathComponent): read as \(result?.format ?? "nothing")")
            #expect(result?.bytes == message, "\(url.lastPathComponent): \(result?.bytes.count ?? 0) bytes back of \(message.count)")
        }
    }

    @Test func everyOptionShapesTheSymbol() throws {
        func size(_ name: String, _ values: [String: FilterValue]) throws -> Rect {
            var all = values
            if all["message"] == nil { all["message"] = .string("Lumen, image pipelines in Swift — 2026") }
            return try FilterRegistry.descriptor(named: name)!.apply(all).extent
        }
        // QR: more correction, a larger version.
        #expect(try size("qrCode", ["correctionLevel": .string("L")]).width < size("qrCode", ["correctionLevel": .string("H")]).width)
        // Aztec: correction, layers, compact or full-size.
        #expect(try size("aztecCode", ["correctionLevel": .number(10)]).width < size("aztecCode", ["correctionLevel": .number(50)]).width)
        let layered = try size("aztecCode", ["layers": .number(12)]).width
        #expect(layered == 67 + 2)  // ISO 24778 table 1: 12 layers, 67 × 67 modules
        #expect(try size("aztecCode", ["message": .string("Lumen"), "compactStyle": .number(1)]).width == 15 + 2)
        #expect(try size("aztecCode", ["message": .string("Lumen"), "compactStyle": .number(0)]).width == 19 + 2)
        // PDF417: columns, rows, correction, compact, size limits, aspect ratio.
        let base = try size("pdf417Barcode", ["dataColumns": .number(3)])
        #expect(try size("pdf417Barcode", ["dataColumns": .number(6)]).width > base.width)
        #expect(try size("pdf417Barcode", ["dataColumns": .number(3), "correctionLevel": .number(6)]).height > base.height)
        #expect(try size("pdf417Barcode", ["dataColumns": .number(3), "compactStyle": .number(1)]).width < base.width)
        #expect(try size("pdf417Barcode", ["dataColumns": .number(3), "rows": .number(30)]).height == 30 * 3 + 4)
        #expect(try size("pdf417Barcode", ["maxHeight": .number(40)]).height <= 40)
        #expect(try size("pdf417Barcode", ["minWidth": .number(300)]).width >= 300)
        let wide = try size("pdf417Barcode", ["preferredAspectRatio": .number(8)]), tall = try size("pdf417Barcode", ["preferredAspectRatio": .number(0.5)])
        #expect(wide.width / wide.height > tall.width / tall.height)
        // Code 128: quiet space and height.
        #expect(try size("code128Barcode", ["message": .string("A"), "quietSpace": .number(0), "barcodeHeight": .number(7)]).height == 7)
    }

    @Test func modulesAreOnePixelWithCoreImagesQuietZones() throws {
        // Version 1 QR (21 modules) for a short message at level L, plus 1 module each side.
        let qr = try FilterRegistry.descriptor(named: "CIQRCodeGenerator")!.apply(["message": .string("hi"), "correctionLevel": .string("L")])
        #expect(qr.extent == Rect(x: 0, y: 0, width: 23, height: 23))
        let bitmap = try render8(qr)
        // The quiet zone is white, the finder pattern's corner (module 0, 0) is black.
        #expect(bitmap.pixel(x: 0, row: 0).x == 255 && bitmap.pixel(x: 1, row: 1).x == 0)
        #expect(bitmap.pixel(x: 7, row: 7).x == 0 && bitmap.pixel(x: 8, row: 8).x == 255)
        // Code 128: bars barcodeHeight tall inside quietSpace on every side.
        let code = try FilterRegistry.descriptor(named: "code128Barcode")!.apply(["message": .string("ABC"), "quietSpace": .number(5), "barcodeHeight": .number(20)])
        #expect(code.extent.height == 30)
        let bars = try render8(code)
        #expect(bars.pixel(x: 5, row: 4).x == 255 && bars.pixel(x: 5, row: 5).x == 0 && bars.pixel(x: 5, row: 24).x == 0)
        #expect(bars.pixel(x: 5, row: 25).x == 255 && bars.pixel(x: 4, row: 10).x == 255)
    }

    /// The rows of a symbol as the zint command-line tool draws it (`zint --dump`: hex
    /// rows, most significant bit first, two digits per 8 modules, a last single digit 4).
    static func zintDump(_ arguments: [String]) throws -> [[Bool]] {
        let run = try runToEnd("/usr/bin/env", ["zint", "--dump"] + arguments)
        #expect(run.status == 0 && run.stderr.isEmpty, "zint \(arguments): \(run.stderr)")
        return run.stdout.split(separator: "\n").map { row in
            row.split(separator: " ").flatMap { byte -> [Bool] in
                let value = UInt8(byte, radix: 16) ?? 0, bits = byte.count * 4
                return (0..<bits).map { value & (1 << (bits - 1 - $0)) != 0 }
            }
        }
    }

    static func expectModules(_ symbol: BarcodeSymbol, equal rows: [[Bool]], _ what: String) {
        #expect(rows.count == symbol.height, "\(what): \(symbol.height) rows, zint \(rows.count)")
        for (y, bits) in rows.enumerated() where y < symbol.height {
            #expect(Array(bits.prefix(symbol.width)) == (0..<symbol.width).map { symbol.isDark(x: $0, row: y) }, "\(what): row \(y)")
            // zint's row is as wide, up to the padding of its last hex digit.
            #expect(bits.count - symbol.width < 4 && !bits.dropFirst(symbol.width).contains(true), "\(what): row \(y) is \(bits.count) wide")
        }
    }

    @Test func modulesEqualZintsOwnDump() throws {
        let symbol = try BarcodeSymbol(.qrCode, message: Data("Lumen".utf8), options: (4, 0, 0), filter: "qrCode")
        Self.expectModules(symbol, equal: try Self.zintDump(["-b", "58", "--secure=4", "-d", "Lumen"]), "QR")
    }

    @Test func messagesTooLongOrOptionsImpossibleAreLocatedErrors() throws {
        let long = Data(repeating: 0x41, count: 8000)
        for name in ["qrCode", "aztecCode", "pdf417Barcode"] {
            let error = #expect(throws: LumenError.self) {
                _ = try FilterRegistry.descriptor(named: name)!.apply(["message": .data(long)])
            }
            guard case let .invalidValue(filter, key, reason)? = error else { continue }
            #expect(filter == name && key == "message" && !reason.isEmpty, "\(String(describing: error))")
        }
        #expect(throws: LumenError.self) {
            _ = try FilterRegistry.descriptor(named: "qrCode")!.apply(["message": .string("x"), "correctionLevel": .string("Z")])
        }
        #expect(throws: LumenError.self) {
            _ = try FilterRegistry.descriptor(named: "aztecCode")!.apply(["message": .string("x"), "compactStyle": .number(1), "layers": .number(9)])
        }
        // An empty message gives an empty image.
        #expect(try FilterRegistry.descriptor(named: "qrCode")!.apply([:]).extent.isEmpty)
    }
}
