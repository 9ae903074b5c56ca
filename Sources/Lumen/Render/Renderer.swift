import Foundation

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
    private let computedFromStreams = LockedValue<[ObjectIdentifier: Tile]>([:])
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

    /// Decides which sources stream. A source whose needed rows take at most
    /// `streamingBytes` is decoded whole through the cache; so is one that fits in half
    /// the cache when it is there already, or is read twice (two nodes of this plan, or an
    /// earlier render on this cache, or a caller that said it will render it again), as
    /// long as its whole rows fit the memory limit, or when a window would hold all of it
    /// anyway (a one-step render). The others stream through a window holding, at any
    /// step, the rows from the earliest that step or a later one reads to the last this
    /// step reads, plus read-ahead. Kept intermediates are computed before the first step:
    /// one that reads a source directly is computed a band of tiles at a time
    /// (`keptBands`), each band a step of the window; one that reaches it only through
    /// another kept intermediate reads none of its rows.
    private static func planStreams(_ plan: RenderPlan, steps: [PixelRect], cache: RenderCache, streamingBytes: Int, pixelLimit: Int,
                                    memoryLimit: Int?, statistics: RenderStatistics)
        throws -> ([ObjectIdentifier: SourceStream], [[ObjectIdentifier: Int]], [ObjectIdentifier: [[ObjectIdentifier: Int]]]) {
        let cacheBytes = cache.byteLimit, streamingBytes = min(max(0, streamingBytes), cacheBytes / 2)
        var streams: [ObjectIdentifier: SourceStream] = [:]
        var releases = [[ObjectIdentifier: Int]](repeating: [:], count: steps.count)
        var keptReleases: [ObjectIdentifier: [[ObjectIdentifier: Int]]] = [:]
        let sources = plan.order.filter { $0.kernel is any RowSource && !plan.region(of: $0).isEmpty }
        guard !sources.isEmpty, steps.count > 0 else { return (streams, releases, keptReleases) }
        var madePlans: [RenderPlan]?  // each step's plan, made when a source first streams
        let kept = plan.order.filter { plan.materialized.contains(ObjectIdentifier($0)) }
        var occurrences: [NodeIdentity.Digest: Int] = [:]
        for node in sources { occurrences[node.identity.digest, default: 0] += 1 }
        for node in sources {
            guard let source = node.kernel as? any RowSource else { continue }
            let whole = source.rows(for: plan.region(of: node))
            // The header bounds the decoded size (at most 4 channels): small sources go
            // through the cache without asking for a decoder here.
            let header = source.header
            let estimate = whole.count * source.decodedWidth * (header.hasAlpha ? 4 : 3) * header.decodedDepth / 8
            guard estimate > streamingBytes else { continue }
            let keepable = estimate <= cacheBytes / 2
            if keepable, cache.holdsRows(node.identity, whole) { continue }
            let decoder = try source.decoder()
            let layout = decoder.layout(reduction: source.reduction)
            let bytes = whole.count * layout.width * layout.channels * layout.depth / 8
            guard bytes > streamingBytes else { continue }
            if keepable, occurrences[node.identity.digest, default: 0] > 1 || cache.isDecodedAgain(node.identity),
               (try? ImageFile.checkMemory(decoder, reduction: source.reduction, rows: whole.count, file: source.sourceName, limit: memoryLimit)) != nil {
                continue
            }
            try ImageFile.checkLimit(decoder.header, file: source.sourceName, pixelLimit: pixelLimit)
            let stepPlans = madePlans ?? steps.map { RenderPlan(root: plan.root, outputRect: $0, cache: nil) }
            madePlans = stepPlans
            // Kept intermediates are computed first, in the plan's order: the rows each band
            // of one that reads this source reads (one that reaches it only through other kept
            // intermediates, computed before it, reads none), then each step's.
            var needs: [Range<Int>] = []
            var keptSteps: [(node: ObjectIdentifier, first: Int, count: Int)] = []
            for keptNode in kept where reaches(keptNode, node, avoiding: plan.materialized) {
                let bands = keptBands(of: keptNode, region: plan.region(of: keptNode)).map { band in
                    source.rows(for: RenderPlan(root: keptNode, outputRect: band.reduce(.empty) { $0.union($1) }, cache: nil).region(of: node))
                }
                keptSteps.append((ObjectIdentifier(keptNode), needs.count, bands.count))
                needs += bands
            }
            // The steps' plans pull regions through kept intermediates too: when the steps
            // reach this source only through them, they read none of its rows.
            let direct = reaches(plan.root, node, avoiding: plan.materialized)
            needs += stepPlans.map { direct ? source.rows(for: $0.region(of: node)) : 0..<0 }
            var earliest = Int.max, capacity = 0, advance = 0, end = Int.max
            var starts = [Int](repeating: 0, count: needs.count)
            for i in needs.indices.reversed() where !needs[i].isEmpty {
                earliest = min(earliest, needs[i].lowerBound)
                starts[i] = earliest
                capacity = max(capacity, needs[i].upperBound - earliest)
                if end != Int.max { advance = max(advance, end - needs[i].upperBound) }
                end = needs[i].upperBound
            }
            for i in needs.indices.reversed() where needs[i].isEmpty { starts[i] = i + 1 < needs.count ? starts[i + 1] : Int.max }
            let offset = needs.count - steps.count  // the kept intermediates' steps come first
            for i in 0..<steps.count where i + 1 + offset < needs.count {
                releases[i][ObjectIdentifier(node)] = starts[i + 1 + offset]
            }
            var keptReleasesOfThis: [ObjectIdentifier: [[ObjectIdentifier: Int]]] = [:]
            for k in keptSteps {
                keptReleasesOfThis[k.node] = (0..<k.count).map { b in
                    [ObjectIdentifier(node): k.first + b + 1 < needs.count ? starts[k.first + b + 1] : Int.max]
                }
            }
            // Read-ahead: the decoder may run up to three steps' worth of new rows ahead of
            // the tiles, within 32 MiB beyond one step.
            let rowBytes = max(1, layout.width * layout.channels * layout.depth / 8)
            let readAhead = min(3 * advance, max(advance, (32 << 20) / rowBytes))
            // A window holding every row saves nothing: decode through the cache, where a
            // later render finds it.
            if keepable, capacity + readAhead >= whole.count { continue }
            try ImageFile.checkMemory(decoder, reduction: source.reduction, rows: capacity + readAhead, file: source.sourceName,
                                      limit: memoryLimit)
            let stream = SourceStream(decoder: decoder, reduction: source.reduction, rows: whole, capacity: capacity + readAhead)
            stream.start(decoder, reduction: source.reduction, warnings: statistics.warnings)
            statistics.addDecodedRows(whole.count)
            statistics.addWindowRows(stream.raster.height)
            streams[ObjectIdentifier(node)] = stream
            keptReleases.merge(keptReleasesOfThis) { mine, theirs in zip(mine, theirs).map { $0.merging($1) { a, _ in a } } }
        }
        return (streams, releases, keptReleases)
    }

    /// The tiles a kept intermediate over `region` is computed in, in bands from the top.
    static func keptBands(of node: ImageNode, region: PixelRect) -> [[PixelRect]] {
        let size = node.kernel.preferredTileSize ?? (256, 256)
        var bands: [[PixelRect]] = []
        for tile in TileGrid(region: region, tileWidth: size.0, tileHeight: size.1).tiles {
            if let last = bands.last?.last, last.y == tile.y { bands[bands.count - 1].append(tile) } else { bands.append([tile]) }
        }
        return bands
    }

    /// Whether `target` is `node` or one of its inputs, at any depth, on a path that goes
    /// through none of `avoiding` (other than `node`) before reaching it. With the kept
    /// intermediates to avoid, a walk stops at the next one down: in a graph 100,000 steps
    /// deep, kept every 128, walks from each of them down the whole graph were quadratic.
    private static func reaches(_ node: ImageNode, _ target: ImageNode, avoiding: Set<ObjectIdentifier>) -> Bool {
        var stack = [node], seen: Set<ObjectIdentifier> = []
        while let next = stack.popLast() {
            if next === target { return true }
            if next === node || !avoiding.contains(ObjectIdentifier(next)), seen.insert(ObjectIdentifier(next)).inserted { stack += next.inputs }
        }
        return false
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
            // Read in place: a kept intermediate is not written again once computed.
            let kept = try keptPixels(of: node)
            if kept.rect.contains(rect) { return Tile(viewing: kept, rect) }
            let output = pool.takeCleared(rect)
            output.copy(from: kept)
            return output
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

    private func keptPixels(of node: ImageNode, threads: Int = 1) throws -> Tile {
        if let held = computedFromStreams.withLock({ $0[ObjectIdentifier(node)] }) { return held }
        let region = plan.region(of: node)
        var computedHere = false
        let entry = try cache.entry(for: node.identity, isUsable: { entry in
            if case let .pixels(tile) = entry { return tile.rect.contains(region) }
            return false
        }, compute: {
            computedHere = true
            let kept = Tile(capacity: region.area)
            kept.reset(to: region)
            if let releases = keptReleasePoints[ObjectIdentifier(node)] {
                try computeFromStreams(node, into: kept, releases: releases)
                return .pixels(kept)
            }
            // Each tile is computed in its place in `kept`, not copied there.
            let size = node.kernel.preferredTileSize ?? (256, 256)
            let tiles = TileGrid(region: region, tileWidth: size.0, tileHeight: size.1).tiles
            let decodings = threads > 1 ? try decodings(readBy: node) : []
            try forEachConcurrently(tiles.count, threads: threads,
                                    lastThreadWaits: decodings.isEmpty ? nil : { decodings.forEach { try? $0.waitForRows($0.raster.height) } }) { index in
                try cancellation?.check()
                try fill(Tile(viewing: kept, tiles[index]), with: node)
            }
            return .pixels(kept)
        })
        guard case let .pixels(tile) = entry else { preconditionFailure("intermediate cached as raster") }
        if let releases = keptReleasePoints[ObjectIdentifier(node)] {
            computedFromStreams.withLock { $0[ObjectIdentifier(node)] = tile }
            // Found in the cache (an earlier render kept it): its rows are not read, and a
            // stream no later band or step reads stops.
            if !computedHere, let last = releases.last {
                for (id, row) in last { if row == Int.max { streams[id]?.cancel() } else { streams[id]?.release(before: row) } }
            }
        }
        return tile
    }

    /// Computes kept intermediate `node` over `kept`'s region from a streamed source, a
    /// band of tiles at a time, releasing after each band the rows no later band or step
    /// reads. One thread computes, beside the decoder's: the decoder is the slower, and
    /// two threads beside it made the whole slower on two cores (see `prepareIntermediates`).
    private func computeFromStreams(_ node: ImageNode, into kept: Tile, releases: [[ObjectIdentifier: Int]]) throws {
        let bands = Self.keptBands(of: node, region: kept.rect)
        precondition(bands.count == releases.count, "kept bands planned differently")
        for (band, release) in zip(bands, releases) {
            for tile in band {
                try cancellation?.check()
                try fill(Tile(viewing: kept, tile), with: node)
            }
            for (id, row) in release { streams[id]?.release(before: row) }
        }
    }

    /// Computes `region` of `node` tile by tile, bypassing its own kept copy, calling
    /// `body` with each finished tile (on the worker that made it).
    func renderTiles(of node: ImageNode, in region: PixelRect, tileSize: (Int, Int), threads: Int,
                     _ body: (Tile) throws -> Void) throws {
        let tiles = TileGrid(region: region, tileWidth: tileSize.0, tileHeight: tileSize.1).tiles
        try forEachConcurrently(tiles.count, threads: threads) { index in
            try cancellation?.check()
            let tile = try evaluateBypassingKeep(node, tiles[index])
            defer { pool.give(tile) }
            try body(tile)
        }
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
