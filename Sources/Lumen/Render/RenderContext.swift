import LumenPlatform

/// Renders images: owns the schedule (threads, tile size), the tile pool and the
/// render cache. Pass one explicitly; contexts share nothing. Thread-safe: several
/// renders may run at once and share the cache.
public final class RenderContext: Sendable {
    /// Threads, tile size, cache budget, pixel limit and rewrites of a context.
    public struct Options: Sendable {
        /// Worker threads (default: one per core).
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        /// Tile width in pixels (kernels with a preferred size, and the memory budget, may change it).
        public var tileWidth = 256
        /// Tile height in pixels.
        public var tileHeight = 64
        /// Byte budget of the render cache (default 256 MiB).
        public var cacheBytes = 256 << 20
        /// A source whose decoded rows need more than this (8 MiB by default) streams
        /// through a window of rows the first time the context renders it, as a server or
        /// a batch decoding each photo once wants (a 2560×1600 photo motion-blurred: 24.5 MiB
        /// at the peak, not 49). Rendered again on the same context (transition frames), it
        /// is decoded once more, into the cache, and kept for the renders after; so is a
        /// source read twice in one render, or that `RenderCache.expectRenders(of:)` names,
        /// or whose window would hold every row anyway, unless its rows break the memory
        /// limit. Sources needing more than half `cacheBytes` always stream.
        public var streamingBytes = 8 << 20
        /// Largest width × height a source or an output may have.
        public var pixelLimit = ImageFile.defaultPixelLimit
        /// Bytes a decode may need (rows kept, plus a library's whole-picture buffer); nil:
        /// what the process may still use under `ulimit -v` or its cgroup (`MemoryLimit`).
        public var memoryLimit: Int?
        /// Apply graph rewrites (fusion, folding, shrink-on-load) before rendering.
        public var optimizes = true
        /// At most how much shrinking a reduced decode (shrink-on-load) must leave the
        /// resampler; nil keeps each format's own margin (2 for JPEG's DCT scaling, as
        /// vipsthumbnail leaves; 1 for a TIFF pyramid's levels). 1 decodes a JPEG at the
        /// smallest DCT scale not below the output, as Pillow's `draft` (and so thumbor)
        /// does: a 2560×1600 photo made 800 pixels wide is then decoded at 1280×800, a
        /// quarter of the pixels, 45–53 dB from the full-size Lanczos (vips measures the same
        /// for its own `shrink=2` load), where JPEG's q85 itself is about 40 dB away.
        public var shrinkOnLoadMargin: Double?
        /// Turn decoder warnings (corrupt data a library decoded around) into errors, as
        /// libvips's `fail` option does; otherwise they are listed in `lastReport.warnings`.
        public var failOnWarning = false
        /// Whether `lastReport` lists the graph as built and as run (`RenderReport.original`
        /// and `optimized`). Listing reflects over every node's parameters after each render,
        /// which a program rendering many small images (a server, a process per QR code)
        /// pays for nothing; with `false` both lists are empty and the report's figures
        /// (time, rows decoded, cache, warnings) are kept.
        public var listsGraphs = true

        /// Options with every default except those given; `threads` and tile sizes below 1 are raised to 1.
        public init(threads: Int? = nil, tileWidth: Int = 256, tileHeight: Int = 64,
                    cacheBytes: Int = 256 << 20, pixelLimit: Int = ImageFile.defaultPixelLimit) {
            if let threads { self.threads = max(1, threads) }
            self.tileWidth = max(1, tileWidth)
            self.tileHeight = max(1, tileHeight)
            self.cacheBytes = cacheBytes
            self.pixelLimit = pixelLimit
        }
    }

    /// The options the context was made with.
    public let options: Options
    /// The context's render cache, shared by every render on it.
    public let cache: RenderCache
    let pool = TilePool()
    let report = LockedValue<RenderReport?>(nil)

    /// A context with its own cache and tile pool.
    public init(_ options: Options = Options()) {
        self.options = options
        self.cache = RenderCache(byteLimit: options.cacheBytes)
    }

    /// What the most recent render on this context did (graph, regions, tiles, time).
    public var lastReport: RenderReport? {
        report.withLock { $0 }
    }

    /// Renders `rect` (default: the image's extent) into a bitmap.
    public func render(_ image: Image, in rect: Rect? = nil, format: Bitmap.Format = .rgba8) throws -> Bitmap {
        let region = try outputRegion(image, rect)
        var bitmap = Bitmap(width: region.width, height: region.height, format: format)
        try bitmap.samples.withUnsafeMutableBufferPointer { samples in
            try renderTiles(image, region) { tile in
                var encoded8 = [UInt8](repeating: 0, count: tile.rect.width * 4)
                var encoded16 = [UInt16](repeating: 0, count: format == .rgba16 ? tile.rect.width * 4 : 0)
                for y in tile.rect.y..<tile.rect.maxY {
                    let row = region.maxY - 1 - y
                    let out = samples.baseAddress! + (row * region.width + (tile.rect.x - region.x)) * 4
                    let pixels = tile.row(y)
                    switch format {
                    case .rgbaFloat:
                        UnsafeMutableRawPointer(out).copyMemory(from: pixels, byteCount: tile.rect.width * 16)
                    case .rgba8:
                        PixelConversion.encode8(pixels, count: tile.rect.width, channels: 4, into: &encoded8)
                        for i in 0..<encoded8.count { out[i] = Float(encoded8[i]) }
                    case .rgba16:
                        PixelConversion.encode16(pixels, count: tile.rect.width, channels: 4, into: &encoded16)
                        for i in 0..<encoded16.count { out[i] = Float(encoded16[i]) }
                    }
                }
            }
        }
        return bitmap
    }

    /// Encodes the image (its extent, or `rect`) to a file, band by band, atomically.
    /// The format defaults to the path's extension. Images that may have transparency
    /// keep an alpha channel where the format has one; JPEG gets the image over black,
    /// or over `background` when given.
    public func write(_ image: Image, to url: URL, format: OutputFormat? = nil,
                      in rect: Rect? = nil, background: Color? = nil) throws {
        guard let format = format ?? OutputFormat(path: url.path) else {
            throw LumenError.unwritable(file: url.path, reason: "unknown extension '.\(url.pathExtension)' (use \(Codecs.extensionList))")
        }
        let job = try encodeJob(image, format: format, rect: rect, background: background)
        var gainMap = try gainMapOutcome(image, format: format)
        let map = try encodeGainMap(&gainMap, for: job, format: format)
        try reportDropped(gainMap)
        if let map, let withMap = try encode(job, gainMap: map, format: format, outcome: &gainMap) {
            try ImageWriter.atomically(to: url) { sink in _ = try sink.write(withMap) }
            return
        }
        try ImageWriter.atomically(to: url) { sink in
            let encoder = try ImageWriter.encoder(format: format, layout: job.layout, sink: sink)
            try job.run(into: encoder)
            _ = try encoder.finish()
        }
        noteDropped(gainMap)
    }

    /// Encodes the image (its extent, or `rect`) in memory, as `write` does to a file.
    public func encode(_ image: Image, format: OutputFormat, in rect: Rect? = nil, background: Color? = nil) throws -> Data {
        let job = try encodeJob(image, format: format, rect: rect, background: background)
        var gainMap = try gainMapOutcome(image, format: format)
        let map = try encodeGainMap(&gainMap, for: job, format: format)
        try reportDropped(gainMap)
        if let map, let withMap = try encode(job, gainMap: map, format: format, outcome: &gainMap) { return withMap }
        let name = "<\(format.fileFormat) in memory>"
        let encoder = try ImageWriter.encoder(format: format, layout: job.layout, sink: .memory(name: name))
        try job.run(into: encoder)
        guard let data = try encoder.finish() else { throw LumenError.unwritable(file: name, reason: "the encoder returned no bytes") }
        noteDropped(gainMap)
        return data
    }

    /// Adds a line to the last report's warnings (after the render that made the report).
    func addWarning(_ warning: String) {
        report.withLock { $0?.warnings.append(warning) }
    }

    /// Writes the images as the frames of an animation (WebP), each shown for its duration
    /// in seconds (one duration for all, or one per frame), atomically. Frames are
    /// rendered one at a time over `rect` (default: the first frame's extent), each into
    /// the animation encoder's sink for that frame.
    public func writeAnimation(_ frames: [Image], durations: [Double], to url: URL, format: OutputFormat = .webp,
                               in rect: Rect? = nil, loopCount: Int = 0) throws {
        try ImageWriter.atomically(to: url) { sink in
            _ = try encodeAnimation(frames, durations: durations, format: format, in: rect, loopCount: loopCount, sink: sink)
        }
    }

    /// The animation `writeAnimation` writes, in memory.
    public func encodeAnimation(_ frames: [Image], durations: [Double], format: OutputFormat = .webp,
                                in rect: Rect? = nil, loopCount: Int = 0) throws -> Data {
        let name = "<animated \(format.fileFormat.displayName) in memory>"
        guard let data = try encodeAnimation(frames, durations: durations, format: format, in: rect, loopCount: loopCount,
                                             sink: .memory(name: name)) else {
            throw LumenError.unwritable(file: name, reason: "the encoder returned no bytes")
        }
        return data
    }

    private func encodeAnimation(_ frames: [Image], durations: [Double], format: OutputFormat, in rect: Rect?,
                                 loopCount: Int, sink: EncodeSink) throws -> Data? {
        let name = sink.name
        guard let codec = Codecs.codec(for: format.fileFormat), codec.capabilities.writesAnimation else {
            let formats = Codecs.list(Codecs.all.filter(\.capabilities.writesAnimation).map(\.displayName))
            throw LumenError.unwritable(file: name, reason: "animations are written as \(formats), not \(format.fileFormat.displayName)")
        }
        guard let first = frames.first else { throw LumenError.unwritable(file: name, reason: "an animation needs at least one frame") }
        guard durations.count == 1 || durations.count == frames.count,
              durations.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 86_400 }) else {
            throw LumenError.unwritable(file: name, reason: "give one duration, or one per frame, each 0…86400 s")
        }
        let region = try outputRegion(first, rect)
        let area = Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width), height: Double(region.height))
        let animation = try codec.animationEncoder(sink: sink, format: format, width: region.width, height: region.height,
                                                   loopCount: loopCount)
        for (index, frame) in frames.enumerated() {
            let job = try encodeJob(frame, format: format, rect: area, background: nil, keepsMetadata: false)
            let seconds = durations.count == 1 ? durations[0] : durations[index]
            let frameSink = try animation.frame(layout: job.layout, milliseconds: Int((seconds * 1000).rounded()))
            try job.run(into: frameSink)
            _ = try frameSink.finish()
        }
        return try animation.finish(metadata: ImageMetadata())
    }

    /// The render plan for `image` without computing pixels: the graph before and after
    /// rewrites, with each node's extent and region of interest.
    public func plan(for image: Image, in rect: Rect? = nil) throws -> RenderReport {
        let region = try outputRegion(image, rect)
        let optimized = optimizedGraph(image, region)
        let plan = RenderPlan(root: optimized, outputRect: region, cache: nil)
        return RenderReport(original: image.node, plan: plan, statistics: nil, cache: cache.statistics, seconds: 0, listsGraphs: true)
    }

    /// `steps`: the rectangles the render will compute, in order (default: the region).
    private func makeRenderer(_ plan: RenderPlan, steps: [PixelRect]) throws -> Renderer {
        let renderer = try Renderer(plan: plan, pool: pool, cache: cache, pixelLimit: options.pixelLimit, memoryLimit: options.memoryLimit,
                                    streamingBytes: options.streamingBytes, steps: steps,
                                    failOnWarning: options.failOnWarning, threads: options.threads)
        try renderer.prepareIntermediates(threads: options.threads)
        return renderer
    }

    private func finish(_ image: Image, _ renderer: Renderer, started: UInt64) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let report = RenderReport(original: image.node, plan: renderer.plan, statistics: renderer.statistics,
                                  cache: cache.statistics, seconds: seconds, listsGraphs: options.listsGraphs)
        self.report.withLock { $0 = report }
    }

    /// Renders every tile of `region`, calling `body` on worker threads.
    private func renderTiles(_ image: Image, _ region: PixelRect, _ body: (Tile) throws -> Void) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let (plan, tile) = try makePlan(image, region)
        let renderer = try makeRenderer(plan, steps: [region])
        try renderer.renderTiles(of: renderer.plan.root, in: region, tileSize: tile, threads: options.threads, body)
        renderer.finishedStep(0)
        finish(image, renderer, started: started)
    }

    /// Renders `region` in bands of tile rows, converts each tile to encoded rows in its
    /// band's buffer, and pushes the bands into the encoder in top-to-bottom order, so
    /// memory stays proportional to a band. The threads take the tiles in order across the
    /// bands (see `BandSlots`).
    func renderBands(_ image: Image, _ region: PixelRect, layout: EncodeLayout, profile: RGBProfile?,
                             into encoder: any ImageEncoder) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let (plan, tile) = try makePlan(image, region)
        let tileHeight = tile.height
        let tilesPerRow = (region.width + tile.width - 1) / tile.width
        // Enough tile rows per band to keep every thread busy.
        let bandTileRows = max(1, min(8, (2 * options.threads + tilesPerRow - 1) / tilesPerRow))
        let bandHeight = bandTileRows * tileHeight
        var bands: [PixelRect] = []
        var top = region.maxY
        while top > region.y {
            let bottom = max(region.y, top - bandHeight)
            bands.append(PixelRect(x: region.x, y: bottom, width: region.width, height: top - bottom))
            top = bottom
        }
        let renderer = try makeRenderer(plan, steps: bands)
        let bytesPerRow = layout.bytesPerRow
        var tiles: [(band: Int, rect: PixelRect)] = []
        var tileCounts: [Int] = []
        for (index, band) in bands.enumerated() {
            let grid = TileGrid(region: band, tileWidth: tile.width, tileHeight: tile.height).tiles
            tiles += grid.map { (index, $0) }
            tileCounts.append(grid.count)
        }
        let slots = BandSlots(bands: bands.map { (region.maxY - $0.maxY, $0.height) }, tiles: tileCounts, bytesPerRow: bytesPerRow,
                              sink: encoder, bandFinished: renderer.finishedStep)
        defer { slots.drain() }
        try forEachConcurrently(tiles.count, threads: options.threads) { index in
            let band = tiles[index].band
            do {
                try renderer.renderTile(of: renderer.plan.root, tiles[index].rect) { tile in
                    let buffer = try slots.buffer(for: band)
                    Self.encodeRows(of: tile, into: buffer, bandTop: bands[band].maxY, left: region.x, layout: layout, profile: profile)
                }
            } catch {
                slots.fail(error)  // threads waiting for a band this tile belongs to would wait for ever
                throw error
            }
            slots.converted(tileOf: band)
        }
        try slots.finish()
        finish(image, renderer, started: started)
    }

    /// `tile`'s rows in the band's buffer, whose first row is file row `bandTop - 1` (the
    /// band's top) and whose first column is `left`: 8-bit codes, half or whole floats.
    private static func encodeRows(of tile: Tile, into buffer: UnsafeMutableRawPointer, bandTop: Int, left: Int, layout: EncodeLayout,
                                   profile: RGBProfile?) {
        let bytesPerRow = layout.bytesPerRow
        // A wide-gamut output converts each row first (a copy: tiles may be cached).
        let scratch = profile.map { _ in UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: tile.rect.width) }
        defer { scratch?.deallocate() }
        for y in tile.rect.y..<tile.rect.maxY {
            let row = bandTop - 1 - y
            let offset = row * bytesPerRow + (tile.rect.x - left) * layout.channels * layout.depth / 8
            var pixels = UnsafePointer(tile.row(y))
            if let profile, let scratch {
                scratch.update(from: tile.row(y), count: tile.rect.width)
                profile.prepareForEncoding(scratch, count: tile.rect.width)
                pixels = UnsafePointer(scratch)
            }
            if layout.depth == 8 {
                PixelConversion.encode8(pixels, count: tile.rect.width, channels: layout.channels,
                                        into: (buffer + offset).assumingMemoryBound(to: UInt8.self))
            } else if layout.depth == 32 {
                PixelConversion.encodeLinear(pixels, count: tile.rect.width, channels: layout.channels,
                                             into: (buffer + offset).assumingMemoryBound(to: Float.self))
            } else if layout.transfer != .sRGB {
                HDRCurve.encode16(pixels, count: tile.rect.width, channels: layout.channels, transfer: layout.transfer,
                                  into: (buffer + offset).assumingMemoryBound(to: UInt16.self))
            } else {
                PixelConversion.encode16(pixels, count: tile.rect.width, channels: layout.channels,
                                         into: (buffer + offset).assumingMemoryBound(to: UInt16.self))
            }
        }
    }
}

