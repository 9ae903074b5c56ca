import Foundation
import Testing
@testable import Lumen

/// 32-bit floating-point TIFFs, read as linear light (libvips's scRGB) with values above 1
/// kept, and written so (`OutputFormat.tiff(depth: 32)`). Fixtures from tifffile and libvips
/// (scripts/tiff-float-reference.py); Lumen's outputs read back by tifffile.
@Suite struct TIFFFloatTests {
    static func fixture(_ name: String) -> URL { Paths.testdata("tiff-float/\(name)") }

    /// The formula of scripts/tiff-float-reference.py: straight RGB and alpha at (x, y).
    static func expected(x: Int, y: Int) -> SIMD4<Double> {
        SIMD4(Double(x) / 8, Double(y) / 4, Double(x + y) / 32, 0.25 + 0.75 * Double(x) / 47)
    }

    @Test func tifffilesRGBAFloatsArriveAsTheyWere() throws {
        let image = try Image(contentsOf: Self.fixture("rgba-tifffile.tif"))
        #expect(image.fileHeader?.decodedDepth == 32)
        let bitmap = try RenderContext().render(image, format: .rgbaFloat)  // linear, premultiplied
        var brightest: Float = 0
        for row in 0..<32 {
            for x in 0..<48 {
                let p = bitmap.pixel(x: x, row: row), want = Self.expected(x: x, y: row)
                var colour = SIMD3(want.x, want.y, want.z)
                if row == 0 && x == 0 { colour.x = 0 }  // NaN becomes 0
                if row == 0 && x == 1 { colour.y = 0 }  // and so does +inf
                for c in 0..<3 {
                    #expect(abs(Double(p[c]) - colour[c] * want.w) < 1e-5, "(\(x), \(row)) channel \(c): \(p[c])")
                    brightest = max(brightest, p[c])
                }
                #expect(abs(Double(p[3]) - want.w) < 1e-6)
            }
        }
        #expect(brightest > 5, "values above 1 kept: \(brightest)")
    }

    @Test func grayFloatsToo() throws {
        let bitmap = try RenderContext().render(try Image(contentsOf: Self.fixture("gray-tifffile.tif")), format: .rgbaFloat)
        for row in stride(from: 0, to: 32, by: 5) {
            for x in stride(from: 0, to: 48, by: 7) {
                let p = bitmap.pixel(x: x, row: row), want = Float(row) / 4
                #expect(abs(p.x - want) < 1e-5 && p.x == p.y && p.y == p.z && p.w == 1)
            }
        }
    }

    /// libvips's scRGB, converted to 8-bit sRGB by Lumen and by libvips itself.
    @Test func libvipsScRGBConvertsAsLibvipsDoes() throws {
        let ours = try render8(try Image(contentsOf: Self.fixture("scrgb-vips.tif")))
        let theirs = try render8(try Image(contentsOf: Self.fixture("scrgb-vips.png")))
        #expect(ours.width == 64 && ours.height == 40)
        var worst: Float = 0
        for row in 0..<40 { for x in 0..<64 { for c in 0..<3 { worst = max(worst, abs(ours.pixel(x: x, row: row)[c] - theirs.pixel(x: x, row: row)[c])) } } }
        #expect(worst <= 1, "largest difference \(worst) levels")
    }

    static func readBack(_ url: URL) throws -> (shape: [Int], samples: [Double], tags: [String: Any]) {
        let output = try runScript("tiff-float-reference.py", ["read", url.path], hint: "pip install tifffile imagecodecs")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return (json["shape"] as? [Int] ?? [], json["samples"] as? [Double] ?? [], json["tags"] as? [String: Any] ?? [:])
    }

    /// +2 stops on the photo, written as floats: tifffile reads the working space's values,
    /// above 1 where the exposure put them, with the floating-point predictor and no profile.
    @Test(arguments: [OutputFormat.TIFFCompression.deflate, .none])
    func floatOutputsKeepTheWorkingSpace(_ compression: OutputFormat.TIFFCompression) throws {
        let brighter = try Image(contentsOf: Paths.testdata("photo.jpg")).cropped(to: Rect(x: 200, y: 100, width: 40, height: 30))
            .applyingFilter("exposureAdjust", parameters: ["ev": 2.0])
        let url = Paths.temporaryDirectory().appendingPathComponent("float-\(compression).tif")
        try RenderContext().write(brighter, to: url, format: .tiff(depth: 32, compression: compression))
        let (shape, samples, tags) = try Self.readBack(url)
        #expect(shape == [30, 40, 3])
        #expect(tags["SampleFormat"] as? [Int] == [3, 3, 3] && tags["ICC"] as? Bool == false, "\(tags)")
        #expect((tags["Predictor"] as? Int ?? 1) == (compression == .none ? 1 : 3), "\(tags)")
        let working = try RenderContext().render(brighter, format: .rgbaFloat)
        var worst = 0.0
        for row in 0..<30 {
            for x in 0..<40 {
                let p = working.pixel(x: x, row: row)
                for c in 0..<3 { worst = max(worst, abs(samples[(row * 40 + x) * 3 + c] - Double(p[c]))) }
            }
        }
        #expect(worst < 1e-6, "largest difference \(worst)")
        #expect((samples.max() ?? 0) > 1.5, "values above 1 kept")
        // And Lumen reads its own float file back to the same values.
        let again = try RenderContext().render(try Image(contentsOf: url), format: .rgbaFloat)
        #expect(again.pixel(x: 7, row: 9) == working.pixel(x: 7, row: 9))
    }

    /// tifffile's straight alpha, written back as floats: premultiplied and marked so.
    @Test func straightAlphaIsWrittenPremultiplied() throws {
        let url = Paths.temporaryDirectory().appendingPathComponent("rgba-again.tif")
        try RenderContext().write(try Image(contentsOf: Self.fixture("rgba-tifffile.tif")), to: url, format: .tiff(depth: 32))
        let (shape, samples, tags) = try Self.readBack(url)
        #expect(shape == [32, 48, 4] && tags["ExtraSamples"] as? [Int] == [1], "\(tags)")  // 1: associated alpha
        for (x, row) in [(5, 3), (40, 30), (47, 0)] {
            let want = Self.expected(x: x, y: row), at = (row * 48 + x) * 4
            for c in 0..<3 { #expect(abs(samples[at + c] - want[c] * want.w) < 1e-5, "(\(x), \(row)) channel \(c)") }
            #expect(abs(samples[at + 3] - want.w) < 1e-6)
        }
    }

    @Test func halfFloatsAreRefusedByName() throws {
        let url = Paths.temporaryDirectory().appendingPathComponent("half.tif")
        _ = try runReferenceTool(["python3", "-c", "import numpy, tifffile; tifffile.imwrite('\(url.path)', numpy.ones((4, 4), numpy.float16))"],
                                 hint: "pip install tifffile")
        #expect { try Image(contentsOf: url) } throws: { error in
            "\(error)".contains(url.path) && "\(error)".contains("16-bit floating-point samples")
        }
    }
}
