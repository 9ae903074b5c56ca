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

    // MARK: - iPhone HDR JPEGs (what Photos exports), from libavif's test data
    // (testdata/hdr/libavif, BSD-2-Clause): photos from iPhones, the map the MPF's second
    // image, the headroom in its XMP (newer iOS) or in the primary's maker note (older).

    static let oldJPEG = Paths.testdata("hdr/libavif/apple_gainmap_old.jpg")
    static let newJPEG = Paths.testdata("hdr/libavif/apple_gainmap_new.jpg")

    /// Apple's rule, on the values exiftool reads from the maker note.
    static func rule(_ m33: Double, _ m48: Double) -> Double {
        exp2(max(0, m33 < 1 ? (m48 <= 0.01 ? -20 * m48 + 1.8 : -0.101 * m48 + 1.601) : (m48 <= 0.01 ? -70 * m48 + 3 : -0.303 * m48 + 2.303)))
    }

    @Test func anIPhoneJPEGsHeadroomIsReadWhereTheFileSaysIt() throws {
        let old = try #require(GainMap.read(fromJPEG: try Data(contentsOf: Self.oldJPEG)))
        let new = try #require(GainMap.read(fromJPEG: try Data(contentsOf: Self.newJPEG)))
        if let tags = try MetadataTests.exiftool(Self.oldJPEG) {  // exiftool reads the maker note
            let m33 = try #require(tags["MakerNotes:HDRHeadroom"] as? Double), m48 = try #require(tags["MakerNotes:HDRGain"] as? Double)
            #expect(abs(old.headroom - Self.rule(m33, m48)) < 1e-6, "\(old.headroom) vs \(Self.rule(m33, m48))")
        }
        #expect(old.headroom == 8)  // its note: 33 = 1.52, 48 = 0, so 3 stops
        // A note with one of the two values: the other counts as 0 (libavif's and Skia's reading).
        func note(_ tag: Int, _ numerator: Int) -> [UInt8] {
            func be(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - $0))) } }
            return Array("Apple iOS\0".utf8) + be(1, 2) + Array("MM".utf8) + be(1, 2) + be(tag, 2) + be(10, 2) + be(1, 4) + be(32, 4)
                + be(0, 4) + be(numerator, 4) + be(1000, 4)
        }
        #expect(AppleGainMap.headroom(exif: TIFFExif.replacingMakerNote(in: nil, with: note(33, 1200))) == 8)
        let only48 = try #require(AppleGainMap.headroom(exif: TIFFExif.replacingMakerNote(in: nil, with: note(48, 500))))
        #expect(abs(log2(only48) - (-0.101 * 0.5 + 1.601)) < 1e-9)
        // The newer file's map says 4.532783 in its XMP (exiftool -ee: HDRGainMapHeadroom), which wins over its maker note's 8.
        #expect(abs(new.headroom - 4.532783) < 1e-6)
        #expect(try ImageFile.header(at: Self.newJPEG).details.contains("HDR gain map (Apple, headroom 4.53)"))
    }

    /// Expanded, each pixel is raised by 1 + (headroom − 1) · gain of the map there, the map
    /// decoded by Pillow from the file's second image and its Rec. 709 curve undone.
    @Test func anIPhoneJPEGExpandsAsAppleDescribes() throws {
        let map = try #require(GainMap.read(fromJPEG: try Data(contentsOf: Self.newJPEG)))
        guard case let .appleJPEG(bytes, headroom) = map.encoded else { Issue.record("not Apple's map"); return }
        let mapFile = Paths.temporaryDirectory().appendingPathComponent("apple-map.jpg")
        try bytes.write(to: mapFile)
        let json = try runReferenceTool(["python3", "-c", """
            import json, sys; from PIL import Image
            im = Image.open(sys.argv[1]).convert("L"); print(json.dumps([im.width, im.height, list(im.getdata())]))
            """, mapFile.path], hint: "needs Pillow")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
        let (mw, mh) = (try #require(decoded[0] as? Int), try #require(decoded[1] as? Int))
        let codes = try #require(decoded[2] as? [Int])
        let image = try Image(contentsOf: Self.newJPEG)
        let (w, h) = (Int(image.extent.width), Int(image.extent.height))
        let hdr = try RenderContext().render(try Image(contentsOf: Self.newJPEG, options: .init(expandToHDR: true)), format: .rgbaFloat)
        let sdr = try RenderContext().render(image, format: .rgbaFloat)
        var errors: [Double] = [], peak: Float = 0
        for row in stride(from: 0, to: h, by: 3) {
            for x in stride(from: 0, to: w, by: 3) {
                let p = hdr.pixel(x: x, row: row), q = sdr.pixel(x: x, row: row)
                peak = max(peak, p.x, p.y, p.z)
                guard q.y > 0.02 else { continue }
                let stored = Double(codes[(row * mh / h) * mw + x * mw / w]) / 255
                let gain = stored < 0.081 ? stored / 4.5 : pow((stored + 0.099) / 1.099, 1 / 0.45)
                errors.append(abs(Double(p.y / q.y) / (1 + (headroom - 1) * gain) - 1))
            }
        }
        errors.sort()
        let median = errors[errors.count / 2], p95 = errors[errors.count * 95 / 100]
        #expect(errors.count > 1000 && peak > 1.5)
        // Measured: median 0.02 %, 95th percentile 1.9 % (the map interpolated where this reads
        // its nearest sample); taking the codes as linear gain would be tens of percent off.
        #expect(median < 0.005 && p95 < 0.05, "median \(median), 95th percentile \(p95)")
        // Written on, the map goes along: as Ultra HDR into JPEG, as Apple's into HEIC.
        let halved = try Image(contentsOf: Self.newJPEG).applyingLanczosScale(0.5)
        #expect(GainMap.read(fromJPEG: try RenderContext().encode(halved, format: .jpeg())).map { abs($0.headroom - headroom) < 1e-6 } == true)
        #expect(try GainMap.read(from: try RenderContext().encode(halved, format: .heic())) != nil)
    }
}
