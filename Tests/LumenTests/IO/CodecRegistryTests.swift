import Foundation
import Testing
@testable import Lumen

/// Formats are registered codecs: found by content, readable from memory, writable to
/// memory and to files through the same band pipeline.
@Suite struct CodecRegistryTests {
    static let samples = ["baseline.jpg", "rgba8.png", "rgb16.png", "gray.tif", "palette.tif"]

    @Test(arguments: samples)
    func imagesFromDataMatchImagesFromFiles(_ name: String) throws {
        let url = Paths.codec(name)
        let fromFile = try Image(contentsOf: url), fromData = try Image(data: Data(contentsOf: url))
        #expect(fromData.extent == fromFile.extent)
        let context = RenderContext()
        #expect(try context.render(fromData, format: .rgbaFloat) == context.render(fromFile, format: .rgbaFloat))
        // In-memory sources are identified by their bytes.
        #expect(fromData == (try Image(data: Data(contentsOf: url))))
        #expect(fromData != fromFile)
    }

    @Test(arguments: ImageFileFormat.writable)
    func encodingToMemoryEqualsWritingAFile(_ format: ImageFileFormat) throws {
        let image = try Image(contentsOf: Paths.testdata("photo.jpg")).cropped(to: Rect(x: 100, y: 100, width: 90, height: 70))
            .applyingGaussianBlur(sigma: 1).cropped(to: Rect(x: 100, y: 100, width: 90, height: 70))
        let context = RenderContext()
        let bytes = try context.encode(image, format: OutputFormat(fileFormat: format))
        let url = Paths.temporaryDirectory().appendingPathComponent("out.\(format.preferredExtension)")
        try context.write(image, to: url)
        #expect(bytes == (try Data(contentsOf: url)), "\(format): memory and file outputs differ")
        let back = try Image(data: bytes)
        #expect(back.fileHeader?.format == format && back.extent.width == 90 && back.extent.height == 70)
    }

    @Test func formatsAreFoundByContentNotName() throws {
        let directory = Paths.temporaryDirectory()
        let misnamed = directory.appendingPathComponent("actually-a-png.jpg")
        try FileManager.default.copyItem(at: Paths.codec("rgba8.png"), to: misnamed)
        #expect(try Image(contentsOf: misnamed).fileHeader?.format == .png)
        #expect(throws: LumenError.self) { _ = try Image(data: Data("not an image".utf8)) }
        #expect(throws: LumenError.self) { _ = try Image(data: Data()) }
    }

    @Test func formatsWorkWithoutParentheses() throws {
        let image = Image(color: .red).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        let context = RenderContext()
        for format in [OutputFormat.png, .jpeg, .tiff] {
            #expect(try Image(data: context.encode(image, format: format)).fileHeader?.format == format.fileFormat)
        }
        #expect(OutputFormat.png == .png(depth: 8) && OutputFormat.jpeg(quality: 0.5).quality == 0.5)
        #expect(ImageFileFormat(name: "tif") == .tiff && ImageFileFormat(name: "JPEG") == .jpeg && ImageFileFormat(name: "bmp") == nil)
    }

    @Test func truncatedDataFailsCleanly() throws {
        for name in Self.samples {
            let data = try Data(contentsOf: Paths.codec(name))
            guard let image = try? Image(data: data.prefix(data.count / 2)) else { continue }  // the header may be cut too
            #expect(throws: LumenError.self, "\(name) cut in half") { _ = try RenderContext().render(image) }
        }
    }
}
