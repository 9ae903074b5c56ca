import Foundation
import Testing
@testable import Lumen

/// Runs the built `lumen` binary end to end: exit codes, output, files written.
@Suite struct CommandLineTests {
    typealias Result = Finished

    /// The `lumen` built beside this test bundle (whatever `--scratch-path` or
    /// configuration built it), else one in .build.
    static let binary: URL = {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        let build = Paths.root.appendingPathComponent(".build")
        let candidates = [products.appendingPathComponent("lumen")]
            + ["debug", "release"].map { build.appendingPathComponent($0).appendingPathComponent("lumen") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    @discardableResult
    static func lumen(_ arguments: [String], in directory: URL = Paths.root, via program: String? = nil,
                      environment: [String: String] = [:]) throws -> Result {
        try runToEnd(program ?? binary.path, arguments, in: directory, environment: environment)
    }

    @Test func usageErrorsExitTwoWithTheSubcommandsUsage() throws {
        let version = try Self.lumen(["--version"])
        #expect(version.status == 0 && version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let missing = try Self.lumen(["convert"])
        #expect(missing.status == 2 && missing.stderr.contains("Usage: lumen convert"))
        let invalid = try Self.lumen(["convert", "testdata/photo.jpg", "-o", "/tmp/never.jpg", "--quality", "500"])
        #expect(invalid.status == 2 && invalid.stderr.contains("--quality") && invalid.stderr.contains("Usage: lumen convert"))
        let unknown = try Self.lumen(["frobnicate"])
        #expect(unknown.status == 2)
    }

    /// An error a command finds once running (its line parsed by the command alone) names
    /// the whole command in both lines of its usage, nested commands included.
    @Test func errorsFromARunningCommandNameItWhole() throws {
        let cases: [([String], String)] = [
            (["render", "-e", "checkerboard", "-o", "/tmp/never.png"], "lumen render"),
            (["assets", "resolve", "x"], "lumen assets resolve"),
        ]
        for (arguments, command) in cases {
            let result = try Self.lumen(arguments)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("Usage: \(command) ") && result.stderr.contains("See '\(command) --help'"), "\(result.stderr)")
        }
    }

    @Test func transitionsAnswerToShortNames() throws {
        let directory = Paths.temporaryDirectory()
        let pattern = directory.appendingPathComponent("f%02d.png").path
        let result = try Self.lumen(["transition", "testdata/codecs/rgb8.png", "testdata/codecs/rgba8.png", "--filter", "dissolve",
                                     "--frames", "2", "-o", pattern])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("f01.png").path))
    }

    /// `--set` means one thing everywhere: a name and a value written as in a chain. For
    /// `transition` the name is the filter's parameter, and colours and arithmetic work as
    /// they do for a chain's `param` (they were refused as "not a number or vector").
    @Test func transitionSettingsAreChainValues() throws {
        let directory = Paths.temporaryDirectory()
        func frame(_ settings: [String]) throws -> Data {
            let pattern = directory.appendingPathComponent("f\(UUID().uuidString.prefix(6))-%d.png").path
            let result = try Self.lumen(["transition", "testdata/codecs/rgb8.png", "testdata/codecs/rgba8.png", "--filter", "swipe",
                                         "--frames", "3", "-o", pattern] + settings.flatMap { ["--set", $0] })
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: String(format: pattern, 1)))
        }
        // The band crosses the 23×17 picture (the default extent is Core Image's 300×300).
        let band = ["extent=[0, 0, 23, 17]", "width=8", "opacity=0.5"]
        let plain = try frame(band)
        #expect(try frame(["extent=[0, 0, 23, 17]", "width=2*4", "opacity=0.25+0.25"]) == plain)
        let tinted = try frame(band + ["color=#ff8800"])
        #expect(tinted != plain)
        #expect(try frame(band + ["color=rgb(1, 136/255, 0)"]) == tinted)
        let bad = try Self.lumen(["transition", "testdata/codecs/rgb8.png", "testdata/codecs/rgba8.png", "--filter", "swipe",
                                  "--frames", "2", "-o", directory.appendingPathComponent("x%d.png").path, "--set", "width"])
        #expect(bad.status == 2 && bad.stderr.contains("--set takes name=value"))
    }

    /// SIGTERM mid-batch: the outputs being written are removed, finished ones stay, exit 3.
    @Test func aKilledBatchLeavesNoTemporaries() throws {
        let directory = Paths.temporaryDirectory(), out = directory.appendingPathComponent("out")
        let inputs = (0..<6).map { i -> String in
            let url = directory.appendingPathComponent("p\(i).jpg")
            try? FileManager.default.copyItem(at: Paths.testdata("photo.jpg"), to: url)
            return url.path
        }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["batch", "-e", "gaussianBlur radius=6 | crop rectangle=input.extent", "-o", out.path, "--jobs", "2"] + inputs
        process.standardError = Pipe()
        process.standardOutput = Pipe()
        try process.run()
        // Wait until a temporary output exists, then stop the batch.
        let deadline = Date().addingTimeInterval(20)
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { $0.hasSuffix(".tmp") }
        }
        while temporaries().isEmpty && process.isRunning && Date() < deadline { usleep(2000) }
        let caught = !temporaries().isEmpty
        process.terminate()
        process.waitUntilExit()
        #expect(caught, "a temporary output appeared while the batch ran")
        #expect(process.terminationStatus == 3)
        #expect(temporaries().isEmpty, "\(temporaries())")
    }

    @Test func pixelLimitIsAnOption() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("out.png")
        let refused = try Self.lumen(["convert", "testdata/photo.jpg", "-o", out.path, "--pixel-limit", "1000"])
        #expect(refused.status == 2 && refused.stderr.contains("limit of 1000"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let raised = try Self.lumen(["apply", "-e", "colorInvert", "testdata/photo.jpg", "-o", out.path, "--pixel-limit", "1M"])
        #expect(raised.status == 0 && FileManager.default.fileExists(atPath: out.path))
    }

    @Test func infoPrintsHeadersAndJSON() throws {
        let text = try Self.lumen(["info", "testdata/photo.jpg", "testdata/codecs/orient-6.png"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("testdata/photo.jpg: JPEG 640×400"))
        #expect(text.stdout.contains("orient-6.png: PNG 5×3") && text.stdout.contains("orientation 6"))  // upright size
        let json = try Self.lumen(["info", "--json", "testdata/codecs/rgba16.png"])
        let records = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(records?.first?["bitDepth"] as? Int == 16 && records?.first?["alpha"] as? Bool == true)
    }

    @Test func badInputGivesOneLineAndExitTwo() throws {
        let directory = Paths.temporaryDirectory()
        try Data("garbage".utf8).write(to: directory.appendingPathComponent("bad.jpg"))
        let result = try Self.lumen(["convert", directory.appendingPathComponent("bad.jpg").path, "-o", directory.appendingPathComponent("out.png").path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("lumen: ") && result.stderr.contains("bad.jpg") && result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.png").path))
        let info = try Self.lumen(["info", directory.appendingPathComponent("missing.png").path])
        #expect(info.status == 2 && info.stderr.contains("no such file"))
    }

    @Test func convertKeepsSixteenBits() throws {
        let directory = Paths.temporaryDirectory()
        let out = directory.appendingPathComponent("out.tif").path
        #expect(try Self.lumen(["convert", "testdata/codecs/rgb16.png", "-o", out]).status == 0)
        #expect(try Self.lumen(["info", out]).stdout.contains("16-bit"))
        let eight = directory.appendingPathComponent("out8.png").path
        #expect(try Self.lumen(["convert", "testdata/codecs/rgb16.png", "-o", eight, "--depth", "8"]).status == 0)
        #expect(try Self.lumen(["info", eight]).stdout.contains("8-bit"))
        #expect(try Self.lumen(["convert", "testdata/photo.jpg", "-o", directory.appendingPathComponent("x.bmp").path]).status != 0)
    }

    @Test func applyRunsChainsAndOneLiners() throws {
        let directory = Paths.temporaryDirectory()
        let out = directory.appendingPathComponent("v.jpg").path
        let result = try Self.lumen(["apply", "filters/vignette.chain", "testdata/photo.jpg", "-o", out, "--set", "inner=0.5", "--stats"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("cache:"))
        #expect(try Self.lumen(["info", out]).stdout.contains("640×400"))
        let oneLiner = try Self.lumen(["apply", "-e", "gaussianBlur radius=4 | vignetteEffect intensity=1", "testdata/photo.jpg", "-o", directory.appendingPathComponent("o.png").path])
        #expect(oneLiner.status == 0, "\(oneLiner.stderr)")
        let broken = try Self.lumen(["apply", "-e", "gaussianBlur radius=4 | vignete", "testdata/photo.jpg", "-o", directory.appendingPathComponent("b.png").path])
        #expect(broken.status == 2 && broken.stderr.contains("-e:1:25: unknown filter 'vignete'"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("b.png").path))
    }

    @Test func renderNeedsASize() throws {
        let directory = Paths.temporaryDirectory()
        let out = directory.appendingPathComponent("art.png").path
        #expect(try Self.lumen(["render", "filters/artwork.chain", "--size", "80x60", "-o", out]).status == 0)
        #expect(try Self.lumen(["info", out]).stdout.contains("PNG 80×60"))
        #expect(try Self.lumen(["render", "filters/artwork.chain", "--size", "80", "-o", out]).status != 0)
    }

    @Test func batchKeepsGoingAndReports() throws {
        let directory = Paths.temporaryDirectory()
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for name in ["a", "b", "c"] {
            try FileManager.default.copyItem(at: Paths.codec("rgb8.png"), to: inputs.appendingPathComponent("\(name).png"))
        }
        try Data("not a png".utf8).write(to: inputs.appendingPathComponent("broken.png"))
        let out = directory.appendingPathComponent("out").path
        let files = ["a", "b", "broken", "c"].map { inputs.appendingPathComponent("\($0).png").path }
        let result = try Self.lumen(["batch", "-e", "exposureAdjust ev=1", "-o", out, "--format", "jpeg", "--jobs", "2"] + files)
        #expect(result.status == 1)
        #expect(result.stdout.contains("3 written, 0 skipped, 1 failed of 4"))
        #expect(result.stderr.contains("broken.png"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written == ["a.jpg", "b.jpg", "c.jpg"], "no partial or temporary files")
        let again = try Self.lumen(["batch", "-e", "exposureAdjust ev=1", "-o", out, "--format", "jpeg", "--skip-existing", "--json"] + files)
        let summary = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(summary?["skipped"] as? Int == 3 && summary?["failed"] as? Int == 1)
        let fast = try Self.lumen(["batch", "-e", "exposureAdjust ev=1", "-o", directory.appendingPathComponent("o2").path, "--fail-fast", "--jobs", "1"]
                                  + [files[2], files[0]])
        #expect(fast.status == 1 && fast.stdout.contains("0 written"))
    }

    @Test func filtersListsAndDescribes() throws {
        let list = try Self.lumen(["filters", "--category", "blur"])
        #expect(list.status == 0 && list.stdout.contains("gaussianBlur") && !list.stdout.contains("crop"))
        let json = try Self.lumen(["filters", "describe", "CIVignetteEffect", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "vignetteEffect")
        #expect(try Self.lumen(["filters", "describe", "gausianBlur"]).status == 2)
    }

    @Test func explainShowsThePlan() throws {
        let result = try Self.lumen(["explain", "-e", "exposureAdjust ev=1 | colorControls saturation=0.5 | lanczosScale scale=0.25", "testdata/photo.jpg"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("graph as built:") && result.stdout.contains("optimized:"))
        #expect(result.stdout.contains("resampleY") && result.stdout.contains("1/2") && result.stdout.contains("roi"))
    }

    @Test func transitionWritesEveryFrame() throws {
        let directory = Paths.temporaryDirectory()
        let pattern = directory.appendingPathComponent("frames/%02d.png").path
        let result = try Self.lumen(["transition", "testdata/codecs/rgb8.png", "testdata/codecs/rgba8.png", "--filter", "dissolveTransition", "--frames", "3", "-o", pattern])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("frames").path).sorted() == ["00.png", "01.png", "02.png"])
    }
}

@Suite struct TextParameterTests {
    /// A batch of tickets: one QR code per manifest line, its message a URL given as plain
    /// text (a text param takes --set values as text; numbers and colours still parse).
    @Test func aTextParamTakesPlainTextFromTheManifest() throws {
        let directory = Paths.temporaryDirectory()
        let chain = directory.appendingPathComponent("ticket.chain")
        try "param message = \"none\"\nqrCodeGenerator message=message\n".write(to: chain, atomically: true, encoding: .utf8)
        let manifest = directory.appendingPathComponent("m.jsonl")
        let lines = (1...3).map { "{\"input\": \"testdata/codecs/rgb8.png\", \"output\": \"\(directory.path)/t\($0).png\", \"set\": {\"message\": \"https://example.com/ticket/\($0)\"}}" }
        try lines.joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try CommandLineTests.lumen(["batch", chain.path, "--from", manifest.path, "-o", directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try BarcodeTests.decode((1...3).map { directory.appendingPathComponent("t\($0).png") })
        for i in 1...3 {
            #expect(decoded[directory.appendingPathComponent("t\(i).png").path]?.bytes == Data("https://example.com/ticket/\(i)".utf8))
        }
    }
}

@Suite struct GalleryTests {
    @Test func galleryShowsEveryFilter() throws {
        let directory = Paths.temporaryDirectory()
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingLanczosScale(0.1)  // 64×40 keeps debug builds quick
        let entries = try FilterGallery(photo: photo, context: RenderContext()).write(to: directory)
        #expect(entries.count == FilterRegistry.all.count)
        let html = try String(contentsOf: directory.appendingPathComponent("index.html"), encoding: .utf8)
        for filter in FilterRegistry.all {
            #expect(html.contains("src=\"\(filter.name).png\"") && html.contains(filter.coreImageName ?? filter.name), "\(filter.name) missing from index.html")
            let header = try ImageFile.header(at: directory.appendingPathComponent("\(filter.name).png"))
            #expect(header.width > 0 && header.height > 0)
        }
        // Positions are adapted to the photo: the vignette is centred on it.
        let values = FilterGallery(photo: photo, context: RenderContext()).parameters(for: FilterRegistry.descriptor(named: "vignetteEffect")!)
        #expect(values["center"] == .vector([32, 20]))
    }

    /// Every filter accepts the values adapted to a 5120 × 3200 photo (building the graphs
    /// renders nothing, so this stays quick even in a debug build).
    @Test func everyAdaptedValueIsInRangeOnA5KPhoto() throws {
        let big = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingLanczosScale(8)
        #expect(big.extent.width == 5120 && big.extent.height == 3200)
        let full = FilterGallery(photo: big, context: RenderContext(), workingSize: nil)
        #expect(full.photo.extent == big.extent)
        for filter in FilterRegistry.all {
            #expect(throws: Never.self, "\(filter.name)") { _ = try filter.apply(full.parameters(for: filter)) }
        }
    }

    /// A photo larger than the working size is scaled down once, into memory, at the origin.
    @Test func aLargePhotoIsShownOnAScaledCopyHeldInMemory() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        let gallery = FilterGallery(photo: photo, context: RenderContext(), workingSize: 320)
        #expect(gallery.photo.extent == Rect(x: 0, y: 0, width: 320, height: 200))
        let expected = try RenderContext().render(try photo.applyingLanczosScale(0.5), format: .rgbaFloat)
        #expect(try RenderContext().render(gallery.photo, format: .rgbaFloat) == expected)
        for filter in FilterRegistry.all {
            #expect(throws: Never.self, "\(filter.name)") { _ = try filter.apply(gallery.parameters(for: filter)) }
        }
    }

    @Test(arguments: ImageFileFormat.writable)
    func batchWritesEachFormatWithItsOwnExtension(_ format: ImageFileFormat) throws {
        let directory = Paths.temporaryDirectory()
        let result = try CommandLineTests.lumen(["batch", "-e", "exposureAdjust ev=0.5", "testdata/codecs/rgb8.png", "-o", directory.path,
                                     "--format", format.rawValue])
        #expect(result.status == 0, "\(result.stderr)")
        let written = directory.appendingPathComponent("rgb8.\(format.preferredExtension)")
        #expect(try Image(contentsOf: written).fileHeader?.format == format)
        let refused = try CommandLineTests.lumen(["batch", "-e", "exposureAdjust", "testdata/codecs/rgb8.png", "-o", directory.path, "--format", "bmp"])
        #expect(refused.status != 0 && refused.stderr.contains("bmp"))
    }
}

/// `--tiff-compression` reaches libtiff: the file says which scheme it was written with.
@Suite struct TIFFCompressionOptionTests {
    @Test func eachSchemeIsWrittenAndOnlyForTIFF() throws {
        let directory = Paths.temporaryDirectory()
        var sizes: [String: Int] = [:]
        for (scheme, detail) in [("none", "uncompressed"), ("lzw", "LZW"), ("deflate", "Deflate")] {
            let out = directory.appendingPathComponent("\(scheme).tif")
            let result = try CommandLineTests.lumen(["convert", "testdata/photo.jpg", "-o", out.path, "--tiff-compression", scheme])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try ImageFile.header(at: out).details.contains(detail), "\(scheme)")
            sizes[scheme] = try Data(contentsOf: out).count
        }
        // Uncompressed: the 640×400 RGB samples and a header; the others smaller.
        #expect(sizes["none"]! >= 640 * 400 * 3 && sizes["none"]! > sizes["lzw"]! && sizes["none"]! > sizes["deflate"]!, "\(sizes)")
        let refused = try CommandLineTests.lumen(["convert", "testdata/photo.jpg", "-o", directory.appendingPathComponent("x.png").path, "--tiff-compression", "none"])
        #expect(refused.status == 2 && refused.stderr.contains("TIFF"))
        let unknown = try CommandLineTests.lumen(["convert", "testdata/photo.jpg", "-o", directory.appendingPathComponent("x.tif").path, "--tiff-compression", "jpeg"])
        #expect(unknown.status == 2 && unknown.stderr.contains("none, lzw or deflate"))
    }
}
