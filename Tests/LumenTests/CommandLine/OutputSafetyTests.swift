import Foundation
import Testing
@testable import Lumen

/// What the command line must never do to a user's files, and what its options promise
/// (issue 22, item 9): outputs that are inputs, extents, pure JSON results, sizes and names.
@Suite struct OutputSafetyTests {
    func lumen(_ arguments: [String], _ folder: URL) throws -> CommandLineTests.Result { try CommandLineTests.lumen(arguments, in: folder) }

    /// Two copies of the bundled photo in a fresh folder.
    func folderWithPhotos() throws -> URL {
        let folder = Paths.temporaryDirectory()
        for name in ["a.jpg", "b.jpg"] {
            try FileManager.default.copyItem(at: Paths.testdata("photo.jpg"), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    @Test func anOutputThatIsAnInputIsRefusedBeforeAnyWork() throws {
        let folder = try folderWithPhotos()
        let original = try Data(contentsOf: Paths.testdata("photo.jpg"))
        let a = folder.appendingPathComponent("a.jpg").path, b = folder.appendingPathComponent("b.jpg").path
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.jpg").path, withDestinationPath: a)
        let attempts: [[String]] = [
            ["thumbnail", a, b, "-s", "100", "-o", folder.path + "/"],   // lumen thumbnail d/*.jpg -o d/
            ["batch", "-e", "vignette", "a.jpg", "-o", "."],               // lumen batch … -o .
            ["convert", "a.jpg", "-o", "../" + folder.lastPathComponent + "/a.jpg"],
            ["convert", "link.jpg", "-o", "a.jpg"],                         // the same file through a link
            ["apply", "-e", "vignette", "b.jpg", "-o", "./b.jpg"],
        ]
        for arguments in attempts {
            let result = try lumen(arguments, folder)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("never writes over an input"), "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == original)
        #expect(try Data(contentsOf: URL(fileURLWithPath: b)) == original)
    }

    @Test func applyKeepsTheInputExtentUnlessAskedToGrow() throws {
        let folder = try folderWithPhotos()
        let kept = try lumen(["apply", "-e", "gaussianBlur radius=4", "a.jpg", "-o", "kept.png"], folder)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try Image(contentsOf: folder.appendingPathComponent("kept.png")).extent == Rect(x: 0, y: 0, width: 640, height: 400))
        let grown = try lumen(["apply", "-e", "gaussianBlur radius=4", "a.jpg", "-o", "grown.png", "--extent", "grown"], folder)
        #expect(grown.status == 0, "\(grown.stderr)")
        // Core Image's extent: 3σ (12 pixels) more on every side.
        #expect(try Image(contentsOf: folder.appendingPathComponent("grown.png")).extent.width == 664)
        // Geometry steps still place pixels where they say: a blur, then half size.
        let scaled = try lumen(["apply", "-e", "gaussianBlur radius=4 | lanczosScale scale=0.5", "a.jpg", "-o", "half.png"], folder)
        #expect(scaled.status == 0, "\(scaled.stderr)")
        let half = try Image(contentsOf: folder.appendingPathComponent("half.png")).extent
        #expect(half.width == 320 && half.height == 200)
        // The kept blur equals the grown one cropped to the photo (inside it, the pixels are the same).
        let keptPixels = try render8(Image(contentsOf: folder.appendingPathComponent("kept.png")))
        let grownPixels = try render8(Image(contentsOf: folder.appendingPathComponent("grown.png")), in: Rect(x: 12, y: 12, width: 640, height: 400))
        #expect(keptPixels.samples == grownPixels.samples)
    }

    @Test func resultsOnStandardOutputArePureJSONLines() throws {
        let folder = try folderWithPhotos()
        for json in [false, true] {
            let result = try lumen(["batch", "-e", "vignette", "a.jpg", "b.jpg", "-o", "out\(json)", "--results", "-"] + (json ? ["--json"] : []), folder)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 2)
            for line in lines {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["status"] as? String == "ok", "\(line)")
            }
            #expect(result.stderr.contains(json ? "\"succeeded\"" : "2 written"))
        }
    }

    @Test func thumbnailSizesMayLeaveOneSideFree() throws {
        let folder = try folderWithPhotos()
        for (size, expected) in [("100x", (100, 63)), ("x50", (80, 50)), ("120", (120, 75))] {
            let result = try lumen(["thumbnail", "a.jpg", "-s", size, "-o", "t" + size], folder)
            #expect(result.status == 0, "\(result.stderr)")
            let extent = try Image(contentsOf: folder.appendingPathComponent("t\(size)/a.jpg")).extent
            #expect(Int(extent.width) == expected.0 && Int(extent.height) == expected.1, "\(size): \(extent)")
        }
        let crop = try lumen(["thumbnail", "a.jpg", "-s", "x50", "--crop", "centre", "-o", "c"], folder)
        #expect(crop.status == 2 && crop.stderr.contains("both sides"))
        for bad in ["x", "0x10", "10x-3", "axb", "99999999x1"] {
            let result = try lumen(["thumbnail", "a.jpg", "-s", bad, "-o", "bad"], folder)
            #expect(result.status == 2 && result.stderr.contains("--size"), "\(bad): \(result.stderr)")
        }
    }

    @Test func thumbnailsAreNamedByATemplateInTheirOwnFormat() throws {
        let folder = try folderWithPhotos()
        let result = try lumen(["thumbnail", "a.jpg", "b.jpg", "-s", "64", "-o", "tn", "--name", "tn_%s.webp"], folder)
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["tn_a.webp", "tn_b.webp"] {
            let data = try Data(contentsOf: folder.appendingPathComponent("tn/\(name)"))
            #expect(data.prefix(4) == Data("RIFF".utf8) && data.dropFirst(8).prefix(4) == Data("WEBP".utf8), "\(name)")
        }
        let noName = try lumen(["thumbnail", "a.jpg", "-s", "64", "-o", "tn2", "--name", "tn.jpg"], folder)
        #expect(noName.status == 2 && noName.stderr.contains("%s"))
    }

    @Test func anOutputFolderThatCannotBeMadeIsSaidInWords() throws {
        let folder = try folderWithPhotos()
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent("file").path, contents: Data()))
        for arguments in [["batch", "-e", "vignette", "a.jpg", "-o", "file/sub"],
                          ["thumbnail", "a.jpg", "-s", "10", "-o", "file/sub"],
                          ["transition", "a.jpg", "b.jpg", "--filter", "dissolve", "--frames", "2", "-o", "file/%02d.png"],
                          ["convert", "a.jpg", "-o", "file/sub/x.png"]] {
            let result = try lumen(arguments, folder)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("is a file, not a folder") || result.stderr.contains("not a directory"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("(null)"), "\(result.stderr)")
        }
    }

    @Test func framePatternsTakeOneNumberAndNothingElse() throws {
        let folder = try folderWithPhotos()
        // %s or %@ would read a pointer that is not there: refused before anything runs.
        for bad in ["f%s.png", "f%d%d.png", "f%n.png", "%@.png", "%1$d.png", "f%99999d.png"] {
            let result = try lumen(["transition", "a.jpg", "b.jpg", "--filter", "dissolve", "--frames", "2", "-o", bad], folder)
            #expect(result.status == 2 && result.stderr.contains("frame pattern"), "\(bad): \(result.stderr)")
        }
        let good = try lumen(["transition", "a.jpg", "b.jpg", "--filter", "dissolve", "--frames", "2", "-o", "100%%-%02d.png"], folder)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("100%-01.png").path))
    }

    /// SIGTERM while `apply` writes: no temporary file stays, and the output is not there.
    @Test func aKilledApplyLeavesNoTemporary() throws {
        let folder = try folderWithPhotos()
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.currentDirectoryURL = folder
        process.arguments = ["apply", "-e", "lanczosScale scale=6 | gaussianBlur radius=20", "a.jpg", "-o", "big.png", "--threads", "1"]
        process.standardError = Pipe()
        process.standardOutput = Pipe()
        try process.run()
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".tmp") }
        }
        let deadline = Date().addingTimeInterval(30)
        while temporaries().isEmpty && process.isRunning && Date() < deadline { usleep(2000) }
        let caught = !temporaries().isEmpty
        process.terminate()
        process.waitUntilExit()
        #expect(caught, "a temporary output appeared while apply ran")
        #expect(process.terminationStatus == 3)
        #expect(temporaries().isEmpty, "\(temporaries())")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("big.png").path))
    }
}

/// Metadata kept by kind, and the location dropped alone, checked with exiftool.
@Suite struct MetadataKindTests {
    func exiftool(_ arguments: [String]) throws -> [String: Any] {
        let json = try runReferenceTool(["exiftool", "-json", "-G"] + arguments, hint: "scripts/setup installs exiftool")
        return (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first ?? [:]
    }

    @Test func gpsIsDroppedAloneAndKindsAreKeptByName() throws {
        let folder = Paths.temporaryDirectory()
        let input = folder.appendingPathComponent("located.jpg")
        try FileManager.default.copyItem(at: Paths.testdata("photo.jpg"), to: input)
        _ = try runReferenceTool(["exiftool", "-q", "-overwrite_original", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N",
                                  "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", "-XMP-exif:GPSLatitude=48.8584 N",
                                  "-Artist=Ada Lovelace", "-XMP-dc:Title=Tower", input.path], hint: "exiftool")
        let before = try exiftool([input.path])
        #expect(before["EXIF:GPSLatitude"] != nil && before["XMP:GPSLatitude"] != nil, "the fixture has a location")
        for ext in ["jpg", "png", "webp"] {
            let output = folder.appendingPathComponent("out.\(ext)")
            let result = try CommandLineTests.lumen(["convert", input.path, "-o", output.path, "--strip-gps"])
            #expect(result.status == 0, "\(result.stderr)")
            let tags = try exiftool([output.path])
            #expect(!tags.keys.contains { $0.contains("GPS") }, "\(ext): \(tags.keys.filter { $0.contains("GPS") })")
            #expect(tags["EXIF:Artist"] as? String == "Ada Lovelace" && tags["XMP:Title"] as? String == "Tower", "\(ext)")
            // No trace of the XMP location in the bytes either (the input has it).
            #expect(try Data(contentsOf: input).range(of: Data("GPSLatitude".utf8)) != nil)
            #expect(try Data(contentsOf: output).range(of: Data("GPSLatitude".utf8)) == nil, "\(ext)")
        }
        let output = folder.appendingPathComponent("exif-only.jpg")
        let result = try CommandLineTests.lumen(["convert", input.path, "-o", output.path, "--keep", "exif,icc"])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try exiftool([output.path])
        #expect(tags["EXIF:Artist"] as? String == "Ada Lovelace" && tags["EXIF:GPSLatitude"] != nil)
        #expect(tags["XMP:Title"] == nil && !tags.keys.contains { $0.hasPrefix("IPTC:") })
        let bad = try CommandLineTests.lumen(["convert", input.path, "-o", output.path, "--keep", "exif,location"])
        #expect(bad.status == 2 && bad.stderr.contains("--keep"))
    }

    /// EXIF pixel sizes follow the output whatever the input's format: a HEIC made from the
    /// tagged photo (96×64 once upright), halved into a JPEG, says 48×32.
    @Test func exifSizesFollowTheOutputFromHEIC() throws {
        let folder = Paths.temporaryDirectory()
        let heic = folder.appendingPathComponent("tagged.heic").path, half = folder.appendingPathComponent("half.jpg").path
        #expect(try CommandLineTests.lumen(["convert", Paths.testdata("formats/tagged.jpg").path, "-o", heic]).status == 0)
        #expect(try CommandLineTests.lumen(["apply", "-e", "lanczosScale scale=0.5", heic, "-o", half]).status == 0)
        let tags = try exiftool([half])
        #expect(tags["EXIF:ExifImageWidth"] as? Int == 48 && tags["EXIF:ExifImageHeight"] as? Int == 32, "\(tags)")
    }
}

/// A file that needs more memory than the process may use is refused, saying how much it
/// needs, and never aborts the process: under --memory-limit and under `ulimit -v`.
@Suite struct MemoryLimitTests {
    /// A 12000×12000 interlaced PNG (Adam7 is decoded whole by libpng: 432 MB), written by vips.
    static let interlaced: URL = {
        let url = Paths.temporaryDirectory().appendingPathComponent("interlaced.png")
        let black = url.deletingLastPathComponent().appendingPathComponent("black.v").path
        _ = try? runReferenceTool(["vips", "black", black, "12000", "12000", "--bands", "3"], hint: "vips")
        _ = try? runReferenceTool(["vips", "pngsave", black, url.path, "--interlace", "--compression", "1"], hint: "vips")
        return url
    }()

    @Test func aDecodeOverTheLimitIsRefusedWithWhatItNeeds() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("out.jpg").path
        let refused = try CommandLineTests.lumen(["convert", Self.interlaced.path, "-o", out, "--memory-limit", "100M"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("interlaced.png") && refused.stderr.contains("needs 434 MB"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func ulimitIsRespected() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("out.jpg").path
        func underLimit(_ kilobytes: Int, _ input: String) throws -> CommandLineTests.Result {
            try CommandLineTests.lumen(["/bin/bash", "-c", "ulimit -v \(kilobytes); exec \"$0\" convert \"$1\" -o \"$2\"",
                                        CommandLineTests.binary.path, input, out].dropFirst().map { $0 }, in: Paths.root, via: "/bin/bash")
        }
        // 1.2 GB of address space: the 432 MB decode is refused cleanly (it used to abort with SIGABRT) …
        let refused = try underLimit(1_200_000, Self.interlaced.path)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("needs 434 MB"), "\(refused.stderr)")
        // … while an ordinary photo converts under the same limit.
        let photo = try underLimit(1_200_000, Paths.testdata("photo.jpg").path)
        #expect(photo.status == 0, "\(photo.stderr)")
    }

    /// Under a memory cgroup's limit (as systemd-run, Docker and Kubernetes set it), made
    /// here directly: v2 when the process is in a v2 hierarchy, else v1's memory controller.
    /// Needs root and a writable cgroup file system; CI runs as root.
    @Test func aCgroupLimitIsRespected() throws {
        let groups = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        let v1 = groups.split(separator: "\n").contains { $0.split(separator: ":").dropFirst().first?.split(separator: ",").contains("memory") == true }
        let name = "lumen-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let folder = v1 ? "/sys/fs/cgroup/memory/" + name : "/sys/fs/cgroup/" + name
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)) != nil else {
            withKnownIssue("no writable memory cgroup here (not root, or the cgroup file system is read-only)") { Issue.record("skipped") }
            return
        }
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let limitFile = folder + (v1 ? "/memory.limit_in_bytes" : "/memory.max")
        try "400000000".write(toFile: limitFile, atomically: false, encoding: .utf8)
        let out = Paths.temporaryDirectory().appendingPathComponent("out.jpg").path
        func inGroup(_ input: String) throws -> CommandLineTests.Result {
            try CommandLineTests.lumen(["/bin/bash", "-c", "echo $$ > \"$3\" && exec \"$0\" convert \"$1\" -o \"$2\"",
                                        CommandLineTests.binary.path, input, out, folder + "/cgroup.procs"].dropFirst().map { $0 },
                                       in: Paths.root, via: "/bin/bash")
        }
        // 400 MB: the 432 MB decode is refused cleanly, saying what it needs (not killed by the OOM killer) …
        let refused = try inGroup(Self.interlaced.path)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("interlaced.png") && refused.stderr.contains("needs 434 MB"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // … while an ordinary photo converts in the same group.
        let photo = try inGroup(Paths.testdata("photo.jpg").path)
        #expect(photo.status == 0, "\(photo.stderr)")
    }
}

/// JPEG's subsampling and progressive scans and PNG's level and filters, from the command
/// line, read back by exiftool and by size.
@Suite struct EncodingOptionTests {
    @Test func jpegAndPNGOptionsReachTheFiles() throws {
        let folder = Paths.temporaryDirectory()
        let photo = Paths.testdata("photo.jpg").path
        func tags(_ path: String) throws -> [String: Any] {
            let json = try runReferenceTool(["exiftool", "-json", "-G", path], hint: "exiftool")
            return (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first ?? [:]
        }
        let plain = folder.appendingPathComponent("plain.jpg").path, tuned = folder.appendingPathComponent("tuned.jpg").path
        #expect(try CommandLineTests.lumen(["convert", photo, "-o", plain]).status == 0)
        #expect(try CommandLineTests.lumen(["convert", photo, "-o", tuned, "--subsampling", "444", "--progressive"]).status == 0)
        #expect((try tags(plain))["File:EncodingProcess"] as? String == "Baseline DCT, Huffman coding")
        #expect((try tags(tuned))["File:EncodingProcess"] as? String == "Progressive DCT, Huffman coding")
        #expect(((try tags(plain))["File:YCbCrSubSampling"] as? String)?.contains("4:2:0") == true)
        #expect(((try tags(tuned))["File:YCbCrSubSampling"] as? String)?.contains("4:4:4") == true)
        var sizes: [String: Int] = [:]
        for (name, options) in [("fast", ["--png-compression", "0"]), ("small", ["--png-compression", "9"]),
                                ("none", ["--png-compression", "9", "--png-filter", "none"])] {
            let path = folder.appendingPathComponent("\(name).png").path
            let result = try CommandLineTests.lumen(["convert", photo, "-o", path] + options)
            #expect(result.status == 0, "\(result.stderr)")
            sizes[name] = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            // Every setting writes the same pixels.
            #expect(try render8(Image(contentsOf: URL(fileURLWithPath: path))).samples
                    == render8(Image(contentsOf: folder.appendingPathComponent("fast.png"))).samples)
        }
        // Level 0 stores (640×400×3 bytes and more); 9 with adaptive filters beats 9 without any on a photo.
        #expect(sizes["fast", default: 0] > 640 * 400 * 3 && sizes["small", default: 0] < sizes["none", default: 0], "\(sizes)")
        let bad = try CommandLineTests.lumen(["convert", photo, "-o", folder.appendingPathComponent("x.png").path, "--png-filter", "median"])
        #expect(bad.status == 2 && bad.stderr.contains("--png-filter"))
    }
}

/// Every failure the README lists, as a user meets it: the message names the file and says
/// the reason in words, the exit code is the README's, and no output is left behind.
@Suite struct FailureModeTests {
    @Test func eachFailureNamesTheFileAndTheReason() throws {
        let folder = Paths.temporaryDirectory()
        func file(_ name: String, _ data: Data) throws -> String {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url.path
        }
        let photo = try Data(contentsOf: Paths.testdata("photo.jpg"))
        // A PNG whose header claims 3000×2000 and whose data holds ten rows of ten pixels.
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc = ~crc
            let length = UInt32(body.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typed + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        }
        let header: [UInt8] = [0, 0, 0x0B, 0xB8, 0, 0, 0x07, 0xD0, 8, 2, 0, 0, 0]
        let rows = [UInt8]((0..<10).flatMap { _ in [0] + [UInt8](repeating: 0x80, count: 30) })
        // zlib with one stored deflate block (no compression), and its Adler-32.
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in rows { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let n = UInt16(rows.count)
        let idat: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + rows
            + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: (b << 16 | a) >> $0) }
        let lying = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent("blocker").path, contents: Data()))
        let out = folder.appendingPathComponent("out.png").path
        let cases: [(what: String, arguments: [String], file: String, reason: String, code: Int32)] = [
            ("unreadable", ["convert", folder.appendingPathComponent("missing.jpg").path, "-o", out], "missing.jpg", "no such file", 2),
            ("undecodable", ["convert", try file("words.jpg", Data("hello".utf8)), "-o", out], "words.jpg", "not a JPEG, PNG", 2),
            ("truncated", ["convert", try file("cut.jpg", photo.prefix(2000)), "-o", out], "cut.jpg", "corrupt image", 2),
            ("lying header", ["convert", try file("lying.png", Data(lying)), "-o", out], "lying.png", "Not enough image data", 2),
            ("too many pixels", ["convert", try file("photo.jpg", photo), "-o", out, "--pixel-limit", "1000"], "photo.jpg", "more than the limit", 2),
            ("out of memory", ["convert", folder.appendingPathComponent("photo.jpg").path, "-o", out, "--memory-limit", "1K"], "photo.jpg", "of memory", 2),
            ("unwritable", ["convert", folder.appendingPathComponent("photo.jpg").path, "-o", folder.appendingPathComponent("blocker/x.png").path],
             "blocker", "is a file, not a folder", 2),
            ("folder that cannot be made", ["batch", "-e", "vignette", folder.appendingPathComponent("photo.jpg").path, "-o",
                                            folder.appendingPathComponent("blocker/sub").path], "blocker", "is a file, not a folder", 2),
            ("output is the input", ["convert", folder.appendingPathComponent("photo.jpg").path, "-o",
                                     folder.appendingPathComponent("photo.jpg").path], "photo.jpg", "never writes over an input", 2),
        ]
        for c in cases {
            let result = try CommandLineTests.lumen(c.arguments)
            #expect(result.status == c.code, "\(c.what): exit \(result.status), \(result.stderr)")
            #expect(result.stderr.hasPrefix("lumen: ") && result.stderr.contains(c.file) && result.stderr.contains(c.reason),
                    "\(c.what): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("Fatal error"), "\(c.what): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(c.what) left an output")
        }
    }
}
