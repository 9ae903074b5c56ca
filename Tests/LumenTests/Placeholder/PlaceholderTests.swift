import Foundation
import Testing
@testable import Lumen

/// BlurHash and ThumbHash against the PyPI reference implementations on the same pixels
/// (scripts/placeholder-reference.py: blurhash-python wraps Wolt's C code, thumbhash is a
/// port of Evan Wallace's encoder).
@Suite struct PlaceholderTests {
    /// Pixel sets: the bundled photo fitted in 100×100 (the pixels `Image.blurHash` hashes),
    /// a photo crop at odd sizes, a flat colour, one pixel, and a gradient with transparency.
    static func inputs() throws -> [(name: String, width: Int, height: Int, rgba: [UInt8])] {
        let context = RenderContext()
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        var sets: [(String, Int, Int, [UInt8])] = []
        let fitted = try photo.placeholderPixels(context: context)
        sets.append(("photo fitted", fitted.width, fitted.height, fitted.rgba))
        for (w, h) in [(37, 23), (23, 61), (1, 1)] {
            let crop = try photo.cropped(to: Rect(x: 200, y: 150, width: Double(w), height: Double(h))).placeholderPixels(context: context)
            sets.append(("crop \(w)×\(h)", crop.width, crop.height, crop.rgba))
        }
        sets.append(("flat", 20, 10, [UInt8]((0..<200).flatMap { _ in [200, 120, 40, 255] as [UInt8] })))
        let gradient = (0..<(30 * 20)).flatMap { i -> [UInt8] in
            let x = i % 30, y = i / 30
            return [UInt8(x * 8), UInt8(y * 12), 90, UInt8(255 - x * 8)]
        }
        sets.append(("alpha gradient", 30, 20, gradient))
        return sets
    }

    static func reference(_ rgba: [UInt8], _ width: Int, _ height: Int, components: (Int, Int)) throws -> (blurHash: String, thumbHash: [UInt8]?) {
        let file = Paths.temporaryDirectory().appendingPathComponent("pixels.rgba")
        try Data(rgba).write(to: file)
        let output = try runScript("placeholder-reference.py", ["encode", file.path, "\(width)", "\(height)", "\(components.0)", "\(components.1)"],
                                   hint: "pip install blurhash-python thumbhash (scripts/setup)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return (try #require(json["blurhash"] as? String), (json["thumbhash"] as? [Int])?.map(UInt8.init))
    }

    @Test func blurHashesAreTheReferenceEncodersStrings() throws {
        for input in try Self.inputs() {
            for components in [(4, 3), (1, 1), (9, 9), (3, 7)] {
                let ours = try input.rgba.withUnsafeBufferPointer {
                    try BlurHash.encode(pixels: $0, width: input.width, height: input.height, channels: 4,
                                        xComponents: components.0, yComponents: components.1)
                }
                let theirs = try Self.reference(input.rgba, input.width, input.height, components: components).blurHash
                #expect(ours == theirs, "\(input.name) \(components): \(ours) vs \(theirs)")
                #expect(ours.count == 4 + 2 * components.0 * components.1)
            }
        }
    }

    @Test func thumbHashesAreTheReferenceEncodersBytes() throws {
        var compared = 0
        for input in try Self.inputs() {
            let ours = try ThumbHash.encode(rgba: input.rgba, width: input.width, height: input.height)
            guard let theirs = try Self.reference(input.rgba, input.width, input.height, components: (4, 3)).thumbHash else {
                // The port cannot encode transparency: check ours by what it decodes to.
                #expect(input.name == "alpha gradient")
                let decoded = try ThumbHash.decode(ours)
                let alphas = stride(from: 3, to: decoded.rgba.count, by: 4).map { Double(decoded.rgba[$0]) }
                let left = alphas.enumerated().filter { $0.offset % decoded.width < decoded.width / 4 }.map(\.element)
                let right = alphas.enumerated().filter { $0.offset % decoded.width >= decoded.width * 3 / 4 }.map(\.element)
                // The gradient's alpha runs from 255 on the left to 23 on the right.
                #expect(left.reduce(0, +) / Double(left.count) > 190 && right.reduce(0, +) / Double(right.count) < 90, "\(left.count) \(right.count)")
                #expect(ours[2] & 0x80 != 0, "the alpha flag")
                continue
            }
            #expect(ours == theirs, "\(input.name): \(ours) vs \(theirs)")
            compared += 1
        }
        #expect(compared == 5)
    }

    /// Decoding gives the C decoder's pixels, and the average colour survives a round trip.
    @Test func blurHashDecodesToTheReferencePixels() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        for hash in ["LEHV6nWB2yk8pyo0adR*.7kCMdnj", try photo.blurHash(), try photo.blurHash(xComponents: 9, yComponents: 2)] {
            for (w, h) in [(32, 32), (40, 25)] {
                let ours = try BlurHash.decode(hash, width: w, height: h)
                let file = Paths.temporaryDirectory().appendingPathComponent("decoded.rgb")
                _ = try runScript("placeholder-reference.py", ["decode", hash, "\(w)", "\(h)", file.path], hint: "pip install blurhash-python")
                #expect(ours == [UInt8](try Data(contentsOf: file)), "\(hash) at \(w)×\(h)")
            }
        }
    }

    @Test func thumbHashRoundTripsKeepTheAverageAndTheShape() throws {
        let (w, h, rgba) = try Image(contentsOf: Paths.testdata("photo.jpg")).placeholderPixels(context: RenderContext())
        let decoded = try ThumbHash.decode(try ThumbHash.encode(rgba: rgba, width: w, height: h))
        // 100×62 in, 32×20 out (7 by 4 components: the aspect ratio, approximately).
        #expect(decoded.width == 32 && abs(Double(decoded.height) - 32 * Double(h) / Double(w)) <= 2.5, "\(decoded.width)×\(decoded.height)")
        for c in 0..<3 {
            let mean = stride(from: c, to: rgba.count, by: 4).map { Double(rgba[$0]) }.reduce(0, +) / Double(w * h)
            let placeholder = stride(from: c, to: decoded.rgba.count, by: 4).map { Double(decoded.rgba[$0]) }.reduce(0, +) / Double(decoded.width * decoded.height)
            #expect(abs(mean - placeholder) < 6, "channel \(c): \(mean) vs \(placeholder)")
        }
    }

    @Test func badArgumentsAreRefusedByName() throws {
        let pixels = [UInt8](repeating: 128, count: 4 * 4 * 4)
        #expect(throws: LumenError.self) { try pixels.withUnsafeBufferPointer { try BlurHash.encode(pixels: $0, width: 4, height: 4, channels: 4, xComponents: 0) } }
        #expect(throws: LumenError.self) { try pixels.withUnsafeBufferPointer { try BlurHash.encode(pixels: $0, width: 5, height: 4, channels: 4) } }
        #expect(throws: LumenError.self) { try BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdn", width: 8, height: 8) }
        #expect(throws: LumenError.self) { try BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMd\u{e9}", width: 8, height: 8) }
        #expect(throws: LumenError.self) { try BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 1_000_000, height: 8) }
        #expect(throws: LumenError.self) { try BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 8, height: 8, punch: .nan) }
        #expect(throws: LumenError.self) { try ThumbHash.encode(rgba: [UInt8](repeating: 0, count: 101 * 4), width: 101, height: 1) }
        #expect(throws: LumenError.self) { try ThumbHash.decode([1, 2, 3]) }
        #expect(throws: LumenError.self) { try ThumbHash.decode([0, 0, 0, 0, 0]) }
        #expect(throws: LumenError.self) { try Image(color: .red).blurHash() }
    }
}
