import Foundation
import Testing
@testable import Lumen

@Suite struct RoundTripTests {
    /// Every 8-bit code survives sRGB → linear → sRGB exactly.
    @Test func everyEightBitValueSurvivesTheWorkingSpace() {
        for code in 0..<256 {
            #expect(TransferFunction.encode8(TransferFunction.linearFrom8[code]) == UInt8(code))
        }
    }

    @Test func everySixteenBitValueSurvivesTheWorkingSpace() {
        for code in 0..<65536 {
            #expect(TransferFunction.encode16(TransferFunction.linearFrom16[code]) == UInt16(code))
        }
    }

    /// Writes a file from a raster-backed image and reads it back: format × depth × alpha.
    @Test(arguments: [("png", 8, false), ("png", 8, true), ("png", 16, false), ("png", 16, true),
                      ("tif", 8, false), ("tif", 8, true), ("tif", 16, false), ("tif", 16, true)])
    func losslessFormatsRoundTrip(_ ext: String, _ depth: Int, _ alpha: Bool) throws {
        let source = Paths.codec(depth == 16 ? (alpha ? "rgba16.png" : "rgb16.png") : (alpha ? "rgba8.png" : "rgb8.png"))
        let directory = Paths.temporaryDirectory()
        let output = directory.appendingPathComponent("out.\(ext)")
        let format = ext == "png" ? OutputFormat.png(depth: depth) : OutputFormat.tiff(depth: depth)
        try RenderContext().write(try Image(contentsOf: source), to: output, format: format)
        let original = try ImageFile.decode(at: source)
        let copy = try ImageFile.decode(at: output)
        #expect(copy.depth == depth && copy.channels == (alpha ? 4 : 3))
        var worst = 0
        for row in 0..<original.height {
            for x in 0..<original.width where !alpha || original.sample(x: x, row: row, channel: 3) > 0 {
                for c in 0..<original.channels {
                    worst = max(worst, abs(original.sample(x: x, row: row, channel: c) - copy.sample(x: x, row: row, channel: c)))
                }
            }
        }
        // 8-bit is exact; 16-bit premultiplied float loses at most a code at low alpha.
        #expect(worst <= (depth == 16 && alpha ? 2 : 0), "max difference \(worst)")
    }

    @Test(arguments: [(0.9, false, false), (0.75, true, false), (0.85, false, true)])
    func jpegRoundTripIsClose(_ quality: Double, _ chroma444: Bool, _ progressive: Bool) throws {
        let output = Paths.temporaryDirectory().appendingPathComponent("out.jpg")
        try RenderContext().write(try Image(contentsOf: Paths.codec("rgb8.png")), to: output,
                                  format: .jpeg(quality: quality, chroma444: chroma444, progressive: progressive))
        let header = try ImageFile.header(at: output)
        #expect(header.details.contains(progressive ? "progressive" : "baseline"))
        let bitmap = try render8(try Image(contentsOf: output))
        let reference = try PAM(contentsOf: Paths.codec("rgb8.png.pam"))
        var sum = 0.0
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                for c in 0..<3 { sum += abs(Double(bitmap.pixel(x: x, row: row)[c]) - Double(reference.sample(x: x, row: row, channel: c))) }
            }
        }
        #expect(sum / Double(bitmap.width * bitmap.height * 3) < 12)
    }

    @Test func grayJpegSourceWritesPlausibly() throws {
        let output = Paths.temporaryDirectory().appendingPathComponent("gray.png")
        try RenderContext().write(try Image(contentsOf: Paths.codec("gray8.png")), to: output)
        let bitmap = try render8(try Image(contentsOf: output))
        #expect(maxDifference(bitmap, try PAM(contentsOf: Paths.codec("gray8.png.pam")), channels: 3) == 0)
    }
}
