import Foundation
import Testing
import Lumen
import LumenCoreImage

/// CIRAWFilter as Apple's documentation uses it ("Processing RAW images"), on the
/// synthetic DNGs of testdata/raw, against the same development through Lumen.
@Suite struct RAWFilterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func developsAsLumenDoesWithTheSameSettings() throws {
        let url = Self.root.appendingPathComponent("testdata/raw/rotated.dng")
        let filter = try #require(CIRAWFilter(imageURL: url))
        #expect(filter.nativeSize == CGSize(width: 128, height: 96) && filter.orientation == .right)
        filter.exposure = 0.5
        filter.neutralTemperature = 4500
        filter.neutralTint = 10
        filter.isDraftModeEnabled = true
        let output = try #require(filter.outputImage)
        // Half size, then turned upright by the camera's orientation.
        #expect(output.extent.size == CGSize(width: 48, height: 64))
        let context = CIContext()
        let jpeg = try #require(context.jpegRepresentation(of: output, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!, options: [:]))
        let development = RAWDevelopment(whiteBalance: .temperature(kelvin: 4500, tint: 10), exposure: 0.5)
        let lumen = try Image(contentsOf: url, options: .init(appliesOrientation: false, raw: development))
            .applyingLanczosScale(0.5).oriented(6)
        var format = OutputFormat.jpeg
        format.profile = .sRGB
        #expect(jpeg == (try RenderContext().encode(lumen, format: format)))
        // The file's own balance until a temperature or tint is set.
        let asShot = try #require(CIRAWFilter(imageURL: Self.root.appendingPathComponent("testdata/raw/warm.dng")))
        let balanced = try #require(asShot.outputImage)
        #expect(balanced.extent.size == CGSize(width: 128, height: 96))
        #expect(CIRAWFilter(imageURL: Self.root.appendingPathComponent("testdata/photo.jpg")) == nil)
        #expect(asShot.previewImage == nil)  // the synthetic DNG embeds no preview
    }
}

/// CIContext.openEXRRepresentation: an exposure of +2 stops over a photo goes past 1 and
/// stays there in the EXR (read back by Lumen's decoder, which OpenEXR's bindings check in EXRTests).
@Suite struct OpenEXRRepresentationTests {
    @Test func highlightsAboveOneSurvive() throws {
        let url = RAWFilterTests.root.appendingPathComponent("testdata/photo.jpg")
        let photo = try #require(CIImage(contentsOf: url))
        let brighter = photo.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 2.0])
        let exr = try CIContext().openEXRRepresentation(of: brighter)
        let header = try ImageFile.header(of: exr)
        #expect(header.format == .exr && header.width == 640 && header.height == 400 && header.bitDepth == 16)
        let bitmap = try RenderContext().render(try Image(data: exr), format: .rgbaFloat)
        let brightest = stride(from: 0, to: bitmap.samples.count, by: 4).map { bitmap.samples[$0] }.max() ?? 0
        #expect(brightest > 3, "\(brightest)")  // a white of the photo, four times brighter, in linear light
    }
}

/// `CIImageOption.expandToHDR` on an Ultra HDR JPEG (testdata/hdr, built to Android's
/// description): the HDR rendition, with the gain map's headroom.
@Suite struct ExpandToHDRTests {
    @Test func ultraHDRExpandsAndReportsItsHeadroom() throws {
        let url = RAWFilterTests.root.appendingPathComponent("testdata/hdr/ultrahdr.jpg")
        let sdr = try #require(CIImage(contentsOf: url))
        let hdr = try #require(CIImage(contentsOf: url, options: [.expandToHDR: true]))
        #expect(sdr.contentHeadroom == 1 && hdr.contentHeadroom == 4)
        let exr = try CIContext().openEXRRepresentation(of: hdr)
        let bitmap = try RenderContext().render(try Image(data: exr), format: .rgbaFloat)
        #expect((bitmap.samples.max() ?? 0) > 3.5)
    }
}
