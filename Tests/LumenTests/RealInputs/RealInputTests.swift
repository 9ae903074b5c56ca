import Foundation
import Testing
@testable import Lumen

/// Files nobody here made: sample images from Debian and PyPI packages (gdk-pixbuf's and
/// SDL_image's test files, PngSuite and libjxl's test data, scikit-image, matplotlib,
/// Pillow's and pillow-heif's test images, ImageMagick's documentation…;
/// scripts/fetch-real-inputs.sh, run by scripts/setup, into ~/.cache/lumen-real-inputs;
/// PROVENANCE.md), and files vips, ImageMagick, exiftool, heif-enc, cwebp, tiffcp and cjxl write
/// as users run them (scripts/real-input-cases.py). Every file is read (or refused cleanly
/// when no reference decoder reads it either), converted to each format and thumbnailed;
/// each output is decoded by Pillow (scripts/real-input-check.py) and compared with Pillow's,
/// vips's or (for JPEG XL) djxl's decode of the input. A new format or option joins this corpus first.
@Suite(.serialized) struct RealInputTests {
    struct Case: Decodable {
        let file: String, origin: String, kind: String, format: String
        let width: Int?, height: Int?, frames: Int?, hasAlpha: Bool?
        let ref: String?, refNotes: [String]?, undecodable: String?, refPartial: Bool?, pillowError: String?, note: String?
        var name: String { (file as NSString).lastPathComponent }
    }
    struct Corpus: Decodable { let cases: [Case] }

    static let corpus: (folder: URL, cases: [Case]) = {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let cache = ProcessInfo.processInfo.environment["LUMEN_REAL_INPUTS"] ?? home + "/.cache/lumen-real-inputs"
        let folder = Paths.temporaryDirectory()
        guard FileManager.default.fileExists(atPath: cache + "/.complete"),
              (try? runScript("real-input-cases.py", [cache, folder.path], hint: "needs vips, ImageMagick, exiftool, heif-enc, cwebp, tiffcp, Pillow, pillow-heif")) != nil,
              let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
              let corpus = try? JSONDecoder().decode(Corpus.self, from: data) else { return (folder, []) }
        return (folder, corpus.cases)
    }()

    /// Files Lumen refuses on purpose, though a reference decoder pads or guesses: truncated or
    /// corrupt files get a clear error (README), and old-style JPEG TIFFs are refused (issue 22).
    /// The test checks that each is refused with a LumenError naming it.
    static let refusedOnPurpose: [String: String] = [
        "premature-end.jpg": "truncated JPEG (Pillow and vips pad it with grey)",
        "ultrahdr.jpg": "truncated JPEG: Pillow's test file keeps 48 KB of a 513 KB Ultra HDR photo",
        "truncated.heic": "truncated HEIC (pillow-heif's newer libheif shows what arrived)",
        "invalid.2.png": "a row filter type PNG does not have (libvips and Pillow warn and go on)",
        "old-style-jpeg-compression.tif": "TIFF 6.0's withdrawn old-style JPEG",
    ]

    /// Where Lumen and the reference decoders disagree and the references are not the truth.
    static let referenceDifferences: [String: String] = [
        "high-color.gif": "the first frame covers a quarter of a canvas with no global palette: Lumen leaves the rest transparent, as browsers do; Pillow and vips paint it black",
        "10ct_32bit_128.tiff": "32-bit float gray from −3.14 to 3.14 with no photometric tag: Lumen reads floats as linear light, as libvips reads scRGB (vips refuses this file for the missing tag); Pillow takes them as 0…255",
        "xmp_tags_orientation.png": "an orientation in XMP only: Pillow applies it, Lumen (like libvips, exiftool's -n Orientation of EXIF, and browsers) reads orientation from EXIF",
    ]

    /// What Lumen should read and does not yet: recorded as known issues, so fixing one shows.
    static let gaps: [String: String] = [
        "max-codes.gif": "giflib 5.2 refuses an LZW minimum code size above 8 (this GIF test-suite file uses 11; Pillow and libnsgif read it)",
        "star.avifs": "an AVIF sequence: libheif 1.15 reads its still item, whose alpha differs from libavif's first frame by 7.6 levels on average (heif-convert 1.15 and vips refuse the file)",
    ]

    @Test func theCorpusIsThere() {
        let cases = Self.corpus.cases
        #expect(cases.count > 150, "no real-input corpus: run scripts/setup (scripts/fetch-real-inputs.sh)")
        for format in ["jpeg", "png", "tiff", "webp", "heic", "avif", "gif", "jxl"] { #expect(cases.contains { $0.format == format }, "\(format)") }
        #expect(cases.contains { $0.kind != "corpus" }, "files written by the reference tools")
    }

    /// A file no reference decoder reads is refused with a LumenError naming it, never a crash
    /// or another error (Lumen may also read what the references refuse: then it renders).
    @Test func whatNoReferenceReadsIsRefusedCleanly() {
        for c in Self.corpus.cases where c.undecodable != nil || Self.refusedOnPurpose[c.name] != nil {
            do {
                let image = try Image(contentsOf: URL(fileURLWithPath: c.file))
                let e = image.extent
                _ = try RenderContext().render(image, in: Rect(x: e.minX, y: e.minY, width: min(e.width, 64), height: min(e.height, 64)))
                #expect(Self.refusedOnPurpose[c.name] == nil, "\(c.name) decoded: \(Self.refusedOnPurpose[c.name] ?? "")")
            } catch let error as LumenError {
                #expect(error.description.contains(c.name), "\(c.name): \(error)")
            } catch {
                Issue.record("\(c.name): not a LumenError: \(error)")
            }
        }
    }

    struct Check: Encodable { let ref: String, output: String, kind: String, region: [Int] }
    struct Result: Decodable {
        let width: Int?, height: Int?, meanDiff: Double?, p99Diff: Double?, maxDiff: Double?, psnr: Double?, refPsnr: Double?, error: String?
    }

    /// What one case gives: its outputs to check, and what went wrong making them.
    struct Produced {
        var outputs: [(check: Check, label: String)] = []
        var problems: [String] = []
    }

    /// Reads case `c` (number `index`), converts the middle of it to each format and
    /// thumbnails it into `folder`. Records nothing itself: it runs on worker threads.
    static func produce(_ c: Case, index: Int, ref: String, folder: URL, context: RenderContext) -> Produced {
        var produced = Produced()
        let image: Image
        do { image = try Image(contentsOf: URL(fileURLWithPath: c.file)) } catch {
            if c.refPartial == nil && c.pillowError == nil { produced.problems.append("\(c.name) (\(c.origin)): \(error)") }
            return produced
        }
        let refHeader: ImageHeader
        do { refHeader = try ImageFile.header(at: URL(fileURLWithPath: ref)) } catch {
            produced.problems.append("\(c.name): its reference \(ref): \(error)")
            return produced
        }
        let e = image.extent
        guard Int(e.width) == refHeader.width && Int(e.height) == refHeader.height else {
            produced.problems.append("\(c.name): upright \(Int(e.width))×\(Int(e.height)), the reference \(refHeader.width)×\(refHeader.height)")
            return produced
        }
        // Frames of an animation (GIF, WebP): what Pillow counts; JPEG XL: the frames jxlinfo
        // lists as shown. (Pillow also counts a TIFF's pages, a HEIF's top-level images and
        // an APNG's frames, which Lumen does not read as frames.)
        if let frames = c.frames, ["gif", "webp", "jxl"].contains(c.format) {
            let counted = (try? ImageFile.header(at: URL(fileURLWithPath: c.file)))?.frameCount
            if counted != frames { produced.problems.append("\(c.name): \(counted ?? -1) frames, Pillow counts \(frames)") }
        }
        // The middle of the picture, at most 384 pixels a side, in the reference's pixels (top-left origin).
        let w = min(refHeader.width, 384), h = min(refHeader.height, 384)
        let x = (refHeader.width - w) / 2, y = (refHeader.height - h) / 2
        let rect = Rect(x: e.minX + Double(x), y: e.maxY - Double(y + h), width: Double(w), height: Double(h))
        let region = image.cropped(to: rect)
        let opaque = !(c.hasAlpha ?? true)
        for ext in ["png", "tif"] + (opaque ? ["jpg", "webp", "heic"] : []) {
            var format = OutputFormat(fileFormat: ImageFileFormat(pathExtension: ext)!, depth: 8)
            format.profile = .sRGB
            format.metadata = .strip
            let out = folder.appendingPathComponent("\(index).\(ext)")
            do { try context.write(region, to: out, format: format) } catch {
                produced.problems.append("\(c.name) → \(ext): \(error)")
                continue
            }
            produced.outputs.append((Check(ref: ref, output: out.path, kind: ext == "png" ? "decode" : "convert", region: [x, y, w, h]), ext))
        }
        let thumbnail = folder.appendingPathComponent("\(index).thumb.png")
        var png = OutputFormat(fileFormat: .png, depth: 8)
        png.profile = .sRGB
        do {
            try context.write(try Thumbnail(width: 96, height: 96).apply(to: image, context: context), to: thumbnail, format: png)
            produced.outputs.append((Check(ref: ref, output: thumbnail.path, kind: "thumbnail", region: [0, 0, refHeader.width, refHeader.height]),
                                     "thumbnail"))
        } catch {
            produced.problems.append("\(c.name) → thumbnail: \(error)")
        }
        return produced
    }

    @Test func everyFileReadsConvertsAndThumbnailsAsTheReferencesSeeIt() throws {
        let folder = Paths.temporaryDirectory()
        var checks: [Check] = [], labels: [(Case, String)] = []
        let context = RenderContext()
        var work: [(index: Int, c: Case, ref: String)] = []
        for (index, c) in Self.corpus.cases.enumerated() {
            guard let ref = c.ref, Self.refusedOnPurpose[c.name] == nil, Self.referenceDifferences[c.name] == nil else { continue }
            if let gap = Self.gaps[c.name] {
                withKnownIssue("\(c.name): \(gap)") { Issue.record("a gap") }
                continue
            }
            work.append((index, c, ref))
        }
        // Two cases at a time (the checks are independent), recorded in the corpus's order.
        let produced = LockedValue([Produced?](repeating: nil, count: work.count))
        DispatchQueue.concurrentPerform(iterations: work.count) { i in
            let item = work[i]
            let result = Self.produce(item.c, index: item.index, ref: item.ref, folder: folder, context: context)
            produced.withLock { $0[i] = result }
        }
        for (item, result) in zip(work, produced.withLock { $0 }) {
            guard let result else { Issue.record("\(item.c.name): not produced"); continue }
            for problem in result.problems { Issue.record(Comment(rawValue: problem)) }
            for output in result.outputs {
                checks.append(output.check)
                labels.append((item.c, output.label))
            }
        }
        #expect(checks.count > 500, "only \(checks.count) outputs checked")
        let manifest = folder.appendingPathComponent("manifest.json")
        try JSONEncoder().encode(checks).write(to: manifest)
        let results = try JSONDecoder().decode([Result].self, from: Data(try runScript("real-input-check.py", [manifest.path], hint: "needs Pillow, pillow-heif, numpy").utf8))
        var worst: [String: Double] = [:]
        var decoded: [String: Double] = [:]  // each case's lossless decode (its PNG), against the reference
        for ((c, what), (check, r)) in zip(labels, zip(checks, results)) {
            let label = "\(c.name) → \(what) (\(c.origin.prefix(60)))"
            if let error = r.error { Issue.record("\(label): \(error)"); continue }
            guard let mean = r.meanDiff, let p99 = r.p99Diff, let psnr = r.psnr else { continue }
            // Where the reference is an approximation (Pillow's naive CMYK, cut 16-bit
            // samples…) only gross differences count.
            let approximate = !(c.refNotes ?? []).isEmpty
            if what == "png" { decoded[c.name] = psnr }
            switch check.kind {
            case "decode" where !approximate, "convert" where what == "tif" && !approximate:
                #expect(mean <= 1 && p99 <= 4, "\(label): mean \(mean), 99th percentile \(p99), max \(r.maxDiff ?? 0) levels")
            case "thumbnail":
                let long = max(r.width ?? 0, r.height ?? 0)
                #expect(long == 96, "\(label): \(r.width ?? 0)×\(r.height ?? 0)")
                // Two Lanczos resamplers in linear light: they differ by a few levels at edges.
                #expect(psnr >= 30 || approximate, "\(label): \(psnr) dB against Pillow's Lanczos in linear light")
            case "convert" where r.refPsnr != nil:
                // As close to the picture as Pillow's own encoder at the same settings, within
                // 1.5 dB — or as close as Lumen's own decode, which its encoder starts from: Pillow
                // encodes the reference itself, and on flat pictures (pq_gradient.jxl's seven
                // bands) reproduces it exactly (99 dB), which no encode of a decode one level
                // off in places can reach.
                let ceiling = min(r.refPsnr!, decoded[c.name] ?? r.refPsnr!)
                #expect(psnr >= ceiling - 1.5 || approximate, "\(label): \(psnr) dB, Pillow's encoder \(r.refPsnr!) dB, Lumen's decode \(decoded[c.name] ?? .nan) dB")
            default:
                #expect(psnr >= 20, "\(label): \(psnr) dB (approximate reference: \(c.refNotes ?? []))")
            }
            worst[what] = min(worst[what] ?? 99, psnr)
        }
        print("real inputs: \(checks.count) outputs of \(Set(labels.map(\.0.file)).count) files; lowest PSNR by output: \(worst.sorted { $0.key < $1.key })")
    }
}
