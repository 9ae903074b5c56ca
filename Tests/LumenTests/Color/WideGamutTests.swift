import CLCMS
import Foundation
import Testing
@testable import Lumen

/// Display P3 photos keep their colours: measured as CIEDE2000 by Little CMS between the
/// source (read with its embedded profile) and the output (read with its own).
@Suite struct WideGamutTests {
    static func fixture(_ name: String) -> URL { Paths.testdata("formats/\(name)") }

    /// Each pixel's Lab, read by Little CMS through the file's embedded profile (Pillow-free:
    /// Lumen decodes the codes as stored, Little CMS interprets them).
    static func lab(_ url: URL) throws -> [SIMD3<Double>] {
        let decoder = try ImageFile.decoder(for: url)
        let raster = try ImageFile.decodeRaster(decoder, reduction: 1)
        let count = raster.width * raster.height
        var rgb = [UInt16](repeating: 0, count: count * 3)
        for row in 0..<raster.height {
            for x in 0..<raster.width {
                for c in 0..<3 {
                    let v = raster.sample(x: x, row: row, channel: c)
                    rgb[(row * raster.width + x) * 3 + c] = UInt16(raster.depth == 8 ? v * 257 : v)
                }
            }
        }
        var lab = [Double](repeating: 0, count: count * 3)
        let icc = decoder.iccProfile
        let status = Data.withOptionalBytes(icc) { profile in
            CLCMS_to_lab(profile.baseAddress, profile.count, rgb, 16, count, &lab)
        }
        #expect(status == 0)
        return (0..<count).map { SIMD3(lab[3 * $0], lab[3 * $0 + 1], lab[3 * $0 + 2]) }
    }

    static func deltaE(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> (max: Double, mean: Double) {
        let values = zip(a, b).map { pa, pb in
            withUnsafePointer(to: pa) { x in withUnsafePointer(to: pb) { y in
                CLCMS_delta_e2000(UnsafeRawPointer(x).assumingMemoryBound(to: Double.self), UnsafeRawPointer(y).assumingMemoryBound(to: Double.self))
            } }
        }
        return (values.max() ?? 0, values.reduce(0, +) / Double(max(1, values.count)))
    }

    @Test func theWorkingSpaceHoldsColoursOutsideSRGB() throws {
        let image = try Image(contentsOf: Self.fixture("p3.png"))
        let pixels = try RenderContext().render(image, format: .rgbaFloat)
        // The first patch is P3 red: in linear sRGB its green and blue are negative.
        let red = pixels.pixel(x: 2, row: 2)
        #expect(red[0] > 1.0 && red[1] < -0.01 && red[2] < -0.01, "\(red)")
    }

    @Test(arguments: ["png", "tif", "webp"])
    func aP3PhotoComesOutAsP3WithItsColours(_ ext: String) throws {
        let directory = Paths.temporaryDirectory()
        let source = try Image(contentsOf: Self.fixture("p3.png"))
        // Through a neutral chain (so every pixel takes the float path), and as a plain convert.
        let neutral = try FilterRegistry.descriptor(named: "exposureAdjust")!.apply(["image": .image(source), "ev": .number(0)])
        for (name, image) in [("neutral", neutral), ("copy", source)] {
            let url = directory.appendingPathComponent("\(name).\(ext)")
            var format = OutputFormat(path: url.path)!
            format.lossless = true
            try RenderContext().write(image, to: url, format: format)
            #expect(try ImageFile.header(at: url).iccDescription == "Display P3", "\(name).\(ext)")
            let difference = Self.deltaE(try Self.lab(Self.fixture("p3.png")), try Self.lab(url))
            #expect(difference.max < 1, "\(name).\(ext): ΔE2000 max \(difference.max)")
        }
    }

    @Test func aJPEGKeepsP3Too() throws {
        let url = Paths.temporaryDirectory().appendingPathComponent("out.jpg")
        try RenderContext().write(try Image(contentsOf: Self.fixture("p3.jpg")), to: url, format: .jpeg(quality: 0.95, chroma444: true))
        let difference = Self.deltaE(try Self.lab(Self.fixture("p3.jpg")), try Self.lab(url))
        #expect(difference.mean < 1, "mean ΔE2000 \(difference.mean)")
    }

    @Test func sRGBOutputClipsOnlyWhatSRGBCannotShow() throws {
        let url = Paths.temporaryDirectory().appendingPathComponent("srgb.png")
        var format = OutputFormat.png
        format.profile = .sRGB
        try RenderContext().write(try Image(contentsOf: Self.fixture("p3.png")), to: url, format: format)
        // Little CMS's sRGB profile goes out as PNG's sRGB chunk.
        let chunks = try pngChunkTypes(url)
        #expect(chunks.contains("sRGB") && !chunks.contains("iCCP"))
        let source = try Self.lab(Self.fixture("p3.png")), output = try Self.lab(url)
        // Patch 0 (P3 red) is outside sRGB: clipped, far away. Patch 6 (a red sRGB can
        // show), 9 (gray), 10 (near black) and 11 (white) are inside: kept.
        func patch(_ i: Int) -> Int { ((i / 4) * 8 + 4) * 32 + (i % 4) * 8 + 4 }
        #expect(Self.deltaE([source[patch(0)]], [output[patch(0)]]).max > 3)
        for inside in [6, 9, 10, 11] {
            #expect(Self.deltaE([source[patch(inside)]], [output[patch(inside)]]).max < 1, "patch \(inside)")
        }
    }

    @Test func anSRGBPhotoConvertsToP3OrToAGivenProfile() throws {
        let directory = Paths.temporaryDirectory()
        let photo = Paths.testdata("photo.jpg")
        for (name, profile) in [("p3", OutputFormat.Profile.displayP3),
                                ("file", .icc(try Data(contentsOf: Self.fixture("DisplayP3.icc"))))] {
            let url = directory.appendingPathComponent("\(name).png")
            var format = OutputFormat.png
            format.profile = profile
            try RenderContext().write(try Image(contentsOf: photo), to: url, format: format)
            #expect(try ImageFile.header(at: url).iccDescription == "Display P3")
            let difference = Self.deltaE(try Self.lab(photo), try Self.lab(url))
            #expect(difference.max < 1.5 && difference.mean < 0.5, "\(name): \(difference)")
        }
        var bad = OutputFormat.png
        bad.profile = .icc(Data("not a profile".utf8))
        #expect(throws: LumenError.self) { try RenderContext().write(try Image(contentsOf: photo), to: directory.appendingPathComponent("x.png"), format: bad) }
    }

    @Test func sixteenBitP3KeepsItsCodes() throws {
        let url = Paths.temporaryDirectory().appendingPathComponent("deep.png")
        let source = try Image(contentsOf: Self.fixture("p3-16.png"))
        let neutral = try FilterRegistry.descriptor(named: "exposureAdjust")!.apply(["image": .image(source), "ev": .number(0)])
        try RenderContext().write(neutral, to: url, format: .png(depth: 16))
        let a = try ImageFile.decode(at: Self.fixture("p3-16.png")), b = try ImageFile.decode(at: url)
        var worst = 0
        for row in 0..<a.height { for x in 0..<a.width { for c in 0..<3 {
            worst = max(worst, abs(a.sample(x: x, row: row, channel: c) - b.sample(x: x, row: row, channel: c)))
        } } }
        #expect(worst <= 1, "16-bit codes moved by \(worst)")
    }

    @Test func theCommandLineFollowsTheInputUnlessToldOtherwise() throws {
        let directory = Paths.temporaryDirectory()
        let kept = directory.appendingPathComponent("kept.webp").path, srgb = directory.appendingPathComponent("srgb.jpg").path
        #expect(try CommandLineTests.lumen(["convert", Self.fixture("p3.png").path, "-o", kept, "--lossless"]).status == 0)
        #expect(try ImageFile.header(at: URL(fileURLWithPath: kept)).iccDescription == "Display P3")
        #expect(try CommandLineTests.lumen(["convert", "--profile", "srgb", Self.fixture("p3.png").path, "-o", srgb]).status == 0)
        #expect(try ImageFile.header(at: URL(fileURLWithPath: srgb)).iccDescription == "sRGB")
        let refused = try CommandLineTests.lumen(["convert", "--profile", "/nonexistent.icc", Self.fixture("p3.png").path, "-o", srgb])
        #expect(refused.status == 2 && refused.stderr.contains("--profile"))
    }
}
