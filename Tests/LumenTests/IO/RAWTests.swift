import Foundation
import Testing
@testable import Lumen

/// Camera RAW through LibRaw, on DNGs synthesised from a known picture
/// (scripts/make-raw-testdata.py: an RGGB mosaic of a photo crop in linear sRGB, with a
/// colour matrix that makes the camera's RGB linear sRGB): developments give the picture
/// back, agree with LibRaw's own dcraw_emu on the same file and settings, and white
/// balance, exposure, orientation and half-size development do what they say.
@Suite struct RAWTests {
    static func fixture(_ name: String) -> URL { Paths.testdata("raw/\(name)") }

    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var squares = 0.0
        for row in 0..<a.height { for x in 0..<a.width { for c in 0..<3 {
            let d = Double(a.pixel(x: x, row: row)[c] - b.pixel(x: x, row: row)[c])
            squares += d * d
        } } }
        return 10 * log10(255 * 255 / max(1e-12, squares / Double(a.width * a.height * 3)))
    }

    static func means(_ bitmap: Bitmap) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero
        for row in 0..<bitmap.height { for x in 0..<bitmap.width {
            let p = bitmap.pixel(x: x, row: row)
            sum += SIMD3(Double(p.x), Double(p.y), Double(p.z))
        } }
        return sum / Double(bitmap.width * bitmap.height)
    }

    /// The largest per-channel difference.
    static func apart(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z))
    }

    static func develop(_ name: String, _ development: RAWDevelopment? = nil) throws -> Bitmap {
        try render8(try Image(contentsOf: fixture(name), options: .init(raw: development)))
    }

    @Test func theSyntheticDNGDevelopsToItsPicture() throws {
        let header = try ImageFile.header(at: Self.fixture("rggb.dng"))
        #expect(header.format == .raw && header.width == 128 && header.height == 96 && header.bitDepth == 16)
        #expect(header.details.contains("DNG") && header.details.contains("Lumen Synthetic RGGB"), "\(header.details)")
        #expect(header.reductions == [2])
        let source = try render8(try Image(contentsOf: Self.fixture("source.png")))
        let developed = try Self.develop("rggb.dng")
        // AHD demosaicing of a photo's mosaic: measured 41.5 dB (dcraw_emu's own 8-bit output: 41.7).
        #expect(Self.psnr(developed, source) > 40, "\(Self.psnr(developed, source)) dB")
        // The camera's make and model reach the EXIF of outputs.
        let exif = try #require(try ImageFile.metadata(at: Self.fixture("rggb.dng")).exif)
        #expect(String(decoding: exif, as: UTF8.self).contains("Synthetic RGGB"))
    }

    /// Lumen's development is LibRaw's: dcraw_emu with the same settings (camera white
    /// balance, sRGB primaries and curve, 16 bits, no auto-brightening, as stored) gives
    /// the same 16-bit samples, at full and half size.
    @Test(arguments: [("rggb.dng", false), ("rggb.dng", true), ("warm.dng", false)])
    func agreesWithDcrawEmu(_ name: String, _ half: Bool) throws {
        let directory = Paths.temporaryDirectory()
        let copy = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.fixture(name), to: copy)
        guard let status = try FormatTests.tool("dcraw_emu", ["-w", "-o", "1", "-g", "2.4", "12.92", "-6", "-T", "-W", "-t", "0"]
                                                + (half ? ["-h"] : []) + [copy.path]) else { return }
        #expect(status == 0)
        let theirs = try ImageFile.decode(at: URL(fileURLWithPath: copy.path + ".tiff"))
        let ours = try ImageFile.decode(at: Self.fixture(name), reduction: half ? 2 : 1)
        #expect(ours.width == theirs.width && ours.height == theirs.height && ours.depth == 16 && theirs.depth == 16)
        var worst = 0
        for row in 0..<ours.height { for x in 0..<ours.width { for c in 0..<3 {
            worst = max(worst, abs(ours.sample(x: x, row: row, channel: c) - theirs.sample(x: x, row: row, channel: c)))
        } } }
        #expect(worst == 0, "\(name)\(half ? " half" : ""): \(worst)")
    }

    @Test func orientationComesFromTheCameraAndIsApplied() throws {
        let header = try ImageFile.header(at: Self.fixture("rotated.dng"))
        #expect(header.orientation == 6 && header.orientedSize == (96, 128))
        let upright = try Self.develop("rotated.dng"), stored = try Self.develop("rggb.dng")
        #expect(upright.width == 96 && upright.height == 128)
        // Orientation 6: the stored picture turned a quarter clockwise.
        var worst: Float = 0
        for row in 0..<128 { for x in 0..<96 {
            let d = upright.pixel(x: x, row: row) - stored.pixel(x: row, row: 95 - x)
            worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
        } }
        #expect(worst == 0)
    }

    @Test func whiteBalanceAndExposure() throws {
        let source = Self.means(try render8(try Image(contentsOf: Self.fixture("source.png"))))
        // Shot under warm light, balanced as shot: the picture comes back.
        let warm = try Self.develop("warm.dng")
        #expect(Self.psnr(warm, try render8(try Image(contentsOf: Self.fixture("source.png")))) > 38)
        // The camera's daylight balance leaves the warm cast: blue falls.
        let daylight = Self.means(try Self.develop("warm.dng", RAWDevelopment(whiteBalance: .daylight)))
        #expect(daylight.z < source.z * 0.8, "\(daylight) vs \(source)")
        // 6504 K is D65, the camera's daylight: as shot for the neutral file.
        let d65 = Self.means(try Self.develop("rggb.dng", RAWDevelopment(whiteBalance: .temperature(kelvin: 6504, tint: 0))))
        #expect(Self.apart(d65, source) < 1.5, "\(d65) vs \(source)")
        // Tungsten as neutral: the picture is cooled (blue up against red).
        let tungsten = Self.means(try Self.develop("rggb.dng", RAWDevelopment(whiteBalance: .temperature(kelvin: 3000, tint: 0))))
        #expect(tungsten.z / tungsten.x > 1.5 * source.z / source.x, "\(tungsten)")
        // A positive tint turns the picture magenta: green falls against red and blue.
        let tinted = Self.means(try Self.develop("rggb.dng", RAWDevelopment(whiteBalance: .temperature(kelvin: 6504, tint: 60))))
        #expect(tinted.y / (tinted.x + tinted.z) < d65.y / (d65.x + d65.z), "\(tinted)")
        // One stop more: brighter, and the same without it.
        let brighter = Self.means(try Self.develop("rggb.dng", RAWDevelopment(exposure: 1)))
        #expect(brighter.y > source.y * 1.25, "\(brighter)")
        #expect(throws: LumenError.self) { try Self.develop("rggb.dng", RAWDevelopment(exposure: .nan)) }
        #expect(throws: LumenError.self) { try Self.develop("rggb.dng", RAWDevelopment(whiteBalance: .temperature(kelvin: 100, tint: 0))) }
    }

    @Test func tiffsStayTIFFsAndDamagedRAWFilesFailByName() throws {
        for name in ["rgb-none.tif", "rgb-tiled.tif", "gray16.tif", "rgb-jpeg.tif"] {
            #expect(try ImageFile.header(at: Paths.codec(name)).format == .tiff, "\(name)")
        }
        let data = try Data(contentsOf: Self.fixture("rggb.dng"))
        let directory = Paths.temporaryDirectory()
        for fraction in [0.3, 0.6, 0.95] {
            let cut = directory.appendingPathComponent("cut-\(Int(fraction * 100)).dng")
            try data.prefix(Int(Double(data.count) * fraction)).write(to: cut)
            #expect {
                _ = try RenderContext().render(try Image(contentsOf: cut))
            } throws: { error in
                (error as? LumenError)?.description.contains(cut.path) == true
            }
        }
        // The synthetic DNG has no preview: asking for one says so.
        #expect(throws: LumenError.self) { try Image(contentsOf: Self.fixture("rggb.dng"), options: .init(embeddedThumbnail: true)) }
    }

    @Test func theCommandLineDevelopsWithTheRawOptions() throws {
        let directory = Paths.temporaryDirectory()
        let output = directory.appendingPathComponent("cool.png")
        let made = try CommandLineTests.lumen(["convert", "testdata/raw/rggb.dng", "-o", output.path, "--raw-white-balance", "3000", "--raw-exposure", "0.5"])
        #expect(made.status == 0, "\(made.stderr)")
        let cool = Self.means(try render8(try Image(contentsOf: output)))
        let expected = Self.means(try Self.develop("rggb.dng", RAWDevelopment(whiteBalance: .temperature(kelvin: 3000, tint: 0), exposure: 0.5)))
        #expect(Self.apart(cool, expected) < 0.01)
        for (option, value) in [("--raw-white-balance", "warmish"), ("--raw-exposure", "9"), ("--raw-highlights", "glow"), ("--raw-demosaic", "magic")] {
            let refused = try CommandLineTests.lumen(["convert", "testdata/raw/rggb.dng", "-o", output.path, option, value])
            #expect(refused.status == 2 && refused.stderr.contains("--raw-"), "\(option) \(value): \(refused.stderr)")
        }
    }
}
