import LumenPlatform

// How a render's sources are read: which stream through a window of rows and which are
// decoded whole through the cache, and after which step (or band of a kept intermediate)
// each window may let rows go. Worked out once, when the renderer is made.
extension Renderer {
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
    static func planStreams(_ plan: RenderPlan, steps: [PixelRect], cache: RenderCache, streamingBytes: Int, pixelLimit: Int,
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
            // the tiles, within 32 MiB beyond one step. When only kept intermediates' bands
            // read the source, one step: one thread computes them beside the decoder, the
            // slower of the two, so rows decoded further ahead only wait longer in memory (the
            // σ 8 blur of a 2560×1600 JPEG: 256 rows instead of 512, 1.9 MiB less, same time).
            let rowBytes = max(1, layout.width * layout.channels * layout.depth / 8)
            let readAhead = direct ? min(3 * advance, max(advance, (32 << 20) / rowBytes)) : advance
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
    static func reaches(_ node: ImageNode, _ target: ImageNode, avoiding: Set<ObjectIdentifier>) -> Bool {
        var stack = [node], seen: Set<ObjectIdentifier> = []
        while let next = stack.popLast() {
            if next === target { return true }
            if next === node || !avoiding.contains(ObjectIdentifier(next)), seen.insert(ObjectIdentifier(next)).inserted { stack += next.inputs }
        }
        return false
    }
}
