import Foundation
import Testing
import Lumen  // as a user's package imports it: public API only
import LumenCLI

/// A codec written outside the library joins with one line (`Codecs.register`) and is then
/// read and written everywhere Lumen reads and writes: `Image(data:)`, `Image(contentsOf:)`,
/// a chain's `load(…)`, `RenderContext.write`, and the command line run in process.
///
/// The toy format: "TOY1", width and height as little-endian UInt32, the channel count
/// (3 or 4) as one byte, then 8-bit rows top first, unpremultiplied sRGB.
@Suite(.serialized) struct CustomCodecTests {
    static let format = ImageFileFormat(rawValue: "toy")

    struct ToyCodec: ImageCodec {
        var format: ImageFileFormat { CustomCodecTests.format }
        var extensions: [String] { ["toy"] }
        var displayName: String { "Toy" }
        var capabilities: CodecCapabilities { CodecCapabilities(depths: [8], alpha: true, metadata: []) }

        func recognizes(_ prefix: Data) -> Bool { prefix.starts(with: Array("TOY1".utf8)) }

        func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder { try ToyDecoder(data: data, name: name) }

        func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
            ToyEncoder(sink: sink, layout: layout)
        }
    }

    struct ToyDecoder: ImageDecoder {
        let header: ImageHeader
        let pixels: Data
        var iccProfile: Data? { nil }
        var metadata: ImageMetadata { ImageMetadata() }

        init(data: Data, name: String) throws {
            let bytes = [UInt8](data)
            func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
            guard bytes.count >= 13 else { throw CocoaError(.fileReadCorruptFile) }
            let (width, height, channels) = (word(4), word(8), Int(bytes[12]))
            guard [3, 4].contains(channels), bytes.count == 13 + width * height * channels else { throw CocoaError(.fileReadCorruptFile) }
            header = ImageHeader(format: CustomCodecTests.format, width: width, height: height, channels: channels, bitDepth: 8,
                                 hasAlpha: channels == 4, details: ["toy"])
            pixels = data.subdata(in: 13..<data.count)
        }

        func layout(reduction: Int) -> DecodedLayout {
            DecodedLayout(width: header.width, height: header.height, channels: header.channels, depth: 8)
        }

        func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
            try pixels.withUnsafeBytes { raw in
                try body(RowBand(firstRow: 0, rowCount: header.height, bytesPerRow: header.width * header.channels, base: raw.baseAddress!))
            }
        }
    }

    final class ToyEncoder: ImageEncoder {
        let sink: EncodeSink
        let layout: EncodeLayout
        var rows: [Int: Data] = [:]

        init(sink: EncodeSink, layout: EncodeLayout) {
            self.sink = sink
            self.layout = layout
        }

        func write(_ band: RowBand) throws {
            for r in 0..<band.rowCount {
                rows[band.firstRow + r] = Data(bytes: band.base + r * band.bytesPerRow, count: layout.bytesPerRow)
            }
        }

        func finish() throws -> Data? {
            var file = Data("TOY1".utf8)
            for value in [layout.width, layout.height] { file += withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
            file.append(UInt8(layout.channels))
            for row in 0..<layout.height { file += rows[row] ?? Data(count: layout.bytesPerRow) }
            return try sink.write(file)
        }
    }

    /// A 6×4 RGB toy file: red rises left to right, green top to bottom.
    static let bytes: Data = {
        var file = Data("TOY1".utf8) + Data([6, 0, 0, 0, 4, 0, 0, 0, 3])
        for y in 0..<4 { for x in 0..<6 { file += Data([UInt8(x * 50), UInt8(y * 80), 200]) } }
        return file
    }()

    static func pixel(_ image: Image, _ x: Int, _ y: Int) throws -> [Int] {
        let bitmap = try RenderContext().render(image, format: .rgba8)
        let p = bitmap.pixel(x: x, row: y)
        return [Int(p.x), Int(p.y), Int(p.z)]
    }

    init() { Codecs.register(ToyCodec()) }

    @Test func imagesDecodeThroughTheRegisteredCodec() throws {
        let image = try Image(data: Self.bytes)
        #expect(image.extent == Rect(x: 0, y: 0, width: 6, height: 4))
        #expect(try Self.pixel(image, 0, 0) == [0, 0, 200])
        #expect(try Self.pixel(image, 5, 3) == [250, 240, 200])
        #expect(Codecs.all.contains { $0.format == Self.format })
        #expect(ImageFileFormat(pathExtension: "toy") == Self.format && Self.format.isWritable)
    }

    @Test func chainsAndWritersUseIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-toy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.bytes.write(to: folder.appendingPathComponent("in.toy"))
        let chain = try FilterChain("picture = load(\"in.toy\")\ncolorInvert image=picture", directory: folder)
        let inverted = try chain.apply(to: nil, settings: [:])
        let out = folder.appendingPathComponent("out.toy")
        try RenderContext().write(inverted, to: out)
        let written = try Data(contentsOf: out)
        #expect(written.starts(with: Array("TOY1".utf8)) && written.count == Self.bytes.count)
        // The file holds what the chain rendered, and decodes back to it.
        let rendered = try RenderContext().render(inverted, format: .rgba8)
        for (x, y) in [(0, 0), (5, 3), (2, 1)] {
            let p = rendered.pixel(x: x, row: y)
            #expect(try Self.pixel(Image(contentsOf: out), x, y) == [Int(p.x), Int(p.y), Int(p.z)])
        }
        #expect(try Self.pixel(Image(contentsOf: out), 0, 0) != Self.pixel(Image(data: Self.bytes), 0, 0), "inverted")
    }

    @Test func theCommandLineReadsAndWritesIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-toy-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.toy"), png = folder.appendingPathComponent("out.png"), back = folder.appendingPathComponent("back.toy")
        try Self.bytes.write(to: input)
        try LumenCommand.run(["convert", input.path, "-o", png.path])
        try LumenCommand.run(["convert", png.path, "-o", back.path])
        #expect(try Self.pixel(Image(contentsOf: png), 5, 3) == [250, 240, 200])
        #expect(try Data(contentsOf: back).dropFirst(13) == Self.bytes.dropFirst(13), "the pixels come back as written")
        #expect(throws: (any Error).self) { try LumenCommand.run(["convert", input.path, "-o", png.path, "--lossless"]) }
    }
}
