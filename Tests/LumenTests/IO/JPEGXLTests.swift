import Foundation
import Testing
@testable import Lumen

/// JPEG XL through libjxl: files written by cjxl decode to what djxl decodes
/// (testdata/formats/*.jxl, scripts/make-format-testdata.py), Lumen's own files decode
/// with djxl, the quality scale is cjxl's, and a recompressed JPEG comes back bit for bit.
@Suite struct JPEGXLTests {
    static func fixture(_ name: String) -> URL { Paths.testdata("formats/\(name)") }

    @Test(arguments: ["lossy.jxl", "lossless.jxl", "alpha-lossy.jxl", "alpha-lossless.jxl", "gray.jxl"])
    func decodesAsDjxlDoes(_ name: String) throws {
        let image = try Image(contentsOf: Self.fixture(name))
        let reference = try PAM(contentsOf: Self.fixture("\(name).pam"))
        #expect(image.extent == Rect(x: 0, y: 0, width: Double(reference.width), height: Double(reference.height)))
        #expect(FormatTests.difference(try render8(image), reference) == 0, "\(name)")
        let header = try #require(image.fileHeader)
        #expect(header.format == .jxl && header.hasAlpha == name.hasPrefix("alpha"))
        #expect(header.channels == (name == "gray.jxl" ? 1 : name.hasPrefix("alpha") ? 4 : 3))
        #expect(header.details.contains(name.contains("lossy") ? "lossy" : "lossless"))
    }

    @Test func losslessFilesHoldTheSourcePixels() throws {
        for (file, source) in [("lossless.jxl", "rgb8.png.pam"), ("alpha-lossless.jxl", "rgba8.png.pam"), ("gray.jxl", "gray8.png.pam")] {
            let image = try Image(contentsOf: Self.fixture(file))
            #expect(FormatTests.difference(try render8(image), try PAM(contentsOf: Paths.codec(source))) == 0, "\(file)")
        }
    }

    @Test func sixteenBitSamplesKeepTheirSixteenBits() throws {
        let header = try ImageFile.header(at: Self.fixture("rgb16.jxl"))
        #expect(header.bitDepth == 16 && header.decodedDepth == 16)
        let raster = try ImageFile.decode(at: Self.fixture("rgb16.jxl"))
        #expect(raster.depth == 16 && raster.channels == 3)
        let reference = try PAM(contentsOf: Self.fixture("rgb16.jxl.pam"))
        let source = try PAM(contentsOf: Paths.codec("rgb16.source.pam"))
        var worst = 0, fromSource = 0
        for row in 0..<raster.height {
            for x in 0..<raster.width {
                for c in 0..<3 {
                    let sample = Int(raster.sample(x: x, row: row, channel: c))
                    worst = max(worst, abs(sample - reference.sample(x: x, row: row, channel: c)))
                    fromSource = max(fromSource, abs(sample - source.sample(x: x, row: row, channel: c)))
                }
            }
        }
        #expect(worst == 0 && fromSource == 0, "djxl \(worst), source \(fromSource)")
    }

    /// cjxl's lossless conversion of anim.gif: the GIF's durations, and djxl's frames.
    @Test func animationsHaveEveryFrameAndDuration() throws {
        let header = try ImageFile.header(at: Self.fixture("anim.jxl"))
        let gif = try ImageFile.header(at: Self.fixture("anim.gif"))
        #expect(header.frameCount == gif.frameCount && header.frameCount == 4)
        #expect(header.frameDurations == gif.frameDurations, "\(header.frameDurations) vs \(gif.frameDurations)")
        for frame in 0..<header.frameCount {
            let image = try Image(contentsOf: Self.fixture("anim.jxl"), options: .init(frame: frame))
            let reference = try PAM(contentsOf: Self.fixture("anim.jxl.\(frame).pam"))
            let apart = FormatTests.difference(try render8(image), reference)
            #expect(apart == 0, "frame \(frame): \(apart)")
        }
        #expect(throws: LumenError.self) { try Image(contentsOf: Self.fixture("anim.jxl"), options: .init(frame: 4)) }
    }

    /// cjxl's recompression of the bundled photo: its EXIF and XMP are read from the boxes,
    /// its pixels are the JPEG's (libjxl's IDCT is not libjpeg-turbo's: within a few codes),
    /// and the JPEG comes back byte for byte.
    @Test func recompressedJPEGsKeepTheirMetadataAndComeBackExactly() throws {
        let jpeg = try Data(contentsOf: Paths.testdata("photo.jpg"))
        let jxl = try Data(contentsOf: Self.fixture("recompressed.jxl"))
        let metadata = try ImageFile.metadata(of: jxl)
        let original = try ImageFile.metadata(of: jpeg)
        #expect(metadata.exif != nil && metadata.exif == original.exif)
        #expect(metadata.xmp != nil && metadata.xmp == original.xmp)
        #expect(try ImageFile.header(of: jxl).details.contains("recompressed JPEG"))
        #expect(try JPEGXL.reconstructJPEG(from: jxl) == jpeg)
        let ours = try render8(try Image(data: jxl)), theirs = try render8(try Image(data: jpeg))
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        var worst = 0
        for row in 0..<ours.height { for x in 0..<ours.width { for c in 0..<3 {
            worst = max(worst, abs(Int(ours.pixel(x: x, row: row)[c]) - Int(theirs.pixel(x: x, row: row)[c])))
        } } }
        #expect(worst <= 6, "\(worst)")
        // Lumen's own recompression rebuilds the JPEG too, with djxl when it is installed.
        let recompressed = try JPEGXL.recompress(jpeg: jpeg)
        #expect(recompressed.count < jpeg.count * 9 / 10, "\(recompressed.count) of \(jpeg.count)")
        #expect(try JPEGXL.reconstructJPEG(from: recompressed) == jpeg)
        let directory = Paths.temporaryDirectory()
        let file = directory.appendingPathComponent("ours.jxl"), rebuilt = directory.appendingPathComponent("rebuilt.jpg")
        try recompressed.write(to: file)
        if let status = try FormatTests.tool("djxl", [file.path, rebuilt.path]) {
            #expect(status == 0 && (try? Data(contentsOf: rebuilt)) == jpeg)
        }
        #expect(throws: LumenError.self) { try JPEGXL.reconstructJPEG(from: try Data(contentsOf: Self.fixture("lossy.jxl"))) }
        #expect(throws: LumenError.self) { try JPEGXL.recompress(jpeg: try Data(contentsOf: Paths.codec("rgb8.png"))) }
    }

    /// Animations written losslessly come back frame for frame with their durations, and djxl reads them.
    @Test func animationsAreWrittenFrameForFrame() throws {
        let a = try FormatTests.photo()
        let b = a.applying("colorInvert")
        let frames = try (0..<4).map { i in
            try FilterRegistry.descriptor(named: "dissolveTransition")!.apply(["image": .image(a), "targetImage": .image(b), "time": .number(Double(i) / 3)])
        }
        let context = RenderContext()
        let data = try context.encodeAnimation(frames, durations: [0.05, 0.1, 0.15, 0.2], format: .jxl(lossless: true))
        let header = try ImageFile.header(of: data)
        #expect(header.format == .jxl && header.frameCount == 4 && header.frameDurations == [0.05, 0.1, 0.15, 0.2], "\(header)")
        for (i, frame) in frames.enumerated() {
            #expect(try render8(try Image(data: data, options: .init(frame: i))) == (try render8(frame, in: a.extent)), "frame \(i)")
        }
        let file = Paths.temporaryDirectory().appendingPathComponent("anim.jxl")
        try data.write(to: file)
        if let status = try FormatTests.tool("djxl", [file.path, file.path + ".png"]) { #expect(status == 0) }
        // Lossy frames too, at cjxl's default distance.
        let lossy = try context.encodeAnimation(frames, durations: [0.1], format: .jxl)
        #expect(try ImageFile.header(of: lossy).frameCount == 4 && lossy.count < data.count)
    }

    /// cjxl's recompression of a JPEG with EXIF orientation 6 carries it in the codestream:
    /// the header reports the stored size and the orientation, and the upright picture is djxl's.
    /// (Found by the real-input corpus: libjxl reports the upright size and orientation 1
    /// unless asked to keep the orientation, while the pixels came stored.)
    @Test func theOrientationFieldIsReportedAndApplied() throws {
        let header = try ImageFile.header(at: Self.fixture("orient-6.jxl"))
        let jpeg = try ImageFile.header(at: Paths.codec("orient-6.jpg"))
        #expect(header.orientation == 6 && header.width == jpeg.width && header.height == jpeg.height, "\(header)")
        let upright = try Image(contentsOf: Self.fixture("orient-6.jxl"))
        let reference = try PAM(contentsOf: Self.fixture("orient-6.jxl.pam"))
        #expect(FormatTests.difference(try render8(upright), reference) == 0)
        let stored = try Image(contentsOf: Self.fixture("orient-6.jxl"), options: .init(appliesOrientation: false))
        #expect(stored.extent.width == Double(jpeg.width) && stored.extent.height == Double(jpeg.height))
    }

    /// Lumen's quality is cjxl's: the same pixels and settings give cjxl's bitstream.
    @Test func qualityMeansWhatCjxlMeans() throws {
        let directory = Paths.temporaryDirectory()
        let png = directory.appendingPathComponent("source.png")
        let context = RenderContext()
        var plain = OutputFormat.png
        plain.metadata = .strip
        try context.write(try FormatTests.photo(), to: png, format: plain)
        for (quality, effort) in [(50, 7), (90, 7), (90, 3)] {
            let ours = directory.appendingPathComponent("ours-\(quality)-\(effort).jxl")
            var format = OutputFormat.jxl(quality: Double(quality) / 100, effort: effort)
            format.metadata = .strip
            try context.write(try Image(contentsOf: png), to: ours, format: format)
            let theirs = directory.appendingPathComponent("cjxl-\(quality)-\(effort).jxl")
            guard try FormatTests.tool("cjxl", [png.path, theirs.path, "-q", "\(quality)", "-e", "\(effort)"]) == 0 else { continue }
            #expect(try Data(contentsOf: ours) == Data(contentsOf: theirs), "q\(quality) e\(effort)")
        }
        #expect(abs(JXLCodec.distance(quality: 90) - 1.0) < 1e-12 && JXLCodec.distance(quality: 100) == 0)
        #expect(abs(JXLCodec.distance(quality: 30) - 6.4) < 1e-9 && abs(JXLCodec.distance(quality: 29.999) - 6.4) < 1e-3)
        #expect(OutputFormat(path: "x.jxl")?.quality == 0.9)
    }

    @Test(arguments: [OutputFormat.jxl(quality: 0.9), .jxl(lossless: true), .jxl(distance: 2, effort: 3), .jxl(depth: 16, lossless: true)])
    func outputsDecodeWithDjxl(_ format: OutputFormat) throws {
        let directory = Paths.temporaryDirectory()
        let image = try FormatTests.photo().applying("colorMatrix", ["aVector": .vector([0, 0, 0, 0.5])])
        let url = directory.appendingPathComponent("out.jxl")
        try RenderContext().write(image, to: url, format: format)
        let header = try ImageFile.header(at: url)
        #expect(header.format == .jxl && header.hasAlpha && header.width == 96 && header.height == 64)
        #expect(header.bitDepth == format.depth)
        let ours = try render8(try Image(contentsOf: url)), original = try render8(image)
        var worst = 0, squares = 0.0
        for row in 0..<64 { for x in 0..<96 { for c in 0..<4 {
            let error = Int(ours.pixel(x: x, row: row)[c]) - Int(original.pixel(x: x, row: row)[c])
            worst = max(worst, abs(error))
            squares += Double(error * error)
        } } }
        let psnr = 10 * log10(255.0 * 255.0 / max(1e-12, squares / Double(64 * 96 * 4)))
        // Lossy: measured 36.8 dB at distance 1 and 32.6 dB at 2 on this 96×64 crop with half alpha.
        #expect(format.lossless ? worst == 0 : psnr >= (format.distance ?? 1 > 1.5 ? 31 : 35), "\(format.distance ?? 1): \(worst), \(psnr) dB")
        let decoded = directory.appendingPathComponent("djxl.png")
        guard let status = try FormatTests.tool("djxl", [url.path, decoded.path]) else { return }
        #expect(status == 0)
        let reference = try render8(try Image(contentsOf: decoded))
        var apart = 0
        for row in 0..<64 { for x in 0..<96 where ours.pixel(x: x, row: row)[3] > 0 { for c in 0..<4 {
            apart = max(apart, abs(Int(ours.pixel(x: x, row: row)[c]) - Int(reference.pixel(x: x, row: row)[c])))
        } } }
        #expect(apart == 0, "\(format): \(apart)")
    }

    /// EXIF, XMP and a wide-gamut profile go into the file's boxes and header, and come back.
    @Test func metadataAndProfilesRoundTrip() throws {
        let directory = Paths.temporaryDirectory()
        let source = try Image(contentsOf: Paths.testdata("formats/p3.jpg"))
        let url = directory.appendingPathComponent("p3.jxl")
        try RenderContext().write(source, to: url, format: .jxl(lossless: true))
        let written = try ImageFile.metadata(at: url), original = try ImageFile.metadata(at: Paths.testdata("formats/p3.jpg"))
        #expect(original.iccProfile != nil)
        #expect(ColorProfile(written.iccProfile)?.description.contains("P3") == true, "\(String(describing: ColorProfile(written.iccProfile)?.description))")
        let photo = directory.appendingPathComponent("photo.jxl")
        try RenderContext().write(try Image(contentsOf: Paths.testdata("photo.jpg")), to: photo, format: .jxl)
        let kept = try ImageFile.metadata(at: photo), jpeg = try ImageFile.metadata(at: Paths.testdata("photo.jpg"))
        #expect(kept.exif?.count ?? 0 > 1000 && kept.xmp == jpeg.xmp)
    }
}

/// `lumen convert --lossless-jpeg`, `--effort` and `--distance` on the command line.
@Suite struct JPEGXLCommandLineTests {
    @Test func losslessJPEGRecompressionFromTheCommandLine() throws {
        let directory = Paths.temporaryDirectory()
        let output = directory.appendingPathComponent("photo.jxl")
        let made = try CommandLineTests.lumen(["convert", "testdata/photo.jpg", "-o", output.path, "--lossless-jpeg", "--effort", "3"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try JPEGXL.reconstructJPEG(from: Data(contentsOf: output)) == Data(contentsOf: Paths.testdata("photo.jpg")))
        // Through standard input and output too.
        let piped = try CommandLineTests.lumen(["convert", "testdata/photo.jpg", "-o", "-", "--format", "jxl", "--lossless-jpeg"])
        #expect(piped.status == 0 && piped.stdout.utf8.count > 1000)
        // What it cannot do is refused before any work, and a failure leaves nothing behind.
        for (arguments, mention) in [(["-o", directory.appendingPathComponent("x.png").path, "--lossless-jpeg"], "JPEG XL"),
                                     (["-o", directory.appendingPathComponent("x.jxl").path, "--lossless-jpeg", "--strip"], "--strip"),
                                     (["-o", directory.appendingPathComponent("x.jxl").path, "--lossless-jpeg", "--quality", "80"], "--quality"),
                                     (["-o", directory.appendingPathComponent("x.jxl").path, "--effort", "12"], "--effort"),
                                     (["-o", directory.appendingPathComponent("x.jxl").path, "--distance", "1", "--quality", "80"], "--distance"),
                                     (["-o", directory.appendingPathComponent("x.jpg").path, "--effort", "3"], "--effort")] {
            let refused = try CommandLineTests.lumen(["convert", "testdata/photo.jpg"] + arguments)
            #expect(refused.status == 2 && refused.stderr.contains(mention), "\(arguments): \(refused.stderr)")
        }
        let notJPEG = try CommandLineTests.lumen(["convert", "testdata/codecs/rgb8.png", "-o", directory.appendingPathComponent("y.jxl").path, "--lossless-jpeg"])
        #expect(notJPEG.status != 0 && notJPEG.stderr.contains("rgb8.png") && notJPEG.stderr.contains("not a JPEG"))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["photo.jxl"], "\(left)")
    }

    @Test func transitionsWriteJPEGXLAnimations() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("dissolve.jxl")
        let made = try CommandLineTests.lumen(["transition", "testdata/codecs/rgb8.png", "testdata/codecs/rgba8.png", "--filter", "dissolve",
                                               "--frames", "5", "--delay", "0.08", "--lossless", "-o", out.path])
        #expect(made.status == 0, "\(made.stderr)")
        let header = try ImageFile.header(at: out)
        #expect(header.format == .jxl && header.frameCount == 5 && header.frameDurations == [Double](repeating: 0.08, count: 5))
        #expect(header.details.contains("lossless"))
    }

    @Test func distanceAndEffortReachTheEncoder() throws {
        let directory = Paths.temporaryDirectory()
        var sizes: [String: Int] = [:]
        for (name, options) in [("d1", ["--distance", "1"]), ("d4", ["--distance", "4"]), ("q90", ["--quality", "90"])] {
            let output = directory.appendingPathComponent("\(name).jxl")
            let result = try CommandLineTests.lumen(["convert", "testdata/photo.jpg", "-o", output.path, "--strip"] + options)
            #expect(result.status == 0, "\(result.stderr)")
            sizes[name] = try Data(contentsOf: output).count
        }
        // Distance 1 is quality 90 (cjxl's mapping); distance 4 is much smaller.
        #expect(sizes["d1"] == sizes["q90"] && sizes["d4"]! < sizes["d1"]! * 2 / 3, "\(sizes)")
    }
}
