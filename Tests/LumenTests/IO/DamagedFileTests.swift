import CTIFF
import Foundation
import Testing
@testable import Lumen

/// Truncated, corrupted and lying files fail with a typed error naming the file, and a
/// failed write leaves no file behind.
@Suite struct DamagedFileTests {
    private func decodeFails(_ url: URL) -> LumenError? {
        do {
            let image = try Image(contentsOf: url)
            _ = try RenderContext().render(image)
            return nil
        } catch let error as LumenError {
            return error
        } catch {
            Issue.record("untyped error \(error)")
            return nil
        }
    }

    static let formats = ["lossy.webp", "alpha-lossless.webp", "anim.webp", "palette.gif", "interlaced.gif", "anim.gif",
                          "rgb8.heic", "rgba8.heic", "rgb10.heic", "grid.heic", "rgb8.avif", "rgba8.avif",
                          "lossy.jxl", "alpha-lossless.jxl", "anim.jxl", "recompressed.jxl"]

    /// (A cut animated GIF keeps its complete frames: `truncatedAnimationsKeepTheirCompleteFrames`.)
    @Test(arguments: ["baseline.jpg", "progressive.jpg", "rgb8.png", "interlaced.png", "rgb-lzw.tif", "rgb16.png"]
          + formats.filter { $0 != "anim.gif" && $0 != "anim.jxl" })
    func truncatedFilesFailCleanly(_ name: String) throws {
        let data = try Data(contentsOf: Self.url(name))
        let directory = Paths.temporaryDirectory()
        for fraction in [0.02, 0.3, 0.6, 0.9, 0.98] {
            let cut = max(9, Int(Double(data.count) * fraction))
            let url = directory.appendingPathComponent("cut-\(cut)-\(name)")
            try data.prefix(cut).write(to: url)
            let error = decodeFails(url)
            #expect(error != nil, "\(name) cut at \(cut) of \(data.count) bytes decoded")
            #expect(error?.description.contains(url.path) == true)
        }
    }

    /// `trials` copies of `data`, each with 4 bytes past the first 8 flipped at places a
    /// seeded generator picks, written to a temporary folder as flip-N-`name`.
    static func flipped(_ data: Data, name: String, seed: UInt64, trials: Int) throws -> [URL] {
        let directory = Paths.temporaryDirectory()
        var generator = SeededGenerator(seed: seed)
        return try (0..<trials).map { trial in
            var damaged = data
            for _ in 0..<4 {
                let at = Int.random(in: 8..<damaged.count, using: &generator)
                damaged[at] ^= UInt8.random(in: 1...255, using: &generator)
            }
            let url = directory.appendingPathComponent("flip-\(trial)-\(name)")
            try damaged.write(to: url)
            return url
        }
    }

    static func url(_ name: String) -> URL {
        formats.contains(name) ? Paths.testdata("formats/\(name)") : Paths.codec(name)
    }

    @Test(arguments: ["baseline.jpg", "rgb8.png", "rgb-deflate.tif"] + formats)
    func flippedBytesNeverCrash(_ name: String) throws {
        let data = try Data(contentsOf: Self.url(name))
        for url in try Self.flipped(data, name: name, seed: 7, trials: 40) {
            _ = decodeFails(url)  // may decode (damage in pixel data) or fail; must not crash
        }
    }

    /// Inputs the fuzzers found (testdata/fuzz): each fails fast and names the file.
    @Test func inputsTheFuzzersFoundFailCleanly() throws {
        // A 6 KB HEIC without a decoder configuration: libde265 took 4.8 GB and 26 s.
        let url = Paths.testdata("fuzz/heic-no-config.heic")
        #expect(throws: LumenError.corrupt(file: url.path, reason: "undefined bit depth (no decoder configuration for the image)")) {
            _ = try Image(contentsOf: url)
        }
        // A grid of a 400×640 picture whose grid box asks for a 48267×27014 canvas: libheif
        // allocated 3.9 GB before Lumen could check; now refused by the size limit it is given.
        let grid = Paths.testdata("fuzz/heic-grid-canvas.heic")
        #expect(throws: LumenError.self) { _ = try RenderContext().render(try Image(contentsOf: grid), format: .rgba8) }
        // An EXR whose damaged header gives 0 scanlines per chunk: a division by zero (SIGFPE) in
        // the chunk count, found by CI's 8-second fuzz of the new EXR codec.
        let exr = Paths.testdata("fuzz/exr-zero-scanlines.exr")
        #expect {
            _ = try RenderContext().render(try Image(contentsOf: exr), format: .rgba8)
        } throws: { error in
            (error as? LumenError)?.description.contains(exr.path) == true
        }
        // A tiled half EXR whose A channel became "a": with the unwanted channel's pointer NULL,
        // OpenEXRCore 3.1's four-channel unpacker wrote to address 0 (CI's fuzz). Read, or
        // refused by name; testdata/exr/rgb-depth-half.exr is the undamaged case.
        let unwanted = Paths.testdata("fuzz/exr-lowercase-alpha.exr")
        do {
            _ = try RenderContext().render(try Image(contentsOf: unwanted), format: .rgba8)
        } catch {
            #expect((error as? LumenError)?.description.contains(unwanted.path) == true, "\(error)")
        }
    }

    /// A 45-byte PNG whose text chunk claims 1.6 GB: libpng would allocate the claim
    /// before reading; the chunk lengths are checked against the file first.
    @Test func aChunkLongerThanTheFileIsRefusedBeforeLibpngAllocatesIt() throws {
        func chunk(_ type: String, _ data: [UInt8], claimed: UInt32? = nil) -> [UInt8] {
            let length = claimed ?? UInt32(data.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let png = header + chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]) + chunk("tEXt", [], claimed: 1_600_000_000)
        let url = Paths.temporaryDirectory().appendingPathComponent("textbomb.png")
        try Data(png).write(to: url)
        #expect(throws: LumenError.corrupt(file: url.path, reason: "chunk tEXt claims 1600000000 bytes, but the file has 0 left")) {
            _ = try ImageFile.header(at: url)
        }
    }

    /// A progressive JPEG whose last scan is repeated 2000 times: every scan walks the
    /// whole image, so it is refused past 500 scans.
    @Test func aJPEGOfThousandsOfScansIsRefused() throws {
        let black = Image(color: Color(red: 0, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 256, height: 256))
        let jpeg = [UInt8](try RenderContext().encode(black, format: .jpeg(progressive: true)))
        var lastScan = 0
        for i in 0..<(jpeg.count - 1) where jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA { lastScan = i }
        let end = jpeg.count - 2  // EOI
        let scan = Array(jpeg[lastScan..<end])
        var bytes = Array(jpeg[..<end])
        for _ in 0..<2000 { bytes += scan }
        bytes += [0xFF, 0xD9]
        let url = Paths.temporaryDirectory().appendingPathComponent("scans.jpg")
        try Data(bytes).write(to: url)
        let error = decodeFails(url)
        #expect(error?.description.contains("more than 500 scans") == true, "\(String(describing: error))")
        // The file it was made from decodes.
        try Data(jpeg).write(to: url)
        #expect(decodeFails(url) == nil)
    }

    /// A JPEG with stray bytes before its end marker: libjpeg decodes it and warns.
    static func jpegWithAWarning() throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: Paths.testdata("photo.jpg")))
        bytes.insert(contentsOf: [0x12, 0x34, 0x56], at: bytes.count - 2)
        let url = Paths.temporaryDirectory().appendingPathComponent("stray-bytes.jpg")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func decoderWarningsAreReportedOrFailWhenAskedTo() throws {
        let url = try Self.jpegWithAWarning()
        let context = RenderContext()
        for image in [try Image(contentsOf: url), try Image(contentsOf: url).applyingGaussianBlur(sigma: 2).cropped(to: Rect(x: 0, y: 0, width: 640, height: 400))] {
            _ = try context.encode(image, format: .png)
            let warnings = context.lastReport?.warnings ?? []
            #expect(warnings.count == 1 && warnings[0].contains(url.path) && warnings[0].contains("Corrupt JPEG data"), "\(warnings)")
        }
        var strict = RenderContext.Options()
        strict.failOnWarning = true
        let target = Paths.temporaryDirectory().appendingPathComponent("strict.png")
        #expect(throws: LumenError.self) { try RenderContext(strict).write(try Image(contentsOf: url), to: target) }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // An undamaged file raises none.
        _ = try context.encode(try Image(contentsOf: Paths.testdata("photo.jpg")), format: .png)
        #expect(context.lastReport?.warnings == [])
    }

    @Test func batchResultsAndTheCommandLineCarryWarnings() throws {
        let url = try Self.jpegWithAWarning()
        let output = Paths.temporaryDirectory()
        let result = try CommandLineTests.lumen(["batch", "-e", "exposureAdjust ev=0.2", url.path, "-o", output.path, "--results", "-"])
        #expect(result.status == 0 && result.stdout.contains("\"warnings\"") && result.stdout.contains("Corrupt JPEG data"))
        #expect(result.stderr.contains("lumen: warning: \(url.path)"))
        let strict = try CommandLineTests.lumen(["convert", "--fail-on", "warning", url.path, "-o", output.appendingPathComponent("x.png").path])
        #expect(strict.status == 2 && strict.stderr.contains("Corrupt JPEG data"))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("x.png").path))
    }

    @Test func truncatedAnimationsKeepTheirCompleteFrames() throws {
        let data = try Data(contentsOf: Self.url("anim.gif"))
        let url = Paths.temporaryDirectory().appendingPathComponent("cut-anim.gif")
        try data.prefix(data.count * 6 / 10).write(to: url)
        let header = try ImageFile.header(at: url)
        #expect(header.frameCount >= 1 && header.frameCount < 4)
        #expect(header.details.contains { $0.hasPrefix("truncated after") })
        let last = try Image(contentsOf: url, options: .init(frame: header.frameCount - 1))
        let reference = try PAM(contentsOf: Paths.testdata("formats/anim.gif.\(header.frameCount - 1).pam"))
        #expect(FormatTests.difference(try render8(last), reference) == 0)
        try data.prefix(40).write(to: url)
        #expect(decodeFails(url) != nil)
    }

    /// A cut JPEG XL animation: libjxl reads frame headers without their pixels, so the
    /// header may count frames whose data is gone. Every frame either decodes to exactly
    /// djxl's pixels or fails naming the file; none comes out half drawn.
    @Test func truncatedJPEGXLAnimationsGiveWholeFramesOrErrors() throws {
        let data = try Data(contentsOf: Self.url("anim.jxl"))
        let directory = Paths.temporaryDirectory()
        var decoded = 0, failed = 0
        for fraction in [0.3, 0.6, 0.9, 0.98] {
            let url = directory.appendingPathComponent("cut-\(Int(fraction * 100))-anim.jxl")
            try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
            for frame in 0..<4 {
                do {
                    let image = try Image(contentsOf: url, options: .init(frame: frame))
                    let reference = try PAM(contentsOf: Paths.testdata("formats/anim.jxl.\(frame).pam"))
                    #expect(FormatTests.difference(try render8(image), reference) == 0, "frame \(frame) of \(url.lastPathComponent)")
                    decoded += 1
                } catch let error as LumenError {
                    #expect(error.description.contains(url.path), "\(error)")
                    failed += 1
                }
            }
        }
        #expect(decoded > 0 && failed > 0, "\(decoded) decoded, \(failed) failed")
    }

    @Test func filesThatLieAboutTheirTypeAreNamed() throws {
        let directory = Paths.temporaryDirectory()
        let text = directory.appendingPathComponent("notes.jpg")
        try Data("hello, not an image".utf8).write(to: text)
        // Every format Lumen reads is named (a codec another test registers, Toy, may be among them).
        guard case .unreadable(let file, let reason)? = decodeFails(text) else { Issue.record("notes.jpg decoded"); return }
        #expect(file == text.path && reason.hasPrefix("not a ") && reason.hasSuffix(" file (the name says jpeg)"), "\(reason)")
        for name in ["JPEG", "PNG", "TIFF", "WebP", "HEIC", "AVIF", "GIF", "JPEG XL"] { #expect(reason.contains(name), "\(reason)") }
        let fakePNG = directory.appendingPathComponent("fake.png")
        try (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 0x41, count: 64)).write(to: fakePNG)
        guard case .corrupt(let file, _)? = decodeFails(fakePNG) else { Issue.record("fake PNG decoded"); return }
        #expect(file == fakePNG.path)
        #expect(decodeFails(directory.appendingPathComponent("missing.png")) == .unreadable(file: directory.appendingPathComponent("missing.png").path, reason: "no such file"))
    }

    @Test func pixelLimitIsCheckedFromTheHeader() throws {
        let url = Paths.codec("rgb8.png")
        #expect(throws: LumenError.tooLarge(file: url.path, pixels: 23 * 17, limit: 100)) {
            _ = try ImageFile.decode(at: url, pixelLimit: 100)
        }
        let context = RenderContext(.init(pixelLimit: 100))
        #expect(throws: LumenError.self) { _ = try context.render(try Image(contentsOf: url)) }
    }

    @Test func failedWriteLeavesNoFile() throws {
        let directory = Paths.temporaryDirectory()
        let target = directory.appendingPathComponent("out.png")
        try Data("precious".utf8).write(to: target)
        let broken = directory.appendingPathComponent("broken.png")
        var data = try Data(contentsOf: Paths.codec("rgb8.png"))
        data = data.prefix(data.count / 2)
        try data.write(to: broken)
        #expect(throws: LumenError.self) { try RenderContext().write(try Image(contentsOf: broken), to: target) }
        #expect(try Data(contentsOf: target) == Data("precious".utf8), "the user's file was touched")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }
}

/// A deterministic random generator (SplitMix64) for seeded tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Smaller defects found while testing, each kept fixed.
@Suite struct SmallDefectTests {
    /// libtiff keeps its last error per thread: one raised by a read between a TIFF
    /// writer's start and its close (a source decoded on the same thread) made the write
    /// fail at close although nothing was wrong with it.
    @Test func anErrorFromAnotherFileDoesNotFailATIFFWrite() throws {
        let layout = EncodeLayout(width: 4, height: 2, channels: 3, depth: 8)
        let encoder = try TIFFEncoder(sink: .memory(name: "<test>"), format: .tiff, layout: layout)
        #expect(CTIFF_open("/nonexistent/lumen.tif", "r") == nil)  // an error on this thread, about another file
        let rows = [UInt8](repeating: 128, count: layout.bytesPerRow * 2)
        try rows.withUnsafeBytes { try encoder.write(RowBand(firstRow: 0, rowCount: 2, bytesPerRow: layout.bytesPerRow, base: $0.baseAddress!)) }
        let data = try #require(try encoder.finish())
        #expect(try Image(data: data).extent.width == 4)
    }

    /// A TIFF whose ImageDescription points past the end of the file: libtiff complains
    /// and ignores the tag; the file converts to TIFF and PNG, with the complaint as a warning.
    @Test func aTIFFLibtiffComplainsAboutStillConverts() throws {
        var bytes = [UInt8](try Data(contentsOf: Paths.codec("rgb-none.tif")))
        #expect(bytes[0] == 0x49)  // little-endian
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let ifd = u32(4), count = u16(ifd)
        var entries = (0..<count).map { Array(bytes[(ifd + 2 + 12 * $0)..<(ifd + 14 + 12 * $0)]) }
        entries.append(le(270, 2) + le(2, 2) + le(1000, 4) + le(0x7FFF_FF00, 4))  // ASCII, 1000 bytes, far away
        entries.sort { Int($0[0]) | Int($0[1]) << 8 < Int($1[0]) | Int($1[1]) << 8 }
        let newIFD = bytes.count + bytes.count % 2
        if bytes.count % 2 == 1 { bytes.append(0) }
        bytes += le(entries.count, 2) + entries.flatMap { $0 } + le(0, 4)
        bytes.replaceSubrange(4..<8, with: le(newIFD, 4))
        let url = Paths.temporaryDirectory().appendingPathComponent("bad-tag.tif")
        try Data(bytes).write(to: url)
        let image = try Image(contentsOf: url)
        for format in [OutputFormat.tiff, .png] {
            let data = try RenderContext().encode(image, format: format)
            #expect(try Image(data: data).extent.width == 23, "\(format.fileFormat)")
        }
    }

    @Test func batchIntoAFileSaysSo() throws {
        let file = Paths.temporaryDirectory().appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let result = try CommandLineTests.lumen(["batch", "-e", "colorInvert", "testdata/codecs/rgb8.png", "-o", file.path])
        #expect(result.status == 2 && result.stderr.contains("is a file, not a folder") && !result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func unreadableFilesSayWhy() throws {
        guard getuid() != 0 else {
            // root reads anything: check the reason with a folder in the way instead.
            let error = openFailure("/nonexistent/x.jpg")
            #expect(error == "No such file or directory")
            return
        }
        let url = Paths.temporaryDirectory().appendingPathComponent("locked.jpg")
        try FileManager.default.copyItem(at: Paths.testdata("photo.jpg"), to: url)
        chmod(url.path, 0)
        #expect(throws: LumenError.unreadable(file: url.path, reason: "cannot open (Permission denied)")) { _ = try Image(contentsOf: url) }
    }
}

/// The formats of the photos of 2026 (OpenEXR, camera RAW, float TIFF, Ultra HDR) cut short
/// and with flipped bytes: each fails with a LumenError naming the file, or decodes; none crashes.
@Suite struct DamagedNewFormatTests {
    static let files = ["exr/rgba-half.exr", "exr/rgba-tiled.exr", "exr/rgb-float-piz.exr", "raw/rggb.dng", "raw/rotated.dng",
                        "tiff-float/rgba-tifffile.tif", "tiff-float/scrgb-vips.tif"]

    /// Renders the file, returning the error (nil when it decoded).
    static func attempt(_ url: URL, options: Image.LoadOptions = .init()) -> (any Error)? {
        do {
            _ = try RenderContext().render(try Image(contentsOf: url, options: options), format: .rgba8)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: files)
    func cutShortFailsNamingTheFile(_ name: String) throws {
        let data = try Data(contentsOf: Paths.testdata(name))
        let whole = try render8(try Image(contentsOf: Paths.testdata(name)))
        let directory = Paths.temporaryDirectory()
        for fraction in [0.02, 0.3, 0.6, 0.9] {
            let url = directory.appendingPathComponent("cut-\(Int(fraction * 100))-\(URL(fileURLWithPath: name).lastPathComponent)")
            try data.prefix(max(9, Int(Double(data.count) * fraction))).write(to: url)
            let error = Self.attempt(url)
            // LibRaw fills what a cut DNG lacks (as dcraw_emu does). A file cut after its pixels
            // (libvips writes a TIFF's tags after its strips) decodes whole, with a warning.
            if name.hasSuffix(".dng") && error == nil { continue }
            if error == nil, let cut = try? render8(try Image(contentsOf: url)), cut.samples == whole.samples { continue }
            #expect(error is LumenError, "\(name) cut at \(fraction): \(String(describing: error))")
            #expect("\(error.map { "\($0)" } ?? "")".contains(url.path), "\(name) cut at \(fraction)")
        }
    }

    @Test(arguments: files)
    func flippedBytesNeverCrash(_ name: String) throws {
        let data = try Data(contentsOf: Paths.testdata(name))
        for (trial, url) in try DamagedFileTests.flipped(data, name: URL(fileURLWithPath: name).lastPathComponent, seed: 11, trials: 30).enumerated() {
            if let error = Self.attempt(url) { #expect(error is LumenError, "\(name) trial \(trial): \(error)") }
        }
    }

    /// An Ultra HDR JPEG cut inside its gain map still has its whole primary: it loads as the
    /// SDR picture, `expandToHDR` finds no map, and a copy announces none.
    @Test func anUltraHDRFileCutInItsGainMapLoadsAsSDR() throws {
        let data = try Data(contentsOf: GainMapTests.file)
        let map = try #require(GainMap.read(fromJPEG: data))
        let url = Paths.temporaryDirectory().appendingPathComponent("cut-ultrahdr.jpg")
        try data.prefix(data.count - (try #require(map.jpeg)).count / 2).write(to: url)
        #expect(GainMap.read(fromJPEG: try Data(contentsOf: url)) == nil)
        let sdr = try render8(try Image(contentsOf: GainMapTests.file))
        #expect(try render8(try Image(contentsOf: url, options: .init(expandToHDR: true))).samples == sdr.samples)
        let copy = Paths.temporaryDirectory().appendingPathComponent("copy-of-cut.jpg")
        try RenderContext().write(try Image(contentsOf: url), to: copy)
        #expect(!GainMap.hasMultiPictureIndex(try Data(contentsOf: copy)))
    }
}
