import Foundation
import Testing
@testable import Lumen

/// Ultra HDR JPEGs written back: an input's gain map goes through the output's geometry and
/// into the output (Android's format: MPF index, a container directory in the primary's XMP,
/// the map's hdrgm parameters), read back by exiftool and by expanding the output to HDR;
/// a step that changes values leaves the map out, with a warning.
@Suite struct UltraHDRWriteTests {
    static let file = GainMapTests.file

    /// Turned a quarter (EXIF orientation 6), cropped and halved: every kind of placing step.
    static func placed(_ image: Image) throws -> Image {
        try image.oriented(6).cropped(to: Rect(x: 4, y: 6, width: 40, height: 52)).applyingLanczosScale(0.5)
    }

    /// Quality 98 and full chroma, as the input was written, so the comparisons measure the
    /// map rather than a re-encode of the picture (at 90 and 4:2:0 the picture alone moves
    /// the 95th percentile to 7 %).
    static let precise = OutputFormat.jpeg(quality: 0.98, chroma444: true)

    static func hdr(_ url: URL) throws -> Bitmap {
        try RenderContext().render(try Image(contentsOf: url, options: .init(expandToHDR: true)), format: .rgbaFloat)
    }

    @Test func aConvertedFileKeepsItsGainMap() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("kept.jpg")
        try RenderContext().write(try Image(contentsOf: Self.file), to: out, format: Self.precise)
        let original = try #require(GainMap.read(fromJPEG: try Data(contentsOf: Self.file)))
        let written = try #require(GainMap.read(fromJPEG: try Data(contentsOf: out)))
        #expect(written.minimum == original.minimum && written.maximum == original.maximum && written.gamma == original.gamma)
        #expect(written.offsetSDR == original.offsetSDR && written.offsetHDR == original.offsetHDR)
        #expect(written.capacityMaximum == original.capacityMaximum && !written.baseIsHDR)
        // The map keeps its share of the picture (half) and its single channel.
        let map = try Image(data: try #require(written.jpeg))
        #expect(map.extent.width == 32 && map.extent.height == 24 && map.fileHeader?.channels == 1)
        // exiftool, an independent reader, finds the index, the directory and the parameters.
        if let tags = try MetadataTests.exiftool(out) {
            #expect(tags["MPF:NumberOfImages"] as? Int == 2, "\(tags)")
            #expect(tags["XMP:Version"] as? String == "1.0" || tags["XMP:Version"] as? Double == 1)
            #expect(tags["XMP:DirectoryItemLength"] as? Int == (try #require(written.jpeg)).count, "\(tags)")
        }
        // Expanded, the copy gives the HDR picture of the original.
        let before = try Self.hdr(Self.file), after = try Self.hdr(out)
        let errors = relativeErrors(before, after)
        // Measured: median 0.006 %, 95th percentile 0.44 % (both sides resample the map's codes alike).
        #expect(errors.median < 0.002 && errors.p95 < 0.01, "median \(errors.median), 95th percentile \(errors.p95)")
    }

    @Test func theMapIsTurnedCroppedAndScaledWithThePicture() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("placed.jpg")
        try RenderContext().write(try Self.placed(try Image(contentsOf: Self.file)), to: out, format: Self.precise)
        let written = try #require(GainMap.read(fromJPEG: try Data(contentsOf: out)))
        let map = try Image(data: try #require(written.jpeg))
        #expect(map.extent.width == 10 && map.extent.height == 13)
        // The reference: the original expanded to HDR, then placed the same way.
        let expected = try RenderContext().render(try Self.placed(try Image(contentsOf: Self.file, options: .init(expandToHDR: true))),
                                                  format: .rgbaFloat)
        let got = try Self.hdr(out)
        #expect(got.width == 20 && got.height == 26 && expected.width == 20)
        let errors = relativeErrors(expected, got)
        // Measured: median 0.58 %, 95th percentile 2.1 %: the written map is half the output's
        // size (10×13), as the input's was, and the gain has a kink where the SDR clips.
        #expect(errors.median < 0.01 && errors.p95 < 0.035, "median \(errors.median), 95th percentile \(errors.p95)")
        // The same picture with the input's map as it was (not turned, cropped or scaled) is far
        // off: the comparison can fail.
        var format = Self.precise
        format.hdr = .drop
        let primary = try RenderContext().encode(try Self.placed(try Image(contentsOf: Self.file)), format: format)
        let original = try #require(GainMap.read(fromJPEG: try Data(contentsOf: Self.file)))
        let unturned = Paths.temporaryDirectory().appendingPathComponent("unturned.jpg")
        try UltraHDR.assemble(primary: primary, gainMap: try #require(original.jpeg)).write(to: unturned)
        let wrong = relativeErrors(expected, try Self.hdr(unturned))
        // Measured: median 28 %, 95th percentile 210 %.
        #expect(wrong.median > 0.1 && wrong.p95 > 0.5, "unturned: median \(wrong.median), 95th percentile \(wrong.p95)")
    }

    @Test func aStepThatChangesValuesDropsTheMapWithAWarning() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("inverted.jpg")
        let context = RenderContext()
        try context.write(try Image(contentsOf: Self.file).applyingFilter("colorInvert"), to: out)
        let bytes = try Data(contentsOf: out)
        #expect(GainMap.read(fromJPEG: bytes) == nil && !GainMap.hasMultiPictureIndex(bytes))
        // Nor does its XMP still announce a map.
        #expect(bytes.range(of: Data("hdr-gain-map".utf8)) == nil && bytes.range(of: Data("Directory".utf8)) == nil)
        #expect(context.lastReport?.warnings.contains { $0.contains("gain map is not written") && $0.contains("'colorMatrix'") } == true,
                "\(context.lastReport?.warnings ?? [])")
    }

    /// A map libjpeg cannot read (its frame marker made a lossless JPEG's) costs the output its
    /// HDR rendition, not the output: the picture is written, with a warning naming the file.
    @Test func anUnreadableMapIsLeftOutWithAWarning() throws {
        var data = try Data(contentsOf: Self.file)
        let map = try #require(GainMap.read(fromJPEG: data)?.jpeg)
        let start = try #require(data.range(of: map)).lowerBound
        let frame = try #require(data.range(of: Data([0xFF, 0xC0]), in: start..<data.endIndex)).lowerBound
        data[frame + 1] = 0xC3
        let input = Paths.temporaryDirectory().appendingPathComponent("bad-map.jpg"), out = Paths.temporaryDirectory().appendingPathComponent("bad-map-out.jpg")
        try data.write(to: input)
        let context = RenderContext()
        try context.write(try Image(contentsOf: input).applyingLanczosScale(0.5), to: out)
        #expect(try ImageFile.header(at: out).width == 32 && !GainMap.hasMultiPictureIndex(try Data(contentsOf: out)))
        #expect(context.lastReport?.warnings.contains { $0.hasPrefix(input.path) && $0.contains("gain map is not written") } == true,
                "\(context.lastReport?.warnings ?? [])")
    }

    /// A batch collects each input's warnings through `DecodeWarnings`; `--fail-on warning`
    /// makes the dropped map an error before anything is written.
    @Test func theWarningReachesABatchAndFailOnWarningStops() throws {
        let inverted = try Image(contentsOf: Self.file).applyingFilter("colorInvert")
        let out = Paths.temporaryDirectory().appendingPathComponent("batch-inverted.jpg")
        let warnings = DecodeWarnings()
        try DecodeWarnings.$current.withValue(warnings) { try RenderContext().write(inverted, to: out) }
        #expect(warnings.all.contains { $0.hasPrefix(Self.file.path) && $0.contains("gain map is not written") }, "\(warnings.all)")
        var options = RenderContext.Options()
        options.failOnWarning = true
        let refused = Paths.temporaryDirectory().appendingPathComponent("refused.jpg")
        #expect(throws: LumenError.self) { try RenderContext(options).write(inverted, to: refused) }
        #expect(!FileManager.default.fileExists(atPath: refused.path))
    }

    @Test func dropLeavesItOutQuietly() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("dropped.jpg")
        var format = OutputFormat.jpeg
        format.hdr = .drop
        let context = RenderContext()
        try context.write(try Image(contentsOf: Self.file), to: out, format: format)
        let bytes = try Data(contentsOf: out)
        #expect(GainMap.read(fromJPEG: bytes) == nil && bytes.range(of: Data("hdr-gain-map".utf8)) == nil)
        #expect(context.lastReport?.warnings.isEmpty == true)
        // Other formats cannot hold a map; a plain JPEG gets none.
        let plain = Paths.temporaryDirectory().appendingPathComponent("plain.jpg")
        try RenderContext().write(try Image(contentsOf: Paths.testdata("photo.jpg")), to: plain)
        #expect(!GainMap.hasMultiPictureIndex(try Data(contentsOf: plain)))
    }

    /// The search that decides whether an input's XMP announces a map: at either end of the
    /// packet, after a partial match; not when only a prefix of it ends the packet.
    @Test func aMapIsFoundWhereverItIsNamed() throws {
        for xmp in ["hdr-gain-map", "hdr-gain-map …", "… hdr-gain-map", "hdr-gain-ma hdr-gain-map", "hhdr-gain-map",
                    "ns.google.com/photos/1.0/container/"] {
            #expect(UltraHDR.mentionsGainMap(Data(xmp.utf8)), "\(xmp)")
        }
        for xmp in ["", "h", "hdr-gain-ma", "… hdr-gain-ma", "photos/1.0/containe", "HDR-GAIN-MAP"] {
            #expect(!UltraHDR.mentionsGainMap(Data(xmp.utf8)), "\(xmp)")
        }
        // A directory in its namespace goes; the same bytes come back when none is named.
        let packet = #"<rdf:Description xmlns:Container="http://ns.google.com/photos/1.0/container/">"#
            + #"<Container:Directory><rdf:Seq/></Container:Directory></rdf:Description>"#
        let cleaned = try #require(UltraHDR.withoutDirectory(Data(packet.utf8)))
        #expect(String(decoding: cleaned, as: UTF8.self) == "<rdf:Description></rdf:Description>")
        let plain = Data(#"<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"/>"#.utf8)
        #expect(UltraHDR.withoutDirectory(plain) == plain)
    }

    @Test func inMemoryEncodesCarryItToo() throws {
        let data = try RenderContext().encode(try Image(contentsOf: Self.file).applyingLanczosScale(0.5), format: .jpeg)
        let written = try #require(GainMap.read(fromJPEG: data))
        #expect(try Image(data: try #require(written.jpeg)).extent.width == 16)
    }

    /// |a − b| / a over every pixel's RGB, for pixels bright enough to measure.
    func relativeErrors(_ a: Bitmap, _ b: Bitmap) -> (median: Double, p95: Double) {
        var errors: [Double] = []
        for row in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                let p = a.pixel(x: x, row: row), q = b.pixel(x: x, row: row)
                for c in 0..<3 where p[c] > 0.05 { errors.append(Double(abs(p[c] - q[c]) / p[c])) }
            }
        }
        errors.sort()
        guard !errors.isEmpty else { return (1, 1) }
        return (errors[errors.count / 2], errors[errors.count * 95 / 100])
    }
}
