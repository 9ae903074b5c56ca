import Foundation
import Testing
@testable import Lumen

/// OpenEXR: files written by OpenEXR's own Python bindings from a formula
/// (scripts/exr-reference.py), decoded into the working space with their high dynamic
/// range intact, and Lumen's outputs read back by those bindings.
@Suite struct EXRTests {
    static func fixture(_ name: String) -> URL { Paths.testdata("exr/\(name)") }

    /// The formula of scripts/exr-reference.py: straight RGB and alpha at (x, y).
    static func expected(x: Int, y: Int) -> (rgb: SIMD3<Double>, alpha: Double) {
        (SIMD3(Double(x) / 8, Double(y) / 4, Double(x + y) / 32), 0.25 + 0.75 * Double(x) / 47)
    }

    /// Half precision: 11 significant bits.
    static func close(_ a: Double, _ b: Double, half: Bool = true) -> Bool {
        abs(a - b) <= (half ? 1e-3 : 1e-6) * max(1, abs(b)) + 1e-6
    }

    @Test(arguments: ["rgba-half.exr", "rgba-tiled.exr", "rgb-float-piz.exr", "luminance.exr", "rgb-depth-half.exr", "rgb-subsampled-z.exr"])
    func decodesTheFormulaWithItsRangeIntact(_ name: String) throws {
        let image = try Image(contentsOf: Self.fixture(name))
        #expect(image.extent == Rect(x: 0, y: 0, width: 48, height: 32))
        let bitmap = try RenderContext().render(image, format: .rgbaFloat)  // linear, premultiplied
        var worst = 0.0, brightest = 0.0
        for row in 0..<32 {
            for x in 0..<48 {
                let p = bitmap.pixel(x: x, row: row)
                let (rgb, a) = Self.expected(x: x, y: row)
                let alpha = name.hasPrefix("rgba") ? a : 1
                let colour = name == "luminance.exr" ? SIMD3(repeating: rgb.y) : rgb
                for c in 0..<3 {
                    let want = colour[c] * alpha
                    #expect(Self.close(Double(p[c]), want, half: !name.contains("float")), "\(name) (\(x), \(row)) channel \(c): \(p[c]) vs \(want)")
                    worst = max(worst, abs(Double(p[c]) - want))
                    brightest = max(brightest, Double(p[c]))
                }
                #expect(Self.close(Double(p[3]), alpha), "\(name) alpha at (\(x), \(row))")
            }
        }
        #expect(brightest > 5, "values above 1 survive: \(brightest)")
    }

    static func readBack(_ url: URL) throws -> [String: [Double]] {
        let output = try runScript("exr-reference.py", ["read", url.path], hint: "pip install OpenEXR")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [Double]])
    }

    /// Lumen's outputs, read by OpenEXR's bindings: half by default, float exactly, and an
    /// exposure of +1 stop doubles every value (no clipping at 1).
    @Test func outputsReadBackThroughOpenEXR() throws {
        let directory = Paths.temporaryDirectory()
        let half = directory.appendingPathComponent("half.exr")
        let brighter = try Image(contentsOf: Self.fixture("rgba-half.exr")).applyingFilter("exposureAdjust", parameters: ["ev": 1.0])
        try RenderContext().write(brighter, to: half)
        let header = try ImageFile.header(at: half)
        #expect(header.format == .exr && header.bitDepth == 16 && header.hasAlpha)
        let values = try Self.readBack(half)
        var worst = 0.0
        for row in 0..<32 { for x in 0..<48 {
            let (rgb, a) = Self.expected(x: x, y: row), i = row * 48 + x
            for (c, name) in ["R", "G", "B"].enumerated() {
                let want = 2 * rgb[c] * a
                worst = max(worst, abs(values[name]![i] - want) / max(1, want))
            }
            worst = max(worst, abs(values["A"]![i] - a))
        } }
        #expect(worst < 2e-3, "\(worst)")
        // Float in, float out: the same numbers.
        let float = directory.appendingPathComponent("float.exr")
        try RenderContext().write(try Image(contentsOf: Self.fixture("rgb-float-piz.exr")), to: float, format: OutputFormat(fileFormat: .exr, depth: 32))
        let exact = try Self.readBack(float), source = try Self.readBack(Self.fixture("rgb-float-piz.exr"))
        #expect(try ImageFile.header(at: float).bitDepth == 32)
        for name in ["R", "G", "B"] { #expect(exact[name] == source[name], "\(name)") }
    }

    /// To an 8-bit format, linear values are encoded with sRGB's curve and clipped at 1.
    @Test func eightBitOutputsAreEncodedAndClipped() throws {
        let bitmap = try render8(try Image(contentsOf: Self.fixture("rgb-float-piz.exr")))
        // (4, 0): R = 0.5 linear → 188 in sRGB; (20, 8): R = 2.5 → clipped to 255.
        #expect(bitmap.pixel(x: 4, row: 0)[0] == 188 && bitmap.pixel(x: 20, row: 8)[0] == 255, "\(bitmap.pixel(x: 4, row: 0))")
    }

    /// Luminance with subsampled chroma (RY, BY) is a colour picture Lumen cannot read:
    /// refused by name rather than read as its grey Y.
    @Test func luminanceChromaFilesAreRefused() throws {
        let url = Self.fixture("luminance-chroma.exr")
        #expect {
            _ = try RenderContext().render(try Image(contentsOf: url))
        } throws: { error in
            let text = (error as? LumenError)?.description ?? ""
            return text.contains(url.path) && text.contains("luminance/chroma")
        }
    }

    @Test func damagedFilesFailByName() throws {
        let data = try Data(contentsOf: Self.fixture("rgba-half.exr"))
        let directory = Paths.temporaryDirectory()
        for fraction in [0.02, 0.3, 0.6, 0.9] {
            let cut = directory.appendingPathComponent("cut-\(Int(fraction * 100)).exr")
            try data.prefix(max(8, Int(Double(data.count) * fraction))).write(to: cut)
            #expect {
                _ = try RenderContext().render(try Image(contentsOf: cut))
            } throws: { error in
                (error as? LumenError)?.description.contains(cut.path) == true
            }
        }
    }
}
