import Foundation
import Testing
@testable import Lumen

/// A `CodeRowKernel` writes 8-bit codes straight from 8-bit codes. Its codes must be the
/// working-space path's exactly: the same file written through the tiles (rewrites off)
/// gives the same bytes, and a row from the fused C loop equals the three Swift steps.
@Suite struct CodeRowTests {
    static let levels = [InstructionSet.baseline, .avx2, .avx512].filter { $0 <= .machine }

    /// The working-space path for one row, step by step on the baseline: the source's
    /// expansion, the kernel's row, the encoder.
    static func reference(_ kernel: VignetteKernel, codes: [UInt8], tables: ChannelTables, x: Int, y: Int) -> [UInt8] {
        let count = codes.count / 3
        var input = codes, pixels = [SIMD4<Float>](repeating: .zero, count: count), out = [UInt8](repeating: 0, count: 3 * count)
        let dy = Float(Double(y) + 0.5 - kernel.center.y)
        input.withUnsafeMutableBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { pixels in
                tables.expand(input.baseAddress!, channels: 3, count: count, into: pixels.baseAddress!, level: .baseline)
                VignetteKernel.row(pixels.baseAddress!, into: pixels.baseAddress!, count: count, x: x, centerX: kernel.center.x,
                                   dy2: dy * dy, radius: Float(kernel.radius), band: Float(max(1, 2 * kernel.falloff * kernel.radius)),
                                   intensity: kernel.intensity, level: .baseline)
                PixelConversion.encode8(pixels.baseAddress!, count: count, channels: 3, into: &out, level: .baseline)
            }
        }
        return out
    }

    /// Tables other than the sRGB curve: colour folded in, values below 0 and above 1, and
    /// one set with an infinity, whose pixels inside the radius must still be computed.
    static let tableSets: [(String, ChannelTables)] = {
        let curve = TransferFunction.linearFrom8
        let folded = ChannelTables(red: curve.reversed(), green: curve.map { $0 * 1.7 - 0.2 }, blue: curve.map { $0 * $0 })
        var infinite = curve
        infinite[200] = .infinity
        infinite[10] = -.infinity
        return [("sRGB", .srgb), ("folded", folded), ("infinite", ChannelTables(red: infinite, green: curve, blue: infinite))]
    }()

    @Test(arguments: levels)
    func vignetteRowsAreTheWorkingSpacePathsCodes(level: InstructionSet) throws {
        var generator = SystemRandomNumberGenerator()
        // Centre in and beyond the row, radii from 0 to past the row (every pixel inside),
        // darkening and lightening, a NaN-free band of 1 (falloff 0), widths with tails.
        let kernels = [
            VignetteKernel(center: Point(x: 40.3, y: 12), radius: 25, intensity: 1, falloff: 0.5),
            VignetteKernel(center: Point(x: 40.3, y: 12), radius: 25, intensity: 0.35, falloff: 0.2),
            VignetteKernel(center: Point(x: 60, y: -30), radius: 40, intensity: -0.7, falloff: 0.5),
            VignetteKernel(center: Point(x: 10, y: 5), radius: 0, intensity: -1, falloff: 1),
            VignetteKernel(center: Point(x: 50, y: 20), radius: 10, intensity: 0.8, falloff: 0),
            VignetteKernel(center: Point(x: 50, y: 20), radius: 1e6, intensity: 1, falloff: 0.5),
            VignetteKernel(center: Point(x: 50, y: 20), radius: 30, intensity: .infinity, falloff: 0.5),
            // Long rows with pixels inside the radius and past the band, whose factors the C
            // loop takes without arithmetic: a centre between pixels, and one 10⁷ pixels away,
            // where a float distance is a pixel off.
            VignetteKernel(center: Point(x: 300.7, y: 3.2), radius: 120, intensity: 1, falloff: 0.3),
            VignetteKernel(center: Point(x: 300.7, y: 3.2), radius: 120, intensity: -0.5, falloff: 0.3),
            VignetteKernel(center: Point(x: 1e7, y: 9), radius: 1e7 - 150, intensity: 0.9, falloff: 1e-6),
            // Past the spans' range (2⁴⁰): every factor computed.
            VignetteKernel(center: Point(x: 1e12, y: 9), radius: 1e12 - 300, intensity: 1, falloff: 1e-9),
            VignetteKernel(center: Point(x: 300, y: 9), radius: 1e30, intensity: 1, falloff: 0.5),
        ]
        for (name, tables) in Self.tableSets {
            for kernel in kernels {
                let writer = try #require(kernel.codeRows(tables: tables, level: level))
                for (count, x, y) in [(97, 0, 12), (8, 33, 0), (5, 41, 20), (64, -7, 40), (1, 40, 12), (700, -150, 3), (1203, -400, 90)] {
                    let codes = (0..<(3 * count)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    let expected = Self.reference(kernel, codes: codes, tables: tables, x: x, y: y)
                    var out = [UInt8](repeating: 0, count: 3 * count), inPlace = codes
                    codes.withUnsafeBufferPointer { writer($0.baseAddress!, &out, count, x, y) }
                    inPlace.withUnsafeMutableBufferPointer { writer($0.baseAddress!, $0.baseAddress!, count, x, y) }
                    #expect(out == expected, "\(name) tables, \(kernel), \(count) pixels from x = \(x), y = \(y)")
                    #expect(inPlace == expected, "in place: \(name) tables, \(kernel)")
                }
            }
        }
    }

    /// Darkening a file in sRGB computes most codes from the codes themselves (the curve's
    /// power law), the rest through the float path. Every code against factors sweeping 0…1
    /// along rows (8,192 factors a row, 48 rows): the same codes as the working-space path.
    @Test(arguments: levels)
    func darkeningSRGBCodesMatchesTheFloatPathForEveryCode(level: InstructionSet) throws {
        var generator = SystemRandomNumberGenerator()
        let count = 8192
        for kernel in [VignetteKernel(center: Point(x: -20, y: 0), radius: 20, intensity: 1, falloff: 200),
                       VignetteKernel(center: Point(x: -20, y: 0), radius: 20, intensity: 0.999, falloff: 300),
                       VignetteKernel(center: Point(x: 4000, y: 9), radius: 100, intensity: 0.3, falloff: 20)] {
            let writer = try #require(kernel.codeRows(tables: .srgb, level: level))
            for y in 0..<48 {
                let codes = (0..<(3 * count)).map { UInt8(truncatingIfNeeded: $0 &+ y) }.shuffled(using: &generator)
                var out = [UInt8](repeating: 0, count: 3 * count)
                codes.withUnsafeBufferPointer { writer($0.baseAddress!, &out, count, 0, y) }
                let expected = Self.reference(kernel, codes: codes, tables: .srgb, x: 0, y: y)
                let wrong = zip(out, expected).filter { $0 != $1 }.count
                #expect(wrong == 0, "\(wrong) codes differ in row \(y), \(kernel)")
            }
        }
    }

    /// A file written through vignetteEffect, with and without colour folded under it, as
    /// JPEG and PNG: the direct path's bytes are the tile path's, and the direct path ran
    /// (no tiles) for 8-bit RGB and gray files (gray codes made RGB first); a wide-gamut
    /// one and a 16-bit one go through the tiles. A centre off the picture and a radius
    /// inside it put every kind of pixel in.
    @Test(arguments: [("photo.jpg", true), ("codecs/photo-crop.png", true), ("codecs/progressive.jpg", true), ("codecs/gray.jpg", true),
                      ("codecs/gray8.png", true), ("codecs/icc-adobergb.tif", false), ("codecs/gray16.png", false)])
    func vignetteFilesAreTheTilePathsBytes(_ file: String, direct expected: Bool) throws {
        let photo = try Image(contentsOf: Paths.testdata(file))
        let adjusted = try photo.applyingFilter("gammaAdjust", parameters: ["power": 1.4])
        var tiles = RenderContext.Options()
        tiles.optimizes = false
        for (source, parameters) in [(photo, ["center": [320.0, 200.0], "radius": 150.0] as [String: Any]),
                                     (adjusted, ["center": [500.0, -40.0], "radius": 90.0, "intensity": -0.6, "falloff": 0.9])] {
            let image = try source.applyingFilter("vignetteEffect", parameters: parameters)
            for format in [OutputFormat.png, .jpeg] {
                let direct = RenderContext(), tiled = RenderContext(tiles)
                let bytes = try direct.encode(image, format: format)
                #expect(direct.lastReport.map { $0.optimized.map(\.tiles).reduce(0, +) == 0 } == expected, "the direct path ran: \(expected)")
                #expect(bytes == (try tiled.encode(image, format: format)), "\(file) \(format.fileFormat)")
                #expect((tiled.lastReport.map { $0.optimized.map(\.tiles).reduce(0, +) } ?? 0) > 0)
            }
        }
    }
}
