import Foundation
import Testing
@testable import Lumen

@Suite struct CacheTests {
    /// `count` distinct small files (copies of one PNG under different names).
    static func inputs(_ count: Int) throws -> [URL] {
        let directory = Paths.temporaryDirectory()
        return try (0..<count).map { i in
            let url = directory.appendingPathComponent("input-\(i).png")
            try FileManager.default.copyItem(at: Paths.codec("rgb8.png"), to: url)
            return url
        }
    }

    @Test func aBatchSharingALogoDecodesItOnce() throws {
        let context = RenderContext()
        let logo = try Image(contentsOf: Paths.testdata("logo.png"))
        var decoded = 0
        for url in try Self.inputs(20) {
            let photo = try Image(contentsOf: url).applyingLanczosScale(6)  // 138×102, bigger than the logo
            _ = try context.render(logo.composited(over: photo), in: photo.extent)
            decoded += context.lastReport?.decodedRows ?? 0
        }
        // Each input's 17 rows once, the logo's 40 rows once.
        #expect(decoded == 20 * 17 + 40)
        #expect(context.cache.statistics.misses == 21)
    }

    @Test func aTransitionDecodesEachImageOnce() throws {
        let context = RenderContext()
        let from = try Image(contentsOf: Paths.codec("rgb8.png")), to = try Image(contentsOf: Paths.codec("rgba8.png"))
        var decoded = 0
        for frame in 0..<30 {
            let image = try from.applyingFilter("dissolveTransition", parameters: ["inputTargetImage": to, "inputTime": Double(frame) / 29])
            _ = try context.render(image)
            decoded += context.lastReport?.decodedRows ?? 0
        }
        #expect(decoded == 17 + 17)
    }

    /// A source above `streamingBytes` streams through a window on its first render, is
    /// decoded whole and kept on its second, and is not decoded again after that; the
    /// output is the same every time.
    @Test func aLargeSourceStreamsFirstAndIsKeptWhenRenderedAgain() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        let height = Int(photo.extent.height)
        var options = RenderContext.Options(threads: 2, tileWidth: 64, tileHeight: 16)
        options.streamingBytes = 16 << 10  // far below the photo's decoded rows
        let context = RenderContext(options)
        let image = try photo.applyingFilter("colorControls", parameters: ["saturation": 0.5])
        var outputs: [Data] = []
        var reports: [(decoded: Int, window: Int)] = []
        for _ in 0..<4 {
            outputs.append(try context.encode(image, format: .png))
            reports.append((context.lastReport?.decodedRows ?? -1, context.lastReport?.streamedWindowRows ?? -1))
        }
        #expect(reports[0].decoded == height && reports[0].window > 0 && reports[0].window < height, "\(reports)")
        #expect(reports[1].decoded == height && reports[1].window == 0, "\(reports)")
        #expect(reports[2].decoded == 0 && reports[3].decoded == 0, "\(reports)")
        #expect(Set(outputs).count == 1)
        // At the default (8 MiB) the small photo is decoded whole at once and kept.
        let plain = RenderContext(.init(threads: 2, tileWidth: 64, tileHeight: 16))
        #expect(try plain.encode(image, format: .png) == outputs[0])
        #expect(plain.lastReport?.decodedRows == height && plain.lastReport?.streamedWindowRows == 0)
    }

    /// Where streaming would only cost a second decode, the source goes through the cache
    /// from the first render: a one-step render (its window would hold every row), a file
    /// read twice in one graph, and a caller that said it will render again (a thumbnail's
    /// attention preview). A second render whose whole rows would break the memory limit
    /// streams again instead of failing.
    @Test func sourcesAreDecodedOnceWhereStreamingSavesNothing() throws {
        let url = Paths.testdata("photo.jpg")
        let photo = try Image(contentsOf: url), height = Int(try Image(contentsOf: url).extent.height)
        func context(memoryLimit: Int? = nil) -> RenderContext {
            var options = RenderContext.Options(threads: 2, tileWidth: 64, tileHeight: 16)
            options.streamingBytes = 16 << 10
            options.memoryLimit = memoryLimit
            return RenderContext(options)
        }
        func figures(_ c: RenderContext) -> [Int] { [c.lastReport?.decodedRows ?? -1, c.lastReport?.streamedWindowRows ?? -1] }
        // One step: decoded whole into the cache, then found there.
        let bitmap = context()
        _ = try bitmap.render(photo)
        #expect(figures(bitmap) == [height, 0])
        _ = try bitmap.render(photo)
        #expect(figures(bitmap) == [0, 0])
        // The same file twice in one graph: one decode, no window.
        let twice = context()
        let again = try Image(contentsOf: url)
        _ = try twice.encode(photo.applyingFilter("differenceBlendMode", parameters: ["inputBackgroundImage": again]), format: .png)
        #expect(figures(twice) == [height, 0])
        // Said to be rendered again: kept from the first banded render. (A filter, so the
        // render reads the source through the renderer, not the encoder's direct copy.)
        let adjusted = try photo.applyingFilter("colorControls", parameters: ["saturation": 0.5])
        let said = context()
        said.cache.expectRenders(of: adjusted)
        _ = try said.encode(adjusted, format: .png)
        #expect(figures(said) == [height, 0])
        _ = try said.encode(adjusted, format: .png)
        #expect(figures(said) == [0, 0])
        // Under a limit the whole rows break (640 × 3 bytes × 400 rows = 768,000) but a
        // window fits: every render streams, none fails.
        let limited = context(memoryLimit: 500_000)
        for _ in 0..<2 {
            _ = try limited.encode(adjusted, format: .png)
            #expect(figures(limited)[0] == height && figures(limited)[1] > 0 && figures(limited)[1] < height, "\(figures(limited))")
        }
    }

    @Test func aSharedGradientMaskIsRenderedOnce() throws {
        let context = RenderContext()
        let chain = try FilterChain(contentsOf: Paths.root.appendingPathComponent("filters/vignette.chain"))
        var maskPixels = 0
        for url in try Self.inputs(6) {
            let output = try chain.apply(to: try Image(contentsOf: url))
            _ = try context.render(output)
            maskPixels += context.lastReport?.optimized.filter { $0.kind == "radialGradient" }.map(\.pixels).reduce(0, +) ?? 0
        }
        #expect(maskPixels == 23 * 17, "the mask is computed for the first image only")
    }

    /// 48 renders of six graphs on two threads over one small cache: each graph's blur and
    /// resample, seen again, are kept (the inversion after them is the output, which is never
    /// kept for being asked again), so the cache fills and evicts while renders read it.
    @Test func concurrentRendersStayInBudgetAndCorrect() throws {
        let budget = 64 << 10
        let context = RenderContext(.init(threads: 2, tileWidth: 16, tileHeight: 16, cacheBytes: budget))
        let photo = try Image(contentsOf: Paths.codec("rgba8.png"))
        let graphs = try (0..<6).map { i in
            try photo.applyingGaussianBlur(sigma: 1 + Double(i % 3)).applyingLanczosScale(1.5).applying("colorInvert")
        }
        let references = try graphs.map { try RenderContext().render($0, format: .rgbaFloat) }
        let tally = LockedValue((wrong: 0, overBudget: 0))
        DispatchQueue.concurrentPerform(iterations: 48) { i in
            let index = i % graphs.count
            let bitmap = try? context.render(graphs[index], format: .rgbaFloat)
            // Statistics are read while other threads render (a race here is a TSan report).
            let bytes = context.cache.statistics.bytes
            tally.withLock { t in
                if bitmap != references[index] { t.wrong += 1 }
                if bytes > budget { t.overBudget += 1 }
            }
        }
        let (wrong, overBudget) = tally.withLock { $0 }
        #expect(wrong == 0 && overBudget == 0)
        let statistics = context.cache.statistics
        #expect(statistics.bytes <= budget && statistics.evictions > 0)
    }

    @Test func lruEvictsLeastRecentlyUsedByBytes() {
        let cache = LRUCache<String, Int>(costLimit: 10)
        cache.set(1, for: "a", cost: 4)
        cache.set(2, for: "b", cost: 4)
        _ = cache.value(for: "a")         // a is now the most recent
        cache.set(3, for: "c", cost: 4)   // evicts b
        #expect(cache.value(for: "b") == nil && cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        #expect(cache.totalCost == 8 && cache.evictions == 1)
        #expect(!cache.set(9, for: "huge", cost: 11))
    }
}
