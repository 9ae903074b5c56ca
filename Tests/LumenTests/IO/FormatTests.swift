import Foundation
import Testing
@testable import Lumen

/// WebP, GIF, HEIC and AVIF: decoded pixels against the reference decoders' (dwebp,
/// heif-convert, Pillow: testdata/formats/*.pam, made by scripts/make-format-testdata.py),
/// and Lumen's own outputs decoded by those tools when they are installed (.ci/run installs them).
@Suite struct FormatTests {
    static func fixture(_ name: String) -> URL { Paths.testdata("formats/\(name)") }

    /// Largest difference to the reference over pixels the reference shows (alpha > 0),
    /// alpha compared everywhere.
    static func difference(_ bitmap: Bitmap, _ reference: PAM) -> Int {
        var worst = 0
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x: x, row: row)
                let alpha = reference.depth == 4 ? reference.sample(x: x, row: row, channel: 3) : reference.maxValue
                for c in 0..<4 where alpha > 0 || c == 3 {
                    let expected = c < reference.depth ? reference.sample(x: x, row: row, channel: c) : 255
                    worst = max(worst, abs(Int(p[c]) - expected))
                }
            }
        }
        return worst
    }

    @Test(arguments: ["lossy.webp", "lossless.webp", "alpha-lossy.webp", "alpha-lossless.webp",
                      "palette.gif", "interlaced.gif", "transparent.gif",
                      "rgb8.heic", "rgba8.heic", "rgb8.avif", "rgba8.avif"])
    func decodesAsTheReferenceDecoderDoes(_ name: String) throws {
        let image = try Image(contentsOf: Self.fixture(name))
        let reference = try PAM(contentsOf: Self.fixture("\(name).pam"))
        #expect(image.extent == Rect(x: 0, y: 0, width: Double(reference.width), height: Double(reference.height)))
        #expect(Self.difference(try render8(image), reference) == 0, "\(name)")
        #expect(image.fileHeader?.hasAlpha == name.contains("alpha") || name.contains("rgba") || name.contains("transparent"))
    }

    @Test func losslessFilesHoldTheSourcePixels() throws {
        let source = try PAM(contentsOf: Paths.codec("rgba8.png.pam"))
        #expect(Self.difference(try render8(try Image(contentsOf: Self.fixture("alpha-lossless.webp"))), source) == 0)
        #expect(Self.difference(try render8(try Image(contentsOf: Self.fixture("palette.gif"))),
                                try PAM(contentsOf: Self.fixture("interlaced.gif.pam"))) == 0)
    }

    @Test(arguments: ["rgb10.heic", "rgb10.avif"])
    func tenBitSamplesKeepTheirTenBits(_ name: String) throws {
        let header = try ImageFile.header(at: Self.fixture(name))
        #expect(header.bitDepth == 10 && header.decodedDepth == 16)
        let raster = try ImageFile.decode(at: Self.fixture(name))
        #expect(raster.depth == 16 && raster.channels == 3)
        let reference = try PAM(contentsOf: Self.fixture("\(name).pam"))  // heif-convert: the 10-bit code << 6
        var worst = 0
        for row in 0..<raster.height {
            for x in 0..<raster.width {
                for c in 0..<3 {
                    // Lumen stretches 0…1023 to 0…65535; back to the 10-bit code it must be the same.
                    let code = (Double(raster.sample(x: x, row: row, channel: c)) * 1023 / 65535).rounded()
                    worst = max(worst, abs(Int(code) - reference.sample(x: x, row: row, channel: c) >> 6))
                }
            }
        }
        #expect(worst == 0)
        // The full range: 10-bit white would be 65535, not 65472.
        #expect(raster.depth == 16)
    }

    @Test(arguments: ["anim.gif", "anim.webp"])
    func animationsExposeEveryFrameAndDuration(_ name: String) throws {
        let header = try ImageFile.header(at: Self.fixture(name))
        #expect(header.frameCount == 4)
        #expect(header.frameDurations == [0.1, 0.2, 0.3, 0.4])
        for frame in 0..<4 {
            let image = try Image(contentsOf: Self.fixture(name), options: .init(frame: frame))
            let reference = try PAM(contentsOf: Self.fixture("\(name).\(frame).pam"))
            #expect(Self.difference(try render8(image), reference) == 0, "\(name) frame \(frame)")
        }
        // Frames are distinct recipes, and a frame past the end is an error naming the file.
        let first = try Image(contentsOf: Self.fixture(name)), second = try Image(contentsOf: Self.fixture(name), options: .init(frame: 1))
        #expect(first != second)
        #expect(throws: LumenError.self) { try Image(contentsOf: Self.fixture(name), options: .init(frame: 4)) }
        do {
            _ = try Image(contentsOf: Self.fixture(name), options: .init(frame: 9))
        } catch {
            #expect("\(error)".contains(name) && "\(error)".contains("4 frames"))
        }
    }

    @Test func formatsAreFoundByContentNotName() throws {
        let directory = Paths.temporaryDirectory()
        for name in ["lossy.webp", "rgb8.heic", "rgb8.avif", "palette.gif"] {
            let renamed = directory.appendingPathComponent("\(name).jpg")
            try FileManager.default.copyItem(at: Self.fixture(name), to: renamed)
            let format = try ImageFile.header(at: renamed).format
            #expect(format.rawValue == (name as NSString).pathExtension)
        }
    }

    // MARK: Encoding

    /// Runs a tool if it is installed; nil when it is not.
    static func tool(_ name: String, _ arguments: [String]) throws -> Int32? {
        guard let path = ["/usr/bin", "/usr/local/bin"].map({ "\($0)/\(name)" }).first(where: FileManager.default.isExecutableFile) else {
            return nil
        }
        return try runToEnd(path, arguments).status
    }

    /// The bundled photo, cropped small.
    static func photo() throws -> Image {
        try Image(contentsOf: Paths.testdata("photo.jpg")).cropped(to: Rect(x: 100, y: 100, width: 96, height: 64))
    }

    @Test func webpQualityMeansWhatCwebpMeans() throws {
        let directory = Paths.temporaryDirectory()
        let png = directory.appendingPathComponent("source.png")
        let context = RenderContext()
        try context.write(try Self.photo(), to: png)
        for quality in [30, 75, 95] {
            let ours = directory.appendingPathComponent("ours-\(quality).webp")
            var format = OutputFormat.webp(quality: Double(quality) / 100)
            format.metadata = .strip  // cwebp drops the photo's EXIF and XMP by default
            try context.write(try Image(contentsOf: png), to: ours, format: format)
            let theirs = directory.appendingPathComponent("cwebp-\(quality).webp")
            guard try Self.tool("cwebp", ["-quiet", "-q", "\(quality)", png.path, "-o", theirs.path]) == 0 else { continue }
            // The same settings give the same bitstream.
            #expect(try Data(contentsOf: ours) == Data(contentsOf: theirs), "q\(quality)")
        }
        // The default is cwebp's 75.
        #expect(OutputFormat(path: "x.webp")?.quality == 0.75)
    }

    /// 10-bit AVIF is written without alpha: Debian's libaom 3.6 cannot encode a 10-bit alpha plane.
    @Test(arguments: [(OutputFormat.webp(quality: 0.9), true), (.webp(lossless: true), true), (.heic(quality: 0.9), true),
                      (.avif(quality: 0.9), true), (.heic(quality: 0.9, depth: 10), true), (.avif(quality: 0.9, depth: 10), false)])
    func outputsDecodeWithTheReferenceTools(_ format: OutputFormat, _ alpha: Bool) throws {
        let directory = Paths.temporaryDirectory()
        let source = try Self.photo()
        // Half-transparent: alpha must survive.
        let image = alpha ? source.applying("colorMatrix", ["aVector": .vector([0, 0, 0, 0.5])]) : source
        let url = directory.appendingPathComponent("out.\(format.fileFormat.preferredExtension)")
        try RenderContext().write(image, to: url, format: format)
        let header = try ImageFile.header(at: url)
        #expect(header.format == format.fileFormat && header.hasAlpha == alpha)
        #expect(header.width == 96 && header.height == 64)
        #expect(header.bitDepth == (format.depth > 8 ? 10 : 8))
        let ours = try render8(try Image(contentsOf: url))
        let original = try render8(image)
        var worst = 0
        for row in 0..<64 { for x in 0..<96 { for c in 0..<4 { worst = max(worst, abs(Int(ours.pixel(x: x, row: row)[c]) - Int(original.pixel(x: x, row: row)[c]))) } } }
        #expect(worst <= (format.lossless ? 0 : 40), "\(format.fileFormat) at depth \(format.depth): \(worst)")
        // The reference decoder reads the file and sees the same pixels.
        let decoded = directory.appendingPathComponent("reference.png")
        let status = format.fileFormat == .webp
            ? try Self.tool("dwebp", ["-quiet", url.path, "-o", decoded.path])
            : try Self.tool("heif-convert", [url.path, decoded.path])
        guard let status else { return }
        #expect(status == 0)
        let reference = try render8(try Image(contentsOf: decoded))
        var apart = 0
        for row in 0..<64 { for x in 0..<96 where ours.pixel(x: x, row: row)[3] > 0 {
            for c in 0..<4 { apart = max(apart, abs(Int(ours.pixel(x: x, row: row)[c]) - Int(reference.pixel(x: x, row: row)[c]))) }
        } }
        // heif-convert writes 10-bit files as 16-bit PNG: one 8-bit step of rounding apart.
        #expect(apart <= (format.depth > 8 ? 1 : 0), "\(format.fileFormat): \(apart)")
    }

    @Test func gifIsReadButNotWritten() throws {
        #expect(OutputFormat(path: "x.gif") == nil)
        #expect(!ImageFileFormat.gif.isWritable && ImageFileFormat.writable.contains(.webp))
        #expect(throws: LumenError.self) {
            try RenderContext().write(try Self.photo(), to: Paths.temporaryDirectory().appendingPathComponent("x.gif"),
                                      format: OutputFormat(fileFormat: .gif))
        }
    }

    @Test func animatedWebPHasEveryFrameAndDuration() throws {
        let a = try Self.photo()
        let b = a.applying("colorInvert")
        let frames = try (0..<5).map { i in
            try FilterRegistry.descriptor(named: "dissolveTransition")!.apply(["image": .image(a), "targetImage": .image(b), "time": .number(Double(i) / 4)])
        }
        let context = RenderContext()
        let data = try context.encodeAnimation(frames, durations: [0.05, 0.1, 0.15, 0.2, 0.25], format: .webp(lossless: true))
        let header = try ImageFile.header(of: data)
        #expect(header.frameCount == 5 && header.frameDurations == [0.05, 0.1, 0.15, 0.2, 0.25])
        for (i, frame) in frames.enumerated() {
            let decoded = try render8(try Image(data: data, options: .init(frame: i)))
            let expected = try render8(frame, in: a.extent)
            #expect(decoded == expected, "frame \(i)")
        }
        #expect(throws: LumenError.self) { try context.encodeAnimation(frames, durations: [1, 2]) }
        #expect(throws: LumenError.self) { try context.encodeAnimation([], durations: [1]) }
    }
}

extension Image {
    /// A registry filter applied to this image, for tests.
    func applying(_ name: String, _ values: [String: FilterValue] = [:]) -> Image {
        var all = values
        all["image"] = .image(self)
        return try! FilterRegistry.descriptor(named: name)!.apply(all)
    }
}

/// Files of the new formats whose headers lie: refused from the header, or failing with
/// the file named, never a crash.
@Suite struct LyingFormatHeaderTests {
    func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = Paths.temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test func aGifScreenBeyondThePixelLimitIsRefusedFromTheHeader() throws {
        // A 60000×60000 screen and one 1×1 frame.
        var gif: [UInt8] = Array("GIF89a".utf8) + [0x60, 0xEA, 0x60, 0xEA, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        let url = try write(gif, "huge.gif")
        #expect(try ImageFile.header(at: url).width == 60000)
        #expect(throws: LumenError.tooLarge(file: url.path, pixels: 60000 * 60000, limit: ImageFile.defaultPixelLimit)) {
            _ = try ImageFile.decode(at: url)
        }
    }

    @Test func aWebPClaimingAHugeCanvasWithoutDataFailsNamingTheFile() throws {
        // VP8X: 16383×16383 canvas, then no image chunk.
        let size: [UInt8] = [0xFE, 0x3F, 0x00]
        var body: [UInt8] = Array("WEBP".utf8) + Array("VP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0] + size + size
        body = Array("RIFF".utf8) + [UInt8(body.count & 0xFF), 0, 0, 0] + body
        let url = try write(body, "lying.webp")
        do {
            _ = try RenderContext().render(try Image(contentsOf: url))
            Issue.record("decoded")
        } catch let error as LumenError {
            #expect(error.description.contains(url.path))
        }
    }

    @Test func aHeifWithoutImagesFailsNamingTheFile() throws {
        // An ftyp box announcing HEIC and nothing else.
        let ftyp: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        let url = try write(ftyp, "empty.heic")
        #expect(throws: LumenError.self) { _ = try Image(contentsOf: url) }
        do { _ = try Image(contentsOf: url) } catch { #expect("\(error)".contains(url.path)) }
    }
}

/// The formats from the command line: pipes, frames, animated output.
@Suite struct FormatCommandLineTests {
    @Test func aHeicPipesThroughApplyIntoWebP() throws {
        let heic = FormatTests.fixture("rgb8.heic").path
        let output = Paths.temporaryDirectory().appendingPathComponent("piped.webp")
        // cat a.heic | lumen apply -e 'gaussianBlur radius=2' - -o - --format webp > b.webp
        let shell = "cat '\(heic)' | '\(CommandLineTests.binary.path)' apply -e 'gaussianBlur radius=2' - -o - --format webp > '\(output.path)'"
        let piped = try runToEnd("/bin/sh", ["-c", shell])
        #expect(piped.status == 0, "\(piped.stderr)")
        let header = try ImageFile.header(at: output)
        #expect(header.format == .webp && header.width >= 23 && header.height >= 17)
        let refused = try CommandLineTests.lumen(["convert", heic, "-o", "-"])
        #expect(refused.status == 2 && refused.stderr.contains("--format"))
    }

    @Test func framesAreChosenByOptionAndInChains() throws {
        let gif = FormatTests.fixture("anim.gif").path
        let directory = Paths.temporaryDirectory()
        let byOption = directory.appendingPathComponent("frame2.png").path
        #expect(try CommandLineTests.lumen(["convert", "--frame", "2", gif, "-o", byOption]).status == 0)
        let reference = try PAM(contentsOf: FormatTests.fixture("anim.gif.2.pam"))
        #expect(FormatTests.difference(try render8(try Image(contentsOf: URL(fileURLWithPath: byOption))), reference) == 0)
        let chain = directory.appendingPathComponent("frame.chain")
        try "sourceOver backgroundImage=load(\"\(gif)\", 2)\n".write(to: chain, atomically: true, encoding: .utf8)
        let composed = directory.appendingPathComponent("composed.png").path
        let result = try CommandLineTests.lumen(["apply", chain.path, FormatTests.fixture("palette.gif").path, "-o", composed])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try CommandLineTests.lumen(["info", gif])
        #expect(info.stdout.contains("4 frames of 0.1 s, 0.2 s, 0.3 s, 0.4 s"))
        let missing = try CommandLineTests.lumen(["convert", "--frame", "7", gif, "-o", byOption])
        #expect(missing.status == 2 && missing.stderr.contains("no frame 7"))
    }

    @Test func transitionsWriteAnimatedWebP() throws {
        let output = Paths.temporaryDirectory().appendingPathComponent("t.webp")
        let result = try CommandLineTests.lumen(["transition", "testdata/codecs/rgb8.png", "testdata/codecs/gray8.png",
                                                 "--filter", "dissolve", "--frames", "6", "--delay", "0.05", "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let header = try ImageFile.header(at: output)
        #expect(header.frameCount == 6 && header.frameDurations == Array(repeating: 0.05, count: 6))
    }
}

/// HEIC as phones write it.
@Suite struct PhoneHEICTests {
    @Test func theRotationBoxIsAppliedAndTheExifOrientationSaysSo() throws {
        let url = FormatTests.fixture("irot.heic")
        let image = try Image(contentsOf: url)
        #expect(image.extent.width == 96 && image.extent.height == 64)
        #expect(image.fileHeader?.orientation == 1)
        #expect(FormatTests.difference(try render8(image), try PAM(contentsOf: FormatTests.fixture("irot.heic.pam"))) == 0)
        // The file's EXIF says 6; what Lumen keeps says 1, so a JPEG written from it is not turned twice.
        let jpeg = Paths.temporaryDirectory().appendingPathComponent("upright.jpg")
        try RenderContext().write(image, to: jpeg)
        let header = try ImageFile.header(at: jpeg)
        #expect(header.orientation == 1 && header.width == 96 && header.height == 64)
        if let tags = try MetadataTests.exiftool(jpeg) { #expect(tags["EXIF:Orientation"] as? Int == 1) }
    }

    /// iPhones store a photo as a grid of HEVC tiles; grid.heic (scripts/make-heic-grid.py)
    /// is 3×2 tiles of 256 pixels covering 768×512, the 640×400 picture cropped from them,
    /// turned by an irot box. libheif assembles the grid; Lumen's pixels equal
    /// heif-convert's exactly, the header gives the picture's size, not the tiles'.
    @Test func aGridOfTilesIsTheCroppedTurnedPicture() throws {
        let url = FormatTests.fixture("grid.heic")
        let header = try ImageFile.header(at: url)
        #expect(header.format == .heic && header.width == 400 && header.height == 640 && !header.hasAlpha)
        let image = try Image(contentsOf: url)
        #expect(image.extent == Rect(x: 0, y: 0, width: 400, height: 640))
        #expect(FormatTests.difference(try render8(image), try PAM(contentsOf: FormatTests.fixture("grid.heic.pam"))) == 0)
        // A thumbnail of it has vipsthumbnail's size for the same file and box (63×100).
        let thumbnail = try Thumbnail(width: 100, height: 100).apply(to: image, context: RenderContext())
        #expect(thumbnail.extent.width == 63 && thumbnail.extent.height == 100)
    }

    @Test func aDisplayP3HeicStaysP3() throws {
        let url = FormatTests.fixture("p3.heic")
        #expect(try ImageFile.header(at: url).iccDescription == "Display P3")
        let png = Paths.temporaryDirectory().appendingPathComponent("p3.png")
        try RenderContext().write(try Image(contentsOf: url), to: png)
        #expect(try ImageFile.header(at: png).iccDescription == "Display P3")
        // The codes heif-convert decodes are the codes Lumen writes back (both P3).
        let reference = try PAM(contentsOf: FormatTests.fixture("p3.heic.pam"))
        let raster = try ImageFile.decode(at: png)
        var worst = 0
        for row in 0..<raster.height { for x in 0..<raster.width { for c in 0..<3 {
            worst = max(worst, abs(raster.sample(x: x, row: row, channel: c) - reference.sample(x: x, row: row, channel: c)))
        } } }
        #expect(worst <= 1)
    }
}

/// Thumbnails of a HEIC come from its embedded preview when it is large enough.
@Suite struct EmbeddedThumbnailTests {
    @Test func theHeaderKnowsThePreviewAndItLoads() throws {
        let url = FormatTests.fixture("thumbed.heic")
        let header = try ImageFile.header(at: url)
        #expect(header.width == 640 && header.height == 400)
        #expect(header.thumbnailWidth == 320 && header.thumbnailHeight == 200)
        let preview = try Image(contentsOf: url, options: .init(embeddedThumbnail: true))
        #expect(preview.extent.width == 320 && preview.extent.height == 200)
        // The preview shows the same picture: close to the full image scaled by half.
        let context = RenderContext()
        let halved = try context.render(try Image(contentsOf: url).applyingLanczosScale(0.5).cropped(to: preview.extent), format: .rgba8)
        let shown = try context.render(preview, format: .rgba8)
        var squared = 0.0
        for row in 0..<200 { for x in 0..<320 { for c in 0..<3 {
            let d = Double(halved.pixel(x: x, row: row)[c]) - Double(shown.pixel(x: x, row: row)[c]); squared += d * d
        } } }
        let psnr = 10 * log10(255 * 255 / (squared / Double(320 * 200 * 3)))
        #expect(psnr > 28, "PSNR \(psnr)")
        #expect(throws: LumenError.self) { _ = try Image(contentsOf: FormatTests.fixture("rgb8.heic"), options: .init(embeddedThumbnail: true)) }
    }

    @Test(arguments: [200, 400])
    func thumbnailsDecodeThePreviewOnlyWhenItIsLargeEnough(_ side: Int) throws {
        let context = RenderContext()
        let image = try Image(contentsOf: FormatTests.fixture("thumbed.heic"))
        let thumbnail = try Lumen.Thumbnail(width: side, height: side).apply(to: image, context: context)
        _ = try context.encode(thumbnail, format: .png)
        // 200 px wide fits the 320×200 preview (200 rows decoded); 400 needs the picture (400 rows).
        #expect(context.lastReport?.decodedRows == (side <= 320 ? 200 : 400), "\(side): \(context.lastReport?.decodedRows ?? -1) rows")
        #expect(thumbnail.extent.width == Double(side))
    }
}
