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

/// The gain map as Core Image's auxiliary image and `applyingGainMap(_:headroom:)`: the
/// full headroom gives what `.expandToHDR` gives, headroom 1 the SDR image.
@Suite struct ApplyingGainMapTests {
    static let url = RAWFilterTests.root.appendingPathComponent("testdata/hdr/ultrahdr.jpg")

    static func floats(_ image: CIImage) throws -> Bitmap {
        try RenderContext().render(image.lumenImage, format: .rgbaFloat)
    }

    @Test func theAuxiliaryGainMapAppliesAsExpandToHDRDoes() throws {
        let base = try #require(CIImage(contentsOf: Self.url))
        let map = try #require(CIImage(contentsOf: Self.url, options: [.auxiliaryHDRGainMap: true]))
        #expect(map.extent == CGRect(x: 0, y: 0, width: 32, height: 24))
        #expect(CIImage(contentsOf: RAWFilterTests.root.appendingPathComponent("testdata/photo.jpg"), options: [.auxiliaryHDRGainMap: true]) == nil)
        let applied = base.applyingGainMap(map)
        #expect(applied.contentHeadroom == 4)
        let expanded = try #require(CIImage(contentsOf: Self.url, options: [.expandToHDR: true]))
        let (a, b) = (try Self.floats(applied), try Self.floats(expanded))
        #expect(zip(a.samples, b.samples).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) })
        #expect((a.samples.max() ?? 0) > 3.5)
        // Headroom 1 is the SDR image; a map that is not one changes nothing.
        #expect(try Self.floats(base.applyingGainMap(map, headroom: 1)).samples == (try Self.floats(base)).samples)
        #expect(base.applyingGainMap(base) === base)
    }

    /// An iPhone HEIC's gain map (testdata/hdr/apple-hdr.heic) the same way.
    @Test func anIPhoneGainMapToo() throws {
        let url = RAWFilterTests.root.appendingPathComponent("testdata/hdr/apple-hdr.heic")
        let base = try #require(CIImage(contentsOf: url))
        let map = try #require(CIImage(contentsOf: url, options: [.auxiliaryHDRGainMap: true]))
        #expect(map.extent == CGRect(x: 0, y: 0, width: 16, height: 12))
        let expanded = try #require(CIImage(contentsOf: url, options: [.expandToHDR: true]))
        #expect(expanded.contentHeadroom == 4 && base.applyingGainMap(map).contentHeadroom == 4)
        let (a, b) = (try Self.floats(base.applyingGainMap(map)), try Self.floats(expanded))
        #expect(zip(a.samples, b.samples).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) })
    }

    /// Halfway in log headroom (2 of 4, the map's capacity 0…2 stops): half the boost, so
    /// each value is the geometric mean of the SDR and HDR ones, offsets included.
    @Test func aSmallerHeadroomAppliesPartOfTheBoost() throws {
        let base = try #require(CIImage(contentsOf: Self.url))
        let map = try #require(CIImage(contentsOf: Self.url, options: [.auxiliaryHDRGainMap: true]))
        let half = base.applyingGainMap(map, headroom: 2)
        #expect(half.contentHeadroom == 2)
        let (sdr, full, partial) = (try Self.floats(base), try Self.floats(base.applyingGainMap(map)), try Self.floats(half))
        let offset: Float = 1.0 / 64
        var worst: Float = 0
        for i in stride(from: 0, to: sdr.samples.count, by: 4) {
            for c in 0..<3 {
                let s = sdr.samples[i + c] + offset, f = full.samples[i + c] + offset
                worst = max(worst, abs(partial.samples[i + c] + offset - (s * f).squareRoot()) / (s * f).squareRoot())
            }
        }
        #expect(worst < 1e-4, "largest relative difference \(worst)")
    }
}
