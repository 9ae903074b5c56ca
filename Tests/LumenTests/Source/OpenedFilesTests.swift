import Foundation
import Testing
@testable import Lumen

/// A file is opened once however many parts of Lumen ask for it (header, metadata,
/// pixels), counted from outside by strace, and an edited file is read anew.
@Suite struct OpenedFilesTests {
    /// Read-only opens of `file` by `lumen arguments…`, as strace sees them.
    static func readOpens(of files: [String], _ arguments: [String], in folder: URL) throws -> [String: Int] {
        let trace = folder.appendingPathComponent("trace-\(UUID().uuidString.prefix(6)).txt").path
        let result = try CommandLineTests.lumen(["-f", "-e", "trace=openat", "-o", trace, CommandLineTests.binary.path] + arguments,
                                                in: folder, via: "/usr/bin/strace")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        var counts: [String: Int] = [:]
        for file in files {
            counts[file] = lines.filter { $0.contains("\"\(folder.appendingPathComponent(file).path)\"") && $0.contains("O_RDONLY") }.count
        }
        return counts
    }

    static func folderWithPhotos(_ count: Int) throws -> URL {
        let folder = Paths.temporaryDirectory()
        for i in 0..<count {
            try FileManager.default.copyItem(at: Paths.testdata("photo.jpg"), to: folder.appendingPathComponent("p\(i).jpg"))
        }
        try FileManager.default.copyItem(at: Paths.testdata("logo.png"), to: folder.appendingPathComponent("logo.png"))
        return folder
    }

    @Test func aWriteOpensItsInputOnce() throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "scripts/setup installs strace")
        let folder = try Self.folderWithPhotos(1)
        // Header, metadata (kept by default) and pixels; a converted and a filtered write.
        #expect(try Self.readOpens(of: ["p0.jpg"], ["convert", "p0.jpg", "-o", "out.png"], in: folder) == ["p0.jpg": 1])
        #expect(try Self.readOpens(of: ["p0.jpg"], ["apply", "-e", "gaussianBlur radius=2 | vignetteEffect", "p0.jpg", "-o", "out.jpg"],
                                   in: folder) == ["p0.jpg": 1])
        #expect(try Self.readOpens(of: ["p0.jpg"], ["thumbnail", "p0.jpg", "-s", "64", "-o", "tn.jpg"], in: folder) == ["p0.jpg": 1])
    }

    /// Eight photos composited over one logo: each photo once, and the logo once (one job:
    /// with several, jobs that load it at the same moment may each open it).
    @Test func aBatchSharingALogoOpensEachFileOnce() throws {
        let folder = try Self.folderWithPhotos(8)
        let photos = (0..<8).map { "p\($0).jpg" }
        let chain = "sourceOverCompositing background=load(\"\(folder.appendingPathComponent("logo.png").path)\")"
        let counts = try Self.readOpens(of: photos + ["logo.png"],
                                        ["batch", "--jobs", "1", "--allow-read", folder.path, "-e", chain] + photos + ["-o", "out"], in: folder)
        #expect(counts == Dictionary(uniqueKeysWithValues: (photos + ["logo.png"]).map { ($0, 1) }))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).count == 8)
    }

    /// A file changed after it was first read is read again: its size and modification
    /// time are part of what identifies it.
    @Test func anEditedFileIsReadAnew() throws {
        let folder = Paths.temporaryDirectory(), url = folder.appendingPathComponent("x.png")
        let context = RenderContext()
        try context.write(Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 8, height: 8)), to: url)
        let red = try context.render(Image(contentsOf: url))
        try context.write(Image(color: Color(red: 0, green: 0, blue: 1)).cropped(to: Rect(x: 0, y: 0, width: 9, height: 8)), to: url)
        let blue = try context.render(Image(contentsOf: url))
        #expect(red.width == 8 && Array(red.samples.prefix(4)) == [255, 0, 0, 255])
        #expect(blue.width == 9 && Array(blue.samples.prefix(4)) == [0, 0, 255, 255])
    }
}
