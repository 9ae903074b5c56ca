import Foundation
import Testing
@testable import Lumen

/// A render stopped from outside stops at its next tile, throws `cancelled` and leaves no
/// file; one that is not stopped is unaffected.
@Suite struct RenderCancellationTests {
    @Test func aCancelledRenderStopsAtTheNextTileAndWritesNothing() throws {
        let tiles = LockedValue(0)
        let cancellation = RenderCancellation()
        // Counts the tiles it computes, and cancels the render during the third.
        let counting = Kernel("countingTiles") { out, _ in
            let n = tiles.withLock { $0 += 1; return $0 }
            if n == 3 { cancellation.cancel() }
            out.forEachRow { _, row, count in row.update(repeating: SIMD4(0.5, 0.5, 0.5, 1), count: count) }
        }.apply(extent: Rect(x: 0, y: 0, width: 512, height: 512), regionOfInterest: { _, rect in rect }, arguments: [])
        let context = RenderContext(RenderContext.Options(threads: 1, tileWidth: 64, tileHeight: 64))
        let url = Paths.temporaryDirectory().appendingPathComponent("cancelled.png")
        #expect(throws: LumenError.cancelled) {
            try cancellation.whileRendering { try context.write(counting, to: url) }
        }
        #expect(tiles.withLock { $0 } == 3, "64 tiles; none after the cancelling one")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).isEmpty, "no temporary file left")
        // The same render outside the cancellation, and inside one never cancelled, completes.
        tiles.withLock { $0 = 0 }
        try RenderCancellation().whileRendering { try context.write(counting, to: url) }
        #expect(tiles.withLock { $0 } == 64 && FileManager.default.fileExists(atPath: url.path))
    }

    /// With two threads, the other thread's tiles of later bands wait for a buffer when a
    /// tile of an earlier band stops the render (cancelled, or its kernel failed): the
    /// render still throws that, and writes nothing.
    @Test(.timeLimit(.minutes(1)), .serialized, arguments: [false, true]) func twoThreadsStopMidwayToo(cancels: Bool) throws {
        struct Broken: Error {}
        let cancellation = RenderCancellation()
        let reachedBand23 = LockedValue(false)
        // 32 bands of 8 tiles (band k's top row is 512 − 16k). The first tile of band 20
        // stops the render once the other thread has computed a tile of band 23, whose
        // buffer is band 20's: it then waits for band 20 to be encoded.
        let stopping = Kernel("stoppingTiles") { out, _ in
            if out.rect.y == 512 - 24 * 16 { reachedBand23.withLock { $0 = true } }
            if out.rect.y == 512 - 21 * 16 && out.rect.x == 0 {
                while !reachedBand23.withLock({ $0 }) { usleep(1000) }
                usleep(20_000)
                if cancels { cancellation.cancel() } else { throw Broken() }
            }
            out.forEachRow { _, row, count in row.update(repeating: SIMD4(0.5, 0.5, 0.5, 1), count: count) }
        }.apply(extent: Rect(x: 0, y: 0, width: 512, height: 512), regionOfInterest: { _, rect in rect }, arguments: [])
        let context = RenderContext(RenderContext.Options(threads: 2, tileWidth: 64, tileHeight: 16))
        let url = Paths.temporaryDirectory().appendingPathComponent("stopped-\(cancels).png")
        do {
            try cancellation.whileRendering { try context.write(stopping, to: url) }
            Issue.record("the render was not stopped")
        } catch {
            #expect(cancels ? (error as? LumenError) == .cancelled : error is Broken, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aFileCopiedUnchangedStopsToo() throws {
        let cancellation = RenderCancellation()
        cancellation.cancel()
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        #expect(throws: LumenError.cancelled) {
            try cancellation.whileRendering { _ = try RenderContext().encode(photo, format: .jpeg()) }
        }
        #expect(try RenderContext().encode(photo, format: .jpeg()).count > 1000)
    }
}
