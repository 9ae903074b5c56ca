import Foundation
import Testing
@testable import Lumen

/// The batch executor as a library type: manifests, shards, collisions, results, retries.
@Suite struct BatchTests {
    @Test func manifestsTakePathsAndJSONLinesWithLocatedErrors() throws {
        let items = try BatchManifest.parse("""
            # photos
            a.jpg
            {"input": "b.png", "output": "b-small.png", "set": {"strength": 0.6, "name": "x"}}

            """, name: "m.txt")
        #expect(items == [BatchItem(input: "a.jpg"), BatchItem(input: "b.png", output: "b-small.png", settings: ["strength": "0.6", "name": "x"])])
        #expect(throws: LumenError.chain(file: "m.txt", line: 2, column: 1, message: "needs \"input\": a path", excerpt: "{\"output\": \"x\"}")) {
            _ = try BatchManifest.parse("a.jpg\n{\"output\": \"x\"}", name: "m.txt")
        }
        #expect(throws: LumenError.self) { _ = try BatchManifest.parse("{\"input\": \"a\", \"sets\": 1}", name: "m.txt") }
    }

    @Test func shardsAreStableDisjointAndCoverEverything() {
        let items = (0..<23).map { BatchItem(input: "\($0).jpg") }
        let shards = (0..<5).map { BatchManifest.shard(items, index: $0, count: 5) }
        #expect(shards.flatMap { $0 }.sorted { $0.input < $1.input } == items.sorted { $0.input < $1.input })
        #expect(Set(shards.flatMap { $0 }).count == 23)
        #expect(BatchManifest.shard(items, index: 2, count: 5) == shards[2])
    }

    func runner(_ directory: URL, jobs: Int = 2, mirror: URL? = nil) throws -> BatchRunner {
        var options = BatchRunner.Options(outputDirectory: directory)
        options.jobs = jobs
        options.mirrorRoot = mirror
        return BatchRunner(chain: try FilterChain("exposureAdjust ev=0.5"), context: RenderContext(), options: options)
    }

    @Test func collidingOutputsAndRemoteFoldersAreRefusedBeforeAnyWork() throws {
        let directory = Paths.temporaryDirectory()
        let a = directory.appendingPathComponent("a"), b = directory.appendingPathComponent("b")
        for folder in [a, b] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Paths.codec("rgb8.png"), to: folder.appendingPathComponent("x.png"))
        }
        let items = [BatchItem(input: a.appendingPathComponent("x.png").path), BatchItem(input: b.appendingPathComponent("x.png").path)]
        let out = directory.appendingPathComponent("out")
        #expect(throws: LumenError.self) { _ = try runner(out).run(items) { _ in } }
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing was written")
        // Mirrored under a common root, the same names do not collide.
        let summary = try runner(out, mirror: directory).run(items) { _ in }
        #expect(summary.exitCode == 0 && summary.succeeded == 2)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("a/x.png").path))
        for remote in ["s3://bucket/out", "gs://b/o", "http://host/x"] {
            #expect(throws: LumenError.self) { _ = try BatchRunner.outputFolder(remote) }
        }
        #expect(try BatchRunner.outputFolder("file:///tmp/out").path == "/tmp/out")
    }

    @Test func resultsAndExitCodesTellPermanentFromRetryableFailures() throws {
        let directory = Paths.temporaryDirectory()
        let broken = directory.appendingPathComponent("broken.png")
        try Data("not an image".utf8).write(to: broken)
        let good = BatchItem(input: Paths.codec("rgb8.png").path)
        let results = LockedValue<[BatchResult]>([])
        let summary = try runner(directory.appendingPathComponent("out")).run([good, BatchItem(input: broken.path)]) { r in
            results.withLock { $0.append(r) }
        }
        #expect(summary.exitCode == 1)
        let all = results.withLock { $0 }
        #expect(all.count == 2)
        let ok = try #require(all.first { $0.status == .ok }), failed = try #require(all.first { $0.status == .failed })
        #expect(ok.width == 23 && ok.height == 17 && (ok.bytes ?? 0) > 0)
        #expect(failed.errorKind == .input && failed.message?.contains("broken.png") == true)
        // An output that cannot be written is worth retrying: exit 3.
        let item = BatchItem(input: Paths.codec("rgb8.png").path, output: "/proc/no-such-dir/x.png")
        #expect(try runner(directory.appendingPathComponent("out2")).run([item]) { _ in }.exitCode == 3)
    }

    @Test func aRerunRemovesTemporariesOfKilledRuns() throws {
        let out = Paths.temporaryDirectory()
        let stale = out.appendingPathComponent(".x.png.0a1b2c3d.tmp"), kept = out.appendingPathComponent(".notes.tmp")
        let others = out.appendingPathComponent(".y.png.0a1b2c3d.tmp")  // another shard's output, in progress
        for file in [stale, kept, others] { try Data().write(to: file) }
        #expect(try runner(out).removeStaleTemporaries(for: [out.appendingPathComponent("x.png")]) == 1)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: kept.path) && FileManager.default.fileExists(atPath: others.path))
    }
}

@Suite struct ThumbnailTests {
    @Test func fitCoverAndGrowRules() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))  // 640×400
        let context = RenderContext()
        #expect(try Thumbnail(width: 100, height: 100).apply(to: photo, context: context).extent == Rect(x: 0, y: 0, width: 100, height: 63))
        let centre = try Thumbnail(width: 100, height: 100, crop: .centre).apply(to: photo, context: context)
        #expect(centre.extent == Rect(x: 0, y: 0, width: 100, height: 100))
        // The centre crop is the middle of the cover-scaled picture.
        let cover = try photo.applyingLanczosScale(0.25)  // 160×100
        let middle = cover.cropped(to: Rect(x: 30, y: 0, width: 100, height: 100)).transformed(by: AffineTransform(translationX: -30, y: 0))
        #expect(try context.render(centre, format: .rgba8) == context.render(middle, format: .rgba8))
        let small = try Image(contentsOf: Paths.codec("rgb8.png"))  // 23×17
        #expect(try Thumbnail(width: 100, height: 100, size: .down).apply(to: small, context: context).extent == small.extent)
        #expect(try Thumbnail(width: 10, height: 10, size: .up).apply(to: small, context: context).extent == small.extent)
        #expect(throws: LumenError.self) { _ = try Thumbnail(width: 0, height: 10).apply(to: small, context: context) }
    }

    /// A `width`×`height` grey picture with a red and blue checkerboard over `board`.
    static func greyWithBoard(width: Double, height: Double, board: Rect) throws -> Image {
        try FilterRegistry.descriptor(named: "checkerboard")!.apply([
            "width": .number(7), "color0": .color(.red), "color1": .color(.blue)]).cropped(to: board)
            .composited(over: Image(color: .gray).cropped(to: Rect(x: 0, y: 0, width: width, height: height)))
    }

    /// The pixels of `image` (rendered as 8-bit) whose channels differ: the board's.
    static func coloured(_ image: Image, _ context: RenderContext) throws -> Int {
        let pixels = try context.render(image, format: .rgba8)
        var count = 0
        for i in stride(from: 0, to: pixels.samples.count, by: 4) {
            let (r, g, b) = (pixels.samples[i], pixels.samples[i + 1], pixels.samples[i + 2])
            if r != g || g != b { count += 1 }
        }
        return count
    }

    @Test func attentionFindsTheBusyPart() throws {
        // Flat grey, with a colourful checkerboard in the right third.
        let image = try Self.greyWithBoard(width: 300, height: 100, board: Rect(x: 200, y: 0, width: 100, height: 100))
        let context = RenderContext()
        let thumb = try Thumbnail(width: 100, height: 100, crop: .attention).apply(to: image, context: context)
        #expect(thumb.extent == Rect(x: 0, y: 0, width: 100, height: 100))
        let saturated = try Self.coloured(thumb, context)
        #expect(saturated > 100 * 100 * 9 / 10, "the window shows the checkerboard (\(saturated) coloured pixels)")
    }

    /// A centre crop keeps its focus point in the middle of the window, as far as the edges
    /// allow: imgproxy's compass gravities are its corners and edges.
    @Test func theFocusPointPlacesACentreCrop() throws {
        let context = RenderContext()
        func coloured(_ image: Image, focus: Point) throws -> Int {
            var thumbnail = Thumbnail(width: 100, height: 100, crop: .centre)
            thumbnail.focus = focus
            let out = try thumbnail.apply(to: image, context: context)
            #expect(out.extent == Rect(x: 0, y: 0, width: 100, height: 100))
            return try Self.coloured(out, context)
        }
        // The board in the right third of a wide picture, then in the top third of a tall one (y up).
        let wide = try Self.greyWithBoard(width: 300, height: 100, board: Rect(x: 200, y: 0, width: 100, height: 100))
        let tall = try Self.greyWithBoard(width: 100, height: 300, board: Rect(x: 0, y: 200, width: 100, height: 100))
        #expect(try coloured(wide, focus: Point(x: 1, y: 0.5)) == 100 * 100, "east")
        #expect(try coloured(wide, focus: Point(x: 0, y: 0.5)) == 0, "west")
        #expect(try coloured(wide, focus: Point(x: 0.5, y: 0.5)) == 0, "the centre third")
        #expect(try coloured(wide, focus: Point(x: 0.75, y: 0.5)) == 75 * 100, "a focus point: the window from 175 to 275")
        #expect(try coloured(tall, focus: Point(x: 0.5, y: 0)) == 100 * 100, "north: the top")
        #expect(try coloured(tall, focus: Point(x: 0.5, y: 1)) == 0, "south: the bottom")
        #expect(try coloured(tall, focus: Point(x: 0.5, y: 0.25)) == 75 * 100, "a focus point a quarter down: rows 25 to 125 from the top")
        #expect(throws: LumenError.self) { _ = try coloured(wide, focus: Point(x: .nan, y: 0.5)) }
        #expect(throws: LumenError.self) { _ = try coloured(wide, focus: Point(x: 1.5, y: 0.5)) }
    }
}
