import LumenPlatform

/// Computes pixels for a plan: pulls each tile's inputs recursively, reuses tile
/// buffers from a pool, reads decoded sources and kept intermediates from the cache,
/// and spreads tiles over worker threads. Every pixel depends only on its position
/// and the graph, never on tile size or thread count.
final class Renderer: Sendable {
    let plan: RenderPlan
    let pool: TilePool
    let cache: RenderCache
    let pixelLimit: Int
    /// Bytes a decode may need (nil: the process's headroom, `MemoryLimit`).
    let memoryLimit: Int?
    let statistics: RenderStatistics
    /// Worker threads of the render, for kernels that spread their own work (reductions).
    let threads: Int
    /// Checked before each tile: a render stopped from outside throws `LumenError.cancelled`.
    let cancellation = RenderCancellation.current
    /// Sources streamed through a window during this render (see `planStreams`).
    let streams: [ObjectIdentifier: SourceStream]
    /// After step `i`, each stream's rows before this file row are no longer needed.
    private let releasePoints: [[ObjectIdentifier: Int]]
    /// Kept intermediates that read a streamed source: after band `b` of such a node's
    /// tiles (`keptBands`), each stream's rows before this file row are no longer needed.
    private let keptReleasePoints: [ObjectIdentifier: [[ObjectIdentifier: Int]]]
    /// Those intermediates once computed, held for the render: the rows they read are gone
    /// from the window, so they could not be computed again if the cache let them go.
    private let computedFromStreams = LockedValue<[ObjectIdentifier: RenderCache.Entry]>([:])
    /// The plan's sources with pixels to read, found once (a cast per node of the plan for
    /// each kept intermediate was 59 % of a render 100,000 steps deep).
    private let sourceNodes: [ImageNode]

    /// `steps` are the rectangles the render will ask for, in order (the bands of a
    /// file, or the whole region), so that large sources can stream.
    init(plan: RenderPlan, pool: TilePool, cache: RenderCache, pixelLimit: Int, memoryLimit: Int? = nil, streamingBytes: Int = 8 << 20,
         steps: [PixelRect], failOnWarning: Bool = false, threads: Int = 1) throws {
        statistics = RenderStatistics(failOnWarning: failOnWarning)
        self.threads = max(1, threads)
        self.plan = plan
        self.pool = pool
        self.cache = cache
        self.pixelLimit = pixelLimit
        self.memoryLimit = memoryLimit
        sourceNodes = plan.order.filter { $0.kernel is any RowSource && !plan.region(of: $0).isEmpty }
        (streams, releasePoints, keptReleasePoints) = try Self.planStreams(plan, steps: steps, cache: cache, streamingBytes: streamingBytes,
                                                                           pixelLimit: pixelLimit, memoryLimit: memoryLimit, statistics: statistics)
    }

    deinit { streams.values.forEach { $0.cancel() } }

    /// Step `index` of the render is done: streams drop the rows no later step reads.
    func finishedStep(_ index: Int) {
        for (id, stream) in streams {
            if let row = releasePoints[index][id] { stream.release(before: row) } else { stream.cancel() }
        }
    }

    /// Renders `rect` of `node`; the caller gives the tile back to the pool.
    func evaluate(_ node: ImageNode, _ rect: PixelRect) throws -> Tile {
        let inside = rect.intersection(node.pixelExtent)
        if inside.isEmpty { return pool.takeCleared(rect) }
        if inside != rect {
            let part = try evaluate(node, inside)
            let whole = pool.take(rect)
            whole.copy(from: part)
            whole.clear(outside: inside)  // only the margin: clearing all of it first wrote every pixel twice
            pool.give(part)
            return whole
        }
        if node.kernel is CropKernel, !plan.materialized.contains(ObjectIdentifier(node)) {
            // Inside its extent a crop's pixels are its input's: that tile is the crop's,
            // with no copy (a blur's two crops copied every pixel twice: 9 % of I3's time).
            let tile = try evaluate(node.inputs[0], rect)
            statistics.record(node, pixels: rect.area, nanoseconds: 0)
            return tile
        }
        if plan.materialized.contains(ObjectIdentifier(node)) {
            switch try keptPixels(of: node) {
            case let .pixels(kept):
                // Read in place: a kept intermediate is not written again once computed.
                if kept.rect.contains(rect) { return Tile(viewing: kept, rect) }
                let output = pool.takeCleared(rect)
                output.copy(from: kept)
                return output
            case let .halfPixels(kept):
                let output = kept.rect.contains(rect) ? pool.take(rect) : pool.takeCleared(rect)
                kept.load(into: output)
                return output
            case .raster:
                preconditionFailure("intermediate cached as raster")
            }
        }
        if let lender = node.kernel as? any LendsPixels, let view = lender.lend(rect) {
            statistics.record(node, pixels: rect.area, nanoseconds: 0)
            return view
        }
        return try computed(node, rect)
    }

    /// `rect` of `node` computed into a tile from the pool.
    private func computed(_ node: ImageNode, _ rect: PixelRect) throws -> Tile {
        let output = pool.take(rect)
        do { try fill(output, with: node) } catch {
            pool.give(output)
            throw error
        }
        return output
    }

    /// Runs `node`'s kernel over `output` (a tile of its own, or a view of a kept buffer),
    /// transparent beyond the node's extent.
    private func fill(_ output: Tile, with node: ImageNode) throws {
        try runKernel(node, into: output)
        output.clear(outside: node.pixelExtent)
    }

    /// Renders every kept intermediate of the plan up front, each spread over `threads`.
    /// While a file it reads is still being decoded on its own thread, one of the threads
    /// waits: the decoder is then the slowest part and needs a core to itself (a blur's
    /// ½-size copy of a 2560×1600 JPEG took 23–27 ms with both threads on it from the
    /// start, decoded in 17–23; with one held back till the decoder finished, 19–21 ms).
    func prepareIntermediates(threads: Int) throws {
        for node in plan.order where plan.materialized.contains(ObjectIdentifier(node)) {
            _ = try keptPixels(of: node, threads: threads)
        }
    }

    /// The files kept intermediate `node` reads that are decoded whole through the cache, on
    /// a thread of their own (files it reads through other kept intermediates, computed
    /// before it, are decoded already).
    private func decodings(readBy node: ImageNode) throws -> [DecodingRaster] {
        try sourceNodes.compactMap { input in
            guard let source = input.kernel as? any RowSource, streams[ObjectIdentifier(input)] == nil,
                  Self.reaches(node, input, avoiding: plan.materialized) else { return nil }
            return try decodedRows(of: source, plan.region(of: input), key: input.identity)
        }
    }

    /// Kept intermediate `node`'s pixels (`.pixels` or `.halfPixels`) over its region in
    /// the plan: from the cache, or computed tile by tile and kept there.
    private func keptPixels(of node: ImageNode, threads: Int = 1) throws -> RenderCache.Entry {
        if let held = computedFromStreams.withLock({ $0[ObjectIdentifier(node)] }) { return held }
        let region = plan.region(of: node)
        var computedHere = false
        let entry = try cache.entry(for: node.identity, isUsable: { entry in
            entry.pixelRect?.contains(region) ?? false
        }, compute: {
            computedHere = true
            let kept: RenderCache.Entry
            let fillTile: (PixelRect) throws -> Void
            if (node.kernel as? any KeptAsHalfFloats)?.keptAsHalfFloats == true {
                let half = HalfTile(rect: region)
                kept = .halfPixels(half)
                fillTile = { rect in
                    let tile = try self.computed(node, rect)
                    half.store(tile)
                    self.pool.give(tile)
                }
            } else {
                // Each tile is computed in its place in `kept`, not copied there.
                let pixels = Tile(capacity: region.area)
                pixels.reset(to: region)
                kept = .pixels(pixels)
                fillTile = { rect in try self.fill(Tile(viewing: pixels, rect), with: node) }
            }
            if let releases = keptReleasePoints[ObjectIdentifier(node)] {
                try computeFromStreams(node, region: region, releases: releases, fillTile)
                return kept
            }
            let size = node.kernel.preferredTileSize ?? (256, 256)
            let tiles = TileGrid(region: region, tileWidth: size.0, tileHeight: size.1).tiles
            let decodings = threads > 1 ? try decodings(readBy: node) : []
            try forEachConcurrently(tiles.count, threads: threads,
                                    lastThreadWaits: decodings.isEmpty ? nil : { decodings.forEach { try? $0.waitForRows($0.raster.height) } }) { index in
                try cancellation?.check()
                try fillTile(tiles[index])
            }
            return kept
        })
        if case .raster = entry { preconditionFailure("intermediate cached as raster") }
        if let releases = keptReleasePoints[ObjectIdentifier(node)] {
            computedFromStreams.withLock { $0[ObjectIdentifier(node)] = entry }
            // Found in the cache (an earlier render kept it): its rows are not read, and a
            // stream no later band or step reads stops.
            if !computedHere, let last = releases.last {
                for (id, row) in last { if row == Int.max { streams[id]?.cancel() } else { streams[id]?.release(before: row) } }
            }
        }
        return entry
    }

    /// Computes kept intermediate `node` over `region` from a streamed source, a
    /// band of tiles at a time, releasing after each band the rows no later band or step
    /// reads. One thread computes, beside the decoder's: the decoder is the slower, and
    /// two threads beside it made the whole slower on two cores (see `prepareIntermediates`).
    private func computeFromStreams(_ node: ImageNode, region: PixelRect, releases: [[ObjectIdentifier: Int]],
                                    _ fillTile: (PixelRect) throws -> Void) throws {
        let bands = Self.keptBands(of: node, region: region)
        precondition(bands.count == releases.count, "kept bands planned differently")
        for (band, release) in zip(bands, releases) {
            for tile in band {
                try cancellation?.check()
                try fillTile(tile)
            }
            for (id, row) in release { streams[id]?.release(before: row) }
        }
    }

    /// Computes `region` of `node` tile by tile, bypassing its own kept copy, calling
    /// `body` with each finished tile (on the worker that made it).
    func renderTiles(of node: ImageNode, in region: PixelRect, tileSize: (Int, Int), threads: Int,
                     _ body: (Tile) throws -> Void) throws {
        let tiles = TileGrid(region: region, tileWidth: tileSize.0, tileHeight: tileSize.1).tiles
        try forEachConcurrently(tiles.count, threads: threads) { index in try renderTile(of: node, tiles[index], body) }
    }

    /// Computes `rect` of `node`, bypassing its own kept copy, and calls `body` with the
    /// tile before it goes back to the pool; throws `cancelled` first if the render was stopped.
    func renderTile(of node: ImageNode, _ rect: PixelRect, _ body: (Tile) throws -> Void) throws {
        try cancellation?.check()
        let tile = try evaluateBypassingKeep(node, rect)
        defer { pool.give(tile) }
        try body(tile)
    }

    private func evaluateBypassingKeep(_ node: ImageNode, _ rect: PixelRect) throws -> Tile {
        guard plan.materialized.contains(ObjectIdentifier(node)) else { return try evaluate(node, rect) }
        return try computed(node, rect)
    }

    /// Evaluates the node's inputs over their regions of interest and runs its kernel.
    private func runKernel(_ node: ImageNode, into output: Tile) throws {
        if let source = node.kernel as? any RowSource {
            let start = DispatchTime.now().uptimeNanoseconds
            try readSource(source, node, into: output)
            statistics.record(node, pixels: output.rect.area, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
            return
        }
        if let reduction = node.kernel as? any ReductionKernel {
            // A reduction reads its whole area, block by block, instead of one input tile.
            let start = DispatchTime.now().uptimeNanoseconds
            try reduction.reduce(node, into: output, renderer: self)
            statistics.record(node, pixels: output.rect.area, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
            return
        }
        var inputs: [Tile] = []
        inputs.reserveCapacity(node.inputs.count)
        defer { inputs.forEach(pool.give) }
        for (i, input) in node.inputs.enumerated() {
            var region = node.kernel.regionOfInterest(for: output.rect, input: i)
            if node.kernel.readsOnlyInsideInputs { region = region.intersection(input.pixelExtent) }
            inputs.append(try evaluate(input, region))
        }
        let start = DispatchTime.now().uptimeNanoseconds
        try node.kernel.render(Destination(output), inputs: inputs.map(Sampler.init))
        statistics.record(node, pixels: output.rect.area, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
    }
}

// Sources: rows arrive from the stream planned for the render, or from the region the
// plan needs, decoded once into the cache on a background thread.
extension Renderer {
    /// Fills `output` with `source`'s pixels, waiting for the decoded rows it covers.
    func readSource(_ source: any RowSource, _ node: ImageNode, into output: Tile) throws {
        let rows: any DecodedRows = try streams[ObjectIdentifier(node)]
            ?? decodedRows(of: source, plan.region(of: node), key: node.identity)
        try rows.waitForRows(through: source.rows(for: output.rect).upperBound)
        source.convert(rows, into: output)
    }

    /// The rows of `source` holding `region`, decoded once per cache on a background
    /// thread; callers wait for the rows they need.
    private func decodedRows(of source: any RowSource, _ region: PixelRect, key: NodeIdentity) throws -> DecodingRaster {
        let needed = source.rows(for: region)
        let entry = try cache.entry(for: key, isUsable: { entry in
            if case let .raster(d) = entry { return d.firstRow <= needed.lowerBound && d.firstRow + d.raster.height >= needed.upperBound }
            return false
        }, compute: {
            let decoder = try source.decoder()
            try ImageFile.checkLimit(decoder.header, file: source.sourceName, pixelLimit: pixelLimit)
            try ImageFile.checkMemory(decoder, reduction: source.reduction, rows: needed.count, file: source.sourceName, limit: memoryLimit)
            let decoding = DecodingRaster(raster: ImageFile.emptyRaster(decoder, reduction: source.reduction, rows: needed),
                                          firstRow: needed.lowerBound)
            statistics.addDecodedRows(decoding.raster.height)
            let cache = self.cache
            decoding.start(decoder, reduction: source.reduction, rows: needed, warnings: statistics.warnings) { cache.removeValue(for: key) }
            return .raster(decoding)
        })
        guard case let .raster(decoding) = entry else {
            throw LumenError.unrenderable(reason: "\(source.sourceName): the cache holds pixels, not rows, for this file")
        }
        return decoding
    }
}

/// Runs `body(0..<count)` on up to `threads` threads; the first error stops the rest.
/// `body` must be safe to call from several threads at once for different indices
/// (every caller writes only the tile or rows of its own index). With `lastThreadWaits`,
/// the last thread first waits for it, then joins the others on what is left.
func forEachConcurrently(_ count: Int, threads: Int, lastThreadWaits: (() -> Void)? = nil, _ body: (Int) throws -> Void) throws {
    if threads <= 1 || count <= 1 {
        for i in 0..<count { try body(i) }
        return
    }
    struct Progress { var next = 0; var failure: Error? }
    let progress = LockedValue(Progress())
    let workers = min(threads, count)
    try withoutActuallyEscaping(body) { body in
        // The fork-join point: the one place a closure that is not @Sendable runs on
        // several threads, each with its own indices; concurrentPerform returns only when all are done.
        nonisolated(unsafe) let body = body, lastThreadWaits = lastThreadWaits
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            if worker == workers - 1, let lastThreadWaits { lastThreadWaits() }
            while true {
                let index: Int? = progress.withLock { p in
                    guard p.failure == nil, p.next < count else { return nil }
                    p.next += 1
                    return p.next - 1
                }
                guard let index else { return }
                do { try body(index) } catch {
                    progress.withLock { p in if p.failure == nil { p.failure = error } }
                }
            }
        }
        if let failure = progress.withLock({ $0.failure }) { throw failure }
    }
}

/// A region cut into tiles, in rows from the top (the order files are written).
struct TileGrid {
    let tiles: [PixelRect]

    init(region: PixelRect, tileWidth: Int, tileHeight: Int) {
        var tiles: [PixelRect] = []
        var top = region.maxY
        while top > region.y {
            let bottom = max(region.y, top - tileHeight)
            var x = region.x
            while x < region.maxX {
                let right = min(region.maxX, x + tileWidth)
                tiles.append(PixelRect(x: x, y: bottom, width: right - x, height: top - bottom))
                x = right
            }
            top = bottom
        }
        self.tiles = tiles
    }
}

/// Per-node counters of one render, for `explain` and `--stats`.
final class RenderStatistics: Sendable {
    /// Where decoders report during this render: the caller's collector when one is set
    /// (a batch item's), else a new one.
    let warnings: DecodeWarnings

    init(failOnWarning: Bool = false) {
        warnings = DecodeWarnings.current ?? DecodeWarnings(failOnWarning: failOnWarning)
    }

    struct NodeFigures { var tiles = 0; var pixels = 0; var nanoseconds: UInt64 = 0 }
    private struct Counts { var figures: [ObjectIdentifier: NodeFigures] = [:]; var decodedRows = 0; var windowRows = 0 }
    private let counts = LockedValue(Counts())

    var figures: [ObjectIdentifier: NodeFigures] { counts.withLock { $0.figures } }
    var decodedRows: Int { counts.withLock { $0.decodedRows } }
    /// Rows held by the windows of streamed sources (0 when nothing streamed).
    var windowRows: Int { counts.withLock { $0.windowRows } }

    func record(_ node: ImageNode, pixels: Int, nanoseconds: UInt64) {
        counts.withLock { c in
            c.figures[ObjectIdentifier(node), default: NodeFigures()].tiles += 1
            c.figures[ObjectIdentifier(node), default: NodeFigures()].pixels += pixels
            c.figures[ObjectIdentifier(node), default: NodeFigures()].nanoseconds += nanoseconds
        }
    }

    func addDecodedRows(_ rows: Int) { counts.withLock { $0.decodedRows += rows } }
    func addWindowRows(_ rows: Int) { counts.withLock { $0.windowRows += rows } }
}
