import Foundation
import Testing
@testable import Lumen

/// Sources larger than the cache stream through a window: decoded once, in order, with
/// the same pixels as a whole decode, for sequential and random access alike.
@Suite struct StreamingSourceTests {
    static let photo = try! Image(contentsOf: Paths.testdata("photo.jpg"))

    func encoded(_ image: Image, cacheBytes: Int, tile: Int = 64, threads: Int = 2) throws -> (Data, RenderReport?) {
        let context = RenderContext(.init(threads: threads, tileWidth: tile, tileHeight: tile / 2, cacheBytes: cacheBytes))
        let data = try context.encode(image, format: .png)
        return (data, context.lastReport)
    }

    @Test(arguments: [0, 1, 2, 3])
    func streamingGivesTheSamePixelsAndDecodesOnce(_ graph: Int) throws {
        let p = Self.photo
        let image: Image
        switch graph {
        // (vignetteEffect straight over the file would skip the tiles: CodeRowTests.)
        case 0: image = try p.applyingFilter("colorMonochrome").applyingFilter("vignetteEffect", parameters: ["inputCenter": [320.0, 200.0], "inputRadius": 150.0])
        case 1: image = p.applyingGaussianBlur(sigma: 4).cropped(to: p.extent)
        case 2: image = p.transformed(by: AffineTransform(rotationAngle: .pi / 2)).transformed(by: AffineTransform(translationX: 400, y: 0))
        default: image = p.cropped(to: Rect(x: 100, y: 50, width: 300, height: 200)).applyingGaussianBlur(sigma: 20)  // pyramid, kept shrink
        }
        let (whole, _) = try encoded(image, cacheBytes: 256 << 20)
        for (tile, threads) in [(64, 2), (16, 1), (128, 3)] {
            let (streamed, report) = try encoded(image, cacheBytes: 16 << 10, tile: tile, threads: threads)
            let same = streamed == whole  // compared first: #expect would diff two PNGs element by element
            #expect(same, "graph \(graph), tiles \(tile), \(threads) threads")
            #expect((report?.decodedRows ?? 0) <= 400, "decoded \(report?.decodedRows ?? 0) rows for 400")
            // Sequential graphs keep a window of rows (small bands here: small windows); a
            // quarter turn reads every row for every band.
            let window = report?.streamedWindowRows ?? 0
            let expected = graph == 2 ? 400...400 : tile > 64 ? 1...400 : 1...399
            #expect(expected.contains(window), "window \(window) rows")
        }
    }

    /// A kept intermediate that reads a large source (the big blur's ½-size level) streams
    /// it: computed a band at a time through a window, with the bytes of a whole decode, at
    /// any tile size and thread count, and again from the cache on a second render. When the
    /// steps also read the source beside the kept level, every row is needed at once.
    @Test(arguments: [false, true])
    func aKeptLevelStreamsItsSource(alsoReadDirectly: Bool) throws {
        // Tall (320×1600), so that a window of bands with its read-ahead is less than the file.
        let tall = Paths.temporaryDirectory().appendingPathComponent("tall.jpg")
        try RenderContext().write(Self.photo.transformed(by: AffineTransform(scaleX: 0.5, y: 4)), to: tall, format: OutputFormat(fileFormat: .jpeg, depth: 8))
        let p = try Image(contentsOf: tall)
        #expect(p.extent == Rect(x: 0, y: 0, width: 320, height: 1600))
        var image = p.applyingGaussianBlur(sigma: 12).cropped(to: p.extent)
        if alsoReadDirectly { image = try image.applyingFilter("sourceOverCompositing", parameters: ["inputBackgroundImage": p.cropped(to: Rect(x: 0, y: 0, width: 320, height: 100))]) }
        let whole = try RenderContext().encode(image, format: .png)
        for (tile, threads) in [(64, 2), (32, 1), (256, 3)] {
            var options = RenderContext.Options(threads: threads, tileWidth: tile, tileHeight: tile / 2)
            options.streamingBytes = 64 << 10
            let context = RenderContext(options)
            for render in 1...2 {
                // Compared first: on a mismatch, #expect would diff two PNGs element by element for minutes.
                let same = try context.encode(image, format: .png) == whole
                #expect(same, "tiles \(tile), \(threads) threads, render \(render)")
                let report = try #require(context.lastReport)
                #expect(report.decodedRows <= 1600, "decoded \(report.decodedRows) rows for 1600")
                if render == 1 && !alsoReadDirectly {
                    // σ 12 averages 4×4 blocks, computed in bands of 32 blocks: 128 rows, and
                    // one band read ahead (the decoder is the slower of the two threads).
                    #expect((1...256).contains(report.streamedWindowRows), "a window of \(report.streamedWindowRows) rows")
                }
            }
        }
    }

    @Test func aDecodeErrorReachesTheRender() throws {
        let broken = try Image(contentsOf: truncatedPhoto())
        #expect(throws: LumenError.self) { _ = try encoded(broken.applyingGaussianBlur(sigma: 2), cacheBytes: 16 << 10) }
    }
}
