import Foundation
import Testing
@testable import Lumen

/// Text: extent, fallback font, and shaping against Pillow's Raqm layout of the same font.
@Suite struct TextTests {
    static func text(_ values: [String: FilterValue]) throws -> Image {
        try FilterRegistry.descriptor(named: "CITextImageGenerator")!.apply(values)
    }

    /// Coverage (alpha) of `image` cropped to its ink, rows from the top.
    static func ink(_ image: Image) throws -> (width: Int, height: Int, columns: [Double]) {
        let bitmap = try RenderContext().render(image, in: image.extent, format: .rgba8)
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for row in 0..<bitmap.height { for x in 0..<bitmap.width where bitmap.pixel(x: x, row: row).w > 0 {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, row); maxY = max(maxY, row)
        } }
        guard maxX >= 0 else { return (0, 0, []) }
        let columns = (minX...maxX).map { x in (minY...maxY).map { Double(bitmap.pixel(x: x, row: $0).w) }.reduce(0, +) }
        return (maxX - minX + 1, maxY - minY + 1, columns)
    }

    static func fontFile(_ family: String) throws -> String {
        try runToEnd("/usr/bin/env", ["fc-match", "-f", "%{file}", family]).stdout
    }

    /// Pillow's rendering of `string` (Raqm: FriBidi + HarfBuzz) as ink column sums.
    static func pillow(_ string: String, size: Double) throws -> (width: Int, height: Int, columns: [Double]) {
        let out = Paths.temporaryDirectory().appendingPathComponent("pillow.png")
        _ = try runScript("render-text-pillow.py", [string, try fontFile("DejaVu Sans"), "\(size)", out.path], hint: "Pillow with Raqm is needed")
        let bitmap = try RenderContext().render(try Image(contentsOf: out), format: .rgba8)
        let columns = (0..<bitmap.width).map { x in (0..<bitmap.height).map { Double(bitmap.pixel(x: x, row: $0).x) }.reduce(0, +) }
        return (bitmap.width, bitmap.height, columns)
    }

    /// Correlation of two column profiles (the shorter padded with zeros).
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = max(a.count, b.count)
        let x = a + [Double](repeating: 0, count: n - a.count), y = b + [Double](repeating: 0, count: n - b.count)
        let mx = x.reduce(0, +) / Double(n), my = y.reduce(0, +) / Double(n)
        let cov = zip(x, y).map { ($0 - mx) * ($1 - my) }.reduce(0, +)
        let vx = x.map { ($0 - mx) * ($0 - mx) }.reduce(0, +), vy = y.map { ($0 - my) * ($0 - my) }.reduce(0, +)
        return cov / (vx * vy).squareRoot()
    }

    @Test(arguments: ["Lumen: image pipelines, fi ffl AV To", "مرحبا بالعالم", "שלום עולם", "Grüße — Ελληνικά — Кириллица"])
    func shapingMatchesPillowsRaqmLayout(_ string: String) throws {
        let ours = try Self.ink(try Self.text(["text": .string(string), "fontName": .string("DejaVu Sans"), "fontSize": .number(32)]))
        let theirs = try Self.pillow(string, size: 32)
        #expect(abs(ours.width - theirs.width) <= max(3, theirs.width / 50), "ink width \(ours.width) vs Pillow \(theirs.width)")
        #expect(abs(ours.height - theirs.height) <= 3, "ink height \(ours.height) vs Pillow \(theirs.height)")
        // The same glyphs in the same order and places: column profiles agree.
        let r = Self.correlation(ours.columns, theirs.columns)
        #expect(r > 0.9, "column profile correlation \(r)")
        // Right-to-left text drawn left-to-right (reversed) does not.
        if string.unicodeScalars.contains(where: { (0x0590...0x06FF).contains($0.value) }) {
            #expect(Self.correlation(ours.columns.reversed(), theirs.columns) < r - 0.2)
        }
    }

    @Test func extentScaleFactorPaddingAndFallback() throws {
        let base = try Self.text(["text": .string("Lumen"), "fontName": .string("DejaVu Sans"), "fontSize": .number(20)])
        #expect(base.extent.minX == 0 && base.extent.minY == 0 && base.extent.width > 40 && base.extent.height >= 20)
        let padded = try Self.text(["text": .string("Lumen"), "fontName": .string("DejaVu Sans"), "fontSize": .number(20), "padding": .number(5)])
        #expect(padded.extent.width == base.extent.width + 10 && padded.extent.height == base.extent.height + 10)
        let doubled = try Self.text(["text": .string("Lumen"), "fontName": .string("DejaVu Sans"), "fontSize": .number(20), "scaleFactor": .number(2)])
        #expect(abs(doubled.extent.width - 2 * base.extent.width) <= 2 && abs(doubled.extent.height - 2 * base.extent.height) <= 2)
        // Two lines are taller than one; an unknown font falls back to fontconfig's default.
        let two = try Self.text(["text": .string("Lumen\nimage"), "fontName": .string("DejaVu Sans"), "fontSize": .number(20)])
        #expect(two.extent.height > 1.8 * base.extent.height)
        let raster = try TextRaster(text: "Lumen", font: "No Such Font Family", pixelSize: 20, padding: 0)
        #expect(raster.family == "DejaVu Sans" && raster.coverage.contains { $0 > 200 })
        // Black ink on transparent.
        let pixels = try RenderContext().render(base, in: base.extent, format: .rgba8)
        let inked = (0..<pixels.height).flatMap { row in (0..<pixels.width).map { pixels.pixel(x: $0, row: row) } }.filter { $0.w == 255 }
        #expect(!inked.isEmpty && inked.allSatisfy { $0.x == 0 && $0.y == 0 && $0.z == 0 })
        #expect(try Self.text(["text": .string("")]).extent.isEmpty)
    }

    @Test func attributedTextIsTheSameGlyphsInItsColour() throws {
        let red = Color(red: 0.9, green: 0.1, blue: 0.2)
        let plain = try Self.text(["text": .string("Lumen"), "fontName": .string("DejaVu Serif"), "fontSize": .number(24)])
        let styled = try FilterRegistry.descriptor(named: "CIAttributedTextImageGenerator")!.apply(
            ["text": .string("Lumen"), "fontName": .string("DejaVu Serif"), "fontSize": .number(24), "color": .color(red)])
        #expect(plain.extent == styled.extent)
        let a = try RenderContext().render(plain, in: plain.extent, format: .rgbaFloat)
        let b = try RenderContext().render(styled, in: styled.extent, format: .rgbaFloat)
        let w = red.working
        for i in stride(from: 0, to: a.samples.count, by: 4) {
            let coverage = a.samples[i + 3]
            #expect(abs(b.samples[i] - w.x * coverage) < 1e-6 && abs(b.samples[i + 3] - coverage) < 1e-6)
        }
    }
}
