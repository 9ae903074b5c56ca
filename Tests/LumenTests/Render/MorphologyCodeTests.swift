import Foundation
import Testing
@testable import Lumen

/// Dilation and erosion on an 8-bit file's codes (`MorphologyCodeRows`): rows against a
/// brute-force extremum over the element, and files against the tile path's bytes.
@Suite struct MorphologyCodeTests {
    /// Each output pixel's channel: the extremum over the element's offsets of the input's
    /// codes, 0 outside the picture, then mapped through `codes` (red's 256, green's, blue's).
    static func reference(_ input: [UInt8], width: Int, height: Int, runs: [Int], dilate: Bool, codes: [UInt8]?) -> [UInt8] {
        let ry = runs.count / 2
        var out = [UInt8](repeating: 0, count: input.count)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var v: UInt8 = dilate ? 0 : 255
                    for (j, w) in runs.enumerated() {
                        for i in -w...w {
                            let (sx, sy) = (x + i, y + j - ry)
                            let code = sx >= 0 && sx < width && sy >= 0 && sy < height ? input[3 * (sy * width + sx) + c] : 0
                            v = dilate ? max(v, code) : min(v, code)
                        }
                    }
                    out[3 * (y * width + x) + c] = codes.map { $0[256 * c + Int(v)] } ?? v
                }
            }
        }
        return out
    }

    /// Feeds rows as the direct copy's stage does: output row r in the slot of input row
    /// r + lag, the last `lag` after the picture.
    static func stream(_ stream: any CodeRowStream, _ input: [UInt8], width: Int, height: Int) -> [UInt8] {
        let lag = stream.lag
        var slots = input + [UInt8](repeating: 0, count: 3 * width * lag)
        slots.withUnsafeMutableBufferPointer { slots in
            for slot in 0..<(height + lag) {
                let line = slots.baseAddress! + 3 * width * slot
                stream.feed(slot < height ? UnsafePointer(line) : nil, writing: slot >= lag ? line : nil)
            }
        }
        return Array(slots[(3 * width * lag)...])
    }

    static let shapes: [(String, Lumen.Morphology.Shape)] = [
        ("disc 1", .disc(radius: 1)), ("disc 2", .disc(radius: 2)), ("disc 5", .disc(radius: 5)),
        ("rectangle 7×3", .rectangle(width: 7, height: 3)), ("rectangle 3×9", .rectangle(width: 3, height: 9)),
        ("rectangle 1×5", .rectangle(width: 1, height: 5)),
    ]

    /// Widths below, at and past the 32-byte vectors; heights below the element's reach too.
    @Test(arguments: [(1, 1), (3, 2), (11, 7), (37, 13), (70, 4)])
    func rowsAreTheElementsExtremum(_ width: Int, _ height: Int) throws {
        var generator = SystemRandomNumberGenerator()
        // Clustered codes, so maxima and minima are not all 255 and 0.
        let input = (0..<(3 * width * height)).map { _ in UInt8.random(in: 60...190, using: &generator) }
        let curve = TransferFunction.linearFrom8
        let gamma = ChannelTables(red: curve.map { pow($0, 1.4) }, green: curve, blue: curve.map { $0 * 0.5 })
        for (name, shape) in Self.shapes {
            for dilate in [true, false] {
                for tables in [ChannelTables.srgb, gamma] {
                    let kernel = Lumen.Morphology(operation: dilate ? .dilate : .erode, shape: shape)
                    let stream = try #require(kernel.codeRowStream(tables: tables, width: width, height: height, level: .current))
                    let codes = tables == .srgb ? nil : tables.codes
                    #expect(Self.stream(stream, input, width: width, height: height)
                            == Self.reference(input, width: width, height: height, runs: shape.runs, dilate: dilate, codes: codes),
                            "\(name) \(dilate ? "dilate" : "erode") \(width)×\(height)")
                }
            }
        }
    }

    /// Tables the code path must refuse: one that decreases (colorInvert folded), one with
    /// a value below 0, and for erosion one that decodes code 0 above 0.
    @Test func tablesWithoutACodeFormGoThroughTheTiles() {
        let curve = TransferFunction.linearFrom8
        let inverted = ChannelTables(red: curve.reversed(), green: curve, blue: curve)
        let negative = ChannelTables(red: curve.map { $0 - 0.01 }, green: curve, blue: curve)
        let raised = ChannelTables(red: curve.map { $0 + 0.01 }, green: curve, blue: curve)
        let dilation = Lumen.Morphology(operation: .dilate, shape: .disc(radius: 3)), erosion = Lumen.Morphology(operation: .erode, shape: .disc(radius: 3))
        #expect(dilation.codeRowStream(tables: inverted, width: 8, height: 8, level: .current) == nil)
        #expect(dilation.codeRowStream(tables: negative, width: 8, height: 8, level: .current) == nil)
        #expect(dilation.codeRowStream(tables: raised, width: 8, height: 8, level: .current) != nil)
        #expect(erosion.codeRowStream(tables: raised, width: 8, height: 8, level: .current) == nil)
        #expect(Lumen.Morphology(operation: .dilate, shape: .disc(radius: 20)).codeRowStream(tables: .srgb, width: 8, height: 8, level: .current) == nil)
    }

    /// Under a memory limit that holds the direct path's 64 rows but not a dilation's ring
    /// of row extrema, the dilation is not written through the direct path.
    @Test func theRingCountsAgainstTheMemoryLimit() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))  // 640 × 400: 1,920 bytes a row
        let image = try photo.applyingFilter("morphologyMaximum", parameters: ["radius": 5.0])
        for (rows, direct) in [(90, false), (200, true)] {
            var options = RenderContext.Options()
            options.memoryLimit = 1920 * rows
            let context = RenderContext(options)
            let written = try? context.encode(image, format: .jpeg, in: photo.extent)
            let ranDirect = written != nil && context.lastReport.map { $0.optimized.map(\.tiles).reduce(0, +) == 0 } == true
            #expect(ranDirect == direct, "a limit of \(rows) rows")
        }
    }

    /// Files written through morphology at their own extent, with and without colour folded
    /// under it, as JPEG and PNG: the bytes are the tile path's, and the direct path ran (no
    /// tiles) for 8-bit RGB and gray files. A wide-gamut file, a 16-bit one, an inverted one,
    /// and an erosion as PNG went through the tiles: erosion's edges are transparent, so
    /// its PNG keeps alpha (IHDR colour type 6), while a dilation's is opaque over the
    /// input's extent (colour type 2).
    @Test(arguments: [("photo.jpg", true), ("codecs/photo-crop.png", true), ("codecs/progressive.jpg", true), ("codecs/gray.jpg", true),
                      ("codecs/gray8.png", true), ("codecs/icc-adobergb.tif", false), ("codecs/gray16.png", false)])
    func morphologyFilesAreTheTilePathsBytes(_ file: String, direct expected: Bool) throws {
        let photo = try Image(contentsOf: Paths.testdata(file))
        var tiles = RenderContext.Options()
        tiles.optimizes = false
        let filters: [(String, [String: Any], dilates: Bool)] = [
            ("morphologyMaximum", ["radius": 5.0], true), ("morphologyMinimum", ["radius": 3.0], false),
            ("morphologyRectangleMaximum", ["width": 9.0, "height": 3.0], true),
            ("morphologyRectangleMinimum", ["width": 4.0, "height": 6.0], false),
        ]
        for (under, direct) in [(photo, true), (try photo.applyingFilter("gammaAdjust", parameters: ["power": 1.4]), true),
                                (try photo.applyingFilter("colorInvert"), false)] {
            for (name, parameters, dilates) in filters {
                let image = try under.applyingFilter(name, parameters: parameters)
                for format in [OutputFormat.png, .jpeg] {
                    let context = RenderContext(), tiled = RenderContext(tiles)
                    let bytes = try context.encode(image, format: format, in: photo.extent)
                    #expect(context.lastReport.map { $0.optimized.map(\.tiles).reduce(0, +) == 0 } == (expected && direct && (dilates || format == .jpeg)),
                            "\(file) \(name): the direct path ran")
                    if format == .png { #expect(bytes[25] == (dilates ? 2 : 6), "\(file) \(name): PNG colour type") }
                    #expect(bytes == (try tiled.encode(image, format: format, in: photo.extent)), "\(file) \(name) \(format.fileFormat)")
                    #expect((tiled.lastReport.map { $0.optimized.map(\.tiles).reduce(0, +) } ?? 0) > 0)
                }
                // Cropped to the input's extent, as the command line does: the same bytes.
                let cropped = RenderContext()
                #expect(try cropped.encode(image.cropped(to: photo.extent), format: .jpeg)
                        == (try RenderContext(tiles).encode(image, format: .jpeg, in: photo.extent)), "\(file) \(name) cropped")
                #expect(cropped.lastReport.map { $0.optimized.map(\.tiles).reduce(0, +) == 0 } == (expected && direct))
            }
        }
    }
}
