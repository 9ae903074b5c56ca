import Foundation
import Testing
@testable import Lumen

/// Gain maps written into HEIC, as iPhones write them: Apple's auxiliary image beside the
/// primary picture and the headroom in the EXIF's Apple maker note. Read back by pillow-heif's
/// libheif 1.23 (the auxiliary image, its type and samples), exiftool (the maker note's
/// HDRHeadroom and HDRGain) and by expanding the written file to HDR, which must give the
/// input's HDR rendition placed the same way.
@Suite struct HEICGainMapWriteTests {
    static let iPhone = AppleGainMapTests.file
    /// Lossless (full chroma), so the comparisons measure the map rather than a re-encode of
    /// the picture: at quality 98 HEVC's 4:2:0 alone puts the SDR picture's 95th percentile at 10 %.
    static let precise = OutputFormat.heic(lossless: true)

    static func hdr(_ url: URL) throws -> Bitmap {
        try RenderContext().render(try Image(contentsOf: url, options: .init(expandToHDR: true)), format: .rgbaFloat)
    }

    /// The auxiliary images pillow-heif's libheif (1.23, which has the auxiliary-image API
    /// Debian's 1.15 lacks) finds beside the primary picture: type → (width, height, samples).
    static func auxiliaryImages(_ url: URL) throws -> [String: [(width: Int, height: Int, samples: [UInt8])]] {
        let json = try runScript("heif-aux-reference.py", [url.path], hint: "needs pillow-heif: scripts/setup")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let aux = try #require(object["aux"] as? [String: [[String: Any]]])
        return try aux.mapValues { images in
            try images.map { image in
                (try #require(image["width"] as? Int), try #require(image["height"] as? Int),
                 try #require(image["samples"] as? [Int]).map { UInt8($0) })
            }
        }
    }

    @Test func anIPhonePhotoTurnedAndHalvedKeepsItsGainMap() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("iphone-placed.heic")
        try RenderContext().write(try UltraHDRWriteTests.placed(try Image(contentsOf: Self.iPhone)), to: out, format: Self.precise)
        // libheif 1.23 (pillow-heif), an independent reader of the boxes, finds the map as the
        // primary's auxiliary image of Apple's type, with the samples Lumen reads.
        let found = try #require(try Self.auxiliaryImages(out)[AppleGainMap.auxiliaryType]?.first)
        guard case let .apple(samples, width, height, _)? = try GainMap.read(contentsOf: out)?.encoded else {
            Issue.record("no Apple gain map read back"); return
        }
        #expect(found.width == width && found.height == height && found.samples == [UInt8](samples))
        if let tags = try MetadataTests.exiftool(out) {  // and exiftool, of the maker note
            let headroom = try #require(tags["MakerNotes:HDRHeadroom"] as? Double), gain = try #require(tags["MakerNotes:HDRGain"] as? Double)
            #expect(headroom == 1 && abs(gain - 1) < 1e-6, "\(tags)")
        }
        let map = try #require(try GainMap.read(contentsOf: out))
        #expect(abs(map.headroom - 4) < 1e-6)
        // The map keeps its share: a quarter of the 20×26 output.
        #expect(try map.image().extent == Rect(x: 0, y: 0, width: 5, height: 7))
        let expected = try RenderContext().render(try UltraHDRWriteTests.placed(try Image(contentsOf: Self.iPhone, options: .init(expandToHDR: true))),
                                                  format: .rgbaFloat)
        let got = try Self.hdr(out)
        #expect(got.width == 20 && got.height == 26)
        let errors = UltraHDRWriteTests().relativeErrors(expected, got)
        // Measured: median 0.96 %, 95th percentile 4.3 %, as close as the Ultra HDR JPEG made by
        // the same steps (1.1 %, 4.2 %): a 5×7 map for 20×26 pixels, and the gain's kink where
        // the SDR clips. The SDR picture alone is 63 % off at the median.
        #expect(errors.median < 0.015 && errors.p95 < 0.06, "median \(errors.median), 95th percentile \(errors.p95)")
        let sdr = UltraHDRWriteTests().relativeErrors(expected, try RenderContext().render(try Image(contentsOf: out), format: .rgbaFloat))
        #expect(sdr.median > 0.2, "the SDR picture alone: median \(sdr.median)")
    }

    @Test func anUltraHDRJPEGBecomesAnIPhoneStyleHEIC() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("from-ultrahdr.heic")
        try RenderContext().write(try Image(contentsOf: GainMapTests.file), to: out, format: Self.precise)
        #expect(try ImageFile.header(at: out).details.contains("HDR gain map (Apple, headroom 4)"))
        let errors = UltraHDRWriteTests().relativeErrors(try Self.hdr(GainMapTests.file), try Self.hdr(out))
        // Measured: median 0.28 %, 95th percentile 2.6 %: Android's offsets (1/64) are kept in the
        // luminance, but Apple's one gain cannot give each channel its own.
        #expect(errors.median < 0.006 && errors.p95 < 0.04, "median \(errors.median), 95th percentile \(errors.p95)")
    }

    @Test func theMakerNoteSaysEveryHeadroomUpToThreeStops() throws {
        for headroom in [1.05, 1.5, 2, 3, 4, 4.9, exp2(2.29999), exp2(2.3), exp2(2.30001), 4.93, 5, 6.5, 8] {
            let exif = AppleGainMap.exif(nil, headroom: headroom)
            let read = try #require(AppleGainMap.headroom(exif: exif))
            #expect(abs(log2(read) - log2(headroom)) < 0.001, "\(headroom) reads back as \(read)")
        }
        #expect(abs(try #require(AppleGainMap.headroom(exif: AppleGainMap.exif(nil, headroom: 40))) - 8) < 1e-9)
        // A camera's EXIF keeps its tags around the new note.
        let camera = try #require(try ImageFile.metadata(at: Paths.testdata("photo.jpg")).exif)
        let edited = AppleGainMap.exif(camera, headroom: 4)
        #expect(abs(try #require(AppleGainMap.headroom(exif: edited)) - 4) < 0.01)
        let file = Paths.temporaryDirectory().appendingPathComponent("edited.exif")
        try edited.write(to: file)
        if let before = try MetadataTests.exiftool(Paths.testdata("photo.jpg")), let after = try MetadataTests.exiftool(file) {
            #expect(before["EXIF:Make"] != nil && after["EXIF:Make"] as? String == before["EXIF:Make"] as? String, "\(after)")
            #expect(after["EXIF:DateTimeOriginal"] as? String == before["EXIF:DateTimeOriginal"] as? String)
            #expect(after["MakerNotes:HDRHeadroom"] as? Double == 1, "\(after)")
        }
    }

    @Test func aStepThatChangesValuesWritesTheHEICWithoutAMap() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("iphone-inverted.heic")
        let context = RenderContext()
        try context.write(try Image(contentsOf: Self.iPhone).applyingFilter("colorInvert"), to: out, format: Self.precise)
        #expect(try GainMap.read(contentsOf: out) == nil)
        #expect(context.lastReport?.warnings.contains { $0.contains("gain map is not written") } == true, "\(context.lastReport?.warnings ?? [])")
        var dropped = Self.precise
        dropped.hdr = .drop
        try RenderContext().write(try Image(contentsOf: Self.iPhone), to: out, format: dropped)
        #expect(try GainMap.read(contentsOf: out) == nil)
    }

    /// libheif's file before the link: a 32×24 picture and an 8×6 map as two pictures.
    static func unlinked() throws -> Data {
        let layout = EncodeLayout(width: 32, height: 24, channels: 3, depth: 8)
        let map = AppleGainMap.Written(samples: Data((0..<48).map { UInt8($0 * 5) }), width: 8, height: 6, headroom: 4)
        let encoder = try HEIFEncoder.heic(sink: .memory(name: "unlinked"), format: .heic(), layout: layout, gainMap: map)
        let rows = [UInt8]((0..<(32 * 24 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try rows.withUnsafeBytes { try encoder.write(RowBand(firstRow: 0, rowCount: 24, bytesPerRow: 96, base: $0.baseAddress!)) }
        return try encoder.encoded()
    }

    /// The box editing links libheif's file, and on any damage to the boxes it edits throws
    /// `Malformed` or still gives a file: it never traps.
    @Test func theLinkEditsLibheifsFileAndRefusesDamageCleanly() throws {
        let file = try Self.unlinked()
        let linked = try HEIFAuxiliaryLink.link(file, auxiliaryType: AppleGainMap.auxiliaryType)
        let url = Paths.temporaryDirectory().appendingPathComponent("linked.heic")
        try linked.write(to: url)
        #expect(try Self.auxiliaryImages(url)[AppleGainMap.auxiliaryType]?.first?.width == 8)
        // A file with one picture has nothing to link.
        let single = try RenderContext().encode(try Image(contentsOf: Paths.testdata("photo.jpg")).applyingLanczosScale(0.1), format: .heic())
        #expect(throws: HEIFAuxiliaryLink.Malformed.self) { try HEIFAuxiliaryLink.link(single, auxiliaryType: "x") }
        // Every byte of the meta box (where the edits read), changed one at a time.
        let bytes = [UInt8](file)
        let meta = try #require(try HEIFBoxes.boxes(bytes, 0..<bytes.count).first { $0.type == "meta" })
        var refused = 0
        for at in meta.start..<meta.end {
            for value: UInt8 in [0x00, 0xFF, bytes[at] ^ 0x01] where value != bytes[at] {
                var damaged = bytes
                damaged[at] = value
                do { _ = try HEIFAuxiliaryLink.link(Data(damaged), auxiliaryType: "x") } catch is HEIFBoxes.Malformed { refused += 1 }
            }
        }
        #expect(refused > 100, "only \(refused) damaged files refused")
    }

    /// A picture with alpha (turned by an angle, so its corners are transparent): libheif writes
    /// the alpha as an auxiliary image of its own, and the map is linked beside it.
    @Test func aPictureWithAlphaKeepsItsMapToo() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("iphone-turned-10.png.heic")
        let turned = try Image(contentsOf: Self.iPhone).transformed(by: AffineTransform(rotationAngle: 0.17))
        try RenderContext().write(turned, to: out, format: Self.precise)
        #expect(try ImageFile.header(at: out).hasAlpha)
        let found = try Self.auxiliaryImages(out)
        // (libheif reads the alpha plane as the picture's alpha, not among its auxiliary images.)
        #expect(found[AppleGainMap.auxiliaryType]?.count == 1 && found.count == 1, "\(found.keys)")
        #expect(try GainMap.read(contentsOf: out) != nil)
    }

    /// The rebuilt EXIF, read with Lumen's own TIFF reader: the camera's tags are all there.
    @Test func theRebuiltEXIFKeepsTheCamerasTags() throws {
        let camera = try #require(try ImageFile.metadata(at: Paths.testdata("photo.jpg")).exif)
        func tags(_ exif: Data) throws -> (ifd0: Set<Int>, exif: Set<Int>) {
            let reader = TIFFExif.Reader(data: exif, little: exif.first == 0x49)
            let first = try #require(reader.u32(4))
            let ifd0 = try #require(reader.entries(at: first))
            let pointer = try #require(ifd0.first { $0.tag == TIFFExif.exifPointer })
            let offset = try #require(reader.pointer(pointer))
            let sub = try #require(reader.entries(at: offset))
            return (Set(ifd0.map(\.tag)), Set(sub.map(\.tag)))
        }
        let (before, after) = (try tags(camera), try tags(AppleGainMap.exif(camera, headroom: 4)))
        #expect(before.ifd0.isSubset(of: after.ifd0) && before.ifd0.contains(0x010F), "\(before.ifd0) → \(after.ifd0)")
        #expect(before.exif.subtracting([TIFFExif.interoperabilityPointer]).isSubset(of: after.exif) && after.exif.contains(0x927C)
                && before.exif.contains(0x9003), "\(before.exif) → \(after.exif)")
    }
}
