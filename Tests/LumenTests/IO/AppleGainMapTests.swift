import Foundation
import Testing
@testable import Lumen

/// iPhones' HDR gain maps: testdata/hdr/apple-hdr.heic is laid out as iPhones write HDR
/// photos (scripts/make-apple-hdr.py, from Apple's "Applying Apple HDR effect to your
/// photos"; exiftool reads its auxiliary type and maker note), for the HDR picture of
/// GainMapTests' formula. Expanded, it gives that picture back; written as JPEG, it becomes
/// an Ultra HDR file with the same HDR rendition.
@Suite struct AppleGainMapTests {
    static let file = Paths.testdata("hdr/apple-hdr.heic")

    @Test func theMakerNoteGivesTheHeadroom() throws {
        let metadata = try ImageFile.metadata(at: Self.file)
        let exif = try #require(metadata.exif)
        let values = try #require(AppleGainMap.makerNoteValues(exif, tags: [33, 48]))
        #expect(values == [33: 1, 48: 1])
        if let tags = try MetadataTests.exiftool(Self.file) {  // an independent reader of the same note
            #expect(tags["MakerNotes:HDRHeadroom"] as? Double == 1 && tags["MakerNotes:HDRGain"] as? Double == 1, "\(tags)")
        }
        // Apple's rule: 33 ≥ 1 and 48 > 0.01 give −0.303 · 48 + 2.303 stops.
        #expect(abs(try #require(AppleGainMap.headroom(exif: metadata.exif)) - 4) < 1e-9)
        #expect(try ImageFile.header(at: Self.file).details.contains("HDR gain map (Apple, headroom 4)"))
        let read = try GainMap.read(contentsOf: Self.file)
        let map = try #require(read)
        #expect(map.headroom == 4 && map.minimum == .zero && map.maximum == SIMD3(repeating: 2) && map.offsetSDR == .zero)
        let pixels = try map.image()
        #expect(pixels.extent == Rect(x: 0, y: 0, width: 16, height: 12))
        #expect(AppleGainMap.recoveryTable(headroom: 4)[0] == 0 && abs(AppleGainMap.recoveryTable(headroom: 4)[255] - 1) < 1e-6)
    }

    @Test func expandingGivesTheHDRPictureBack() throws {
        let hdr = try RenderContext().render(try Image(contentsOf: Self.file, options: .init(expandToHDR: true)), format: .rgbaFloat)
        #expect(hdr.width == 64 && hdr.height == 48)
        var errors: [Double] = [], peak: Float = 0
        for row in 0..<48 {
            for x in 0..<64 {
                let want = GainMapTests.hdr(x: x, y: row), got = hdr.pixel(x: x, row: row)
                peak = max(peak, got.x, got.y)
                let c = want.x >= want.y ? 0 : 1  // the gray map holds the larger channel's gain
                errors.append(abs(Double(got[c]) - want[c]) / want[c])
            }
        }
        errors.sort()
        // A quarter-size map upsampled (the gain has a kink where the SDR clips), HEVC at
        // quality 98: measured median 0.40 %, 95th percentile 6.1 %.
        let median = errors[errors.count / 2], p95 = errors[errors.count * 95 / 100]
        #expect(peak > 3.2, "HDR peak \(peak)")
        #expect(median < 0.01 && p95 < 0.10, "relative error: median \(median), 95th percentile \(p95)")
    }

    @Test func aJPEGOfItIsUltraHDRWithTheSameRendition() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("from-iphone.jpg")
        try RenderContext().write(try Image(contentsOf: Self.file), to: out, format: .jpeg(quality: 0.98, chroma444: true))
        let written = try #require(GainMap.read(fromJPEG: try Data(contentsOf: out)))
        #expect(written.headroom == 4 && written.maximum == SIMD3(repeating: 2))
        if let tags = try MetadataTests.exiftool(out) { #expect(tags["MPF:NumberOfImages"] as? Int == 2, "\(tags)") }
        let heic = try RenderContext().render(try Image(contentsOf: Self.file, options: .init(expandToHDR: true)), format: .rgbaFloat)
        let jpeg = try RenderContext().render(try Image(contentsOf: out, options: .init(expandToHDR: true)), format: .rgbaFloat)
        var errors: [Double] = []
        for i in stride(from: 0, to: heic.samples.count, by: 4) {
            for c in 0..<3 where heic.samples[i + c] > 0.05 { errors.append(Double(abs(heic.samples[i + c] - jpeg.samples[i + c]) / heic.samples[i + c])) }
        }
        errors.sort()
        let median = errors[errors.count / 2], p95 = errors[errors.count * 95 / 100]
        // Measured: median 0.23 %, 95th percentile 1.5 %.
        #expect(median < 0.005 && p95 < 0.03, "median \(median), 95th percentile \(p95)")
    }
}
