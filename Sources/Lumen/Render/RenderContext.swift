import Foundation

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
        public var tileHeight = 128
        /// Byte budget of the render cache (default 256 MiB).
        public var cacheBytes = 256 << 20
        /// Largest width × height a source or an output may have.
        public var pixelLimit = ImageFile.defaultPixelLimit
        /// Bytes a decode may need (rows kept, plus a library's whole-picture buffer); nil:
        /// what the process may still use under `ulimit -v` or its cgroup (`MemoryLimit`).
        public var memoryLimit: Int?
        /// Apply graph rewrites (fusion, folding, shrink-on-load) before rendering.
        public var optimizes = true
        /// Turn decoder warnings (corrupt data a library decoded around) into errors, as
        /// libvips's `fail` option does; otherwise they are listed in `lastReport.warnings`.
        public var failOnWarning = false

        /// Options with every default except those given; `threads` and tile sizes below 1 are raised to 1.
        public init(threads: Int? = nil, tileWidth: Int = 256, tileHeight: Int = 128,
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
    private let report = LockedValue<RenderReport?>(nil)

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
        if let map {
            let ultraHDR = try encodeUltraHDR(job, gainMap: map, format: format)
            try ImageWriter.atomically(to: url) { sink in _ = try sink.write(ultraHDR) }
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
        if let map { return try encodeUltraHDR(job, gainMap: map, format: format) }
        let name = "<\(format.fileFormat) in memory>"
        let encoder = try ImageWriter.encoder(format: format, layout: job.layout, sink: .memory(name: name))
        try job.run(into: encoder)
        guard let data = try encoder.finish() else { throw LumenError.unwritable(file: name, reason: "the encoder returned no bytes") }
        noteDropped(gainMap)
        return data
    }

    /// The input's gain map for a JPEG output that keeps it (nil for other outputs, and
    /// for inputs without one): placed like the output, or why it cannot be.
    private func gainMapOutcome(_ image: Image, format: OutputFormat) throws -> Result<UltraHDR.Carried, UltraHDR.Dropped>? {
        guard format.fileFormat == .jpeg, format.hdr == .keep else { return nil }
        return try UltraHDR.carry(image)
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

    /// One encode: the layout the encoder is made for, and how its rows are produced —
    /// rendered in bands, or copied from the decoder when the file is written unchanged.
    /// `run` pushes the rows into the encoder.
    struct EncodeJob {
        let context: RenderContext
        let image: Image
        let region: PixelRect
        var layout: EncodeLayout
        let profile: RGBProfile?
        let copy: DirectCopy?

        func run(into encoder: any ImageEncoder) throws {
            if let copy {
                try context.copyDirectly(copy, of: image.node, layout: layout, into: encoder)
            } else {
                try context.renderBands(image, region, layout: layout, profile: profile, into: encoder)
            }
        }
    }

    private func encodeJob(_ image: Image, format: OutputFormat, rect: Rect?, background: Color?,
                           keepsMetadata: Bool = true) throws -> EncodeJob {
        var image = image
        if let background {
            image = image.composited(over: Image(color: background).cropped(to: rect ?? image.extent))
        }
        let region = try outputRegion(image, rect)
        let opaque = image.node.isOpaque && (rect.map { image.extent.contains($0) } ?? true)
        let channels = !format.supportsAlpha || opaque ? 3 : 4
        var layout = EncodeLayout(width: region.width, height: region.height, channels: channels, depth: format.sampleDepth)
        let primary = image.primarySource
        let colour = try OutputColour(format: format, sourceGamut: primary?.source.gamut, name: "\(format.fileFormat.displayName) output")
        if keepsMetadata {
            layout.metadata = try outputMetadata(primary, format: format, colour: colour, width: region.width, height: region.height)
            // Linear-light floats carry no profile: an sRGB one would say their curve is sRGB's.
            if layout.depth == 32 { layout.metadata.iccProfile = nil }
        }
        if format.transfer != .sRGB {
            // PQ and HLG: the working space's primaries (BT.709), said by cICP, not a profile.
            guard format.fileFormat == .png, layout.depth == 16 else {
                throw LumenError.unwritable(file: "<\(format.fileFormat.displayName) output>",
                                            reason: "PQ and HLG are written as 16-bit PNG (--depth 16), not \(layout.depth)-bit \(format.fileFormat.displayName)")
            }
            layout.transfer = format.transfer
            layout.metadata.iccProfile = nil
            return EncodeJob(context: self, image: image, region: region, layout: layout, profile: nil, copy: nil)
        }
        let copy = primary?.source.gamut == colour.profile?.data ? try directCopy(of: image, region: region, layout: layout) : nil
        // Linear-light outputs (OpenEXR) are written in the working space's primaries, sRGB's.
        return EncodeJob(context: self, image: image, region: region, layout: layout, profile: layout.depth == 32 ? nil : colour.profile, copy: copy)
    }

    /// The metadata an output carries: its primary file's, as `format.metadata` says, with
    /// the EXIF orientation reset when the pixels were turned upright, and the ICC profile
    /// of the colour the pixels are written in.
    private func outputMetadata(_ primary: (source: any RowSource, oriented: Bool)?, format: OutputFormat, colour: OutputColour,
                                width: Int, height: Int) throws -> ImageMetadata {
        guard format.metadata != .strip else { return ImageMetadata() }
        var metadata = try primary?.source.metadata() ?? ImageMetadata()
        metadata.iccProfile = colour.embeddedProfile(sourceProfile: metadata.iccProfile)
        // An Ultra HDR input's directory of its gain map is not this file's (a file that
        // carries the map gets its own: UltraHDR).
        metadata.xmp = UltraHDR.withoutDirectory(metadata.xmp)
        return metadata.forOutput(policy: format.metadata, width: width, height: height, oriented: primary?.oriented ?? false)
    }

    /// The render plan for `image` without computing pixels: the graph before and after
    /// rewrites, with each node's extent and region of interest.
    public func plan(for image: Image, in rect: Rect? = nil) throws -> RenderReport {
        let region = try outputRegion(image, rect)
        let optimized = GraphOptimizer.optimize(image.node, outputRect: region, optimizations: options.optimizes)
        let plan = RenderPlan(root: optimized, outputRect: region, cache: nil)
        return RenderReport(original: image.node, plan: plan, statistics: nil, cache: cache.statistics, seconds: 0)
    }

    /// A source written unchanged, with the decoder that can feed the encoder directly.
    struct DirectCopy {
        let node: ImageNode
        let decoder: any ImageDecoder
        let reduction: Int
        let expandsGray: Bool
        /// Per-channel code → code tables, when colour was folded into the source's decode tables.
        let codeTables: [[UInt8]]?
    }

    /// A file written unchanged needs no trip through the working space (8-bit codes
    /// survive it exactly): decoded bands go straight to the encoder, so memory stays at
    /// one band. So does a file whose only change is per-channel colour folded into its
    /// decode tables: each code maps through a table to exactly the code the float path
    /// would write. Nil when the layouts differ and pixels must be converted.
    private func directCopy(of image: Image, region: PixelRect, layout: EncodeLayout) throws -> DirectCopy? {
        // Only a file, or colour filters straight over one, can come out as a bare source.
        var below = image.node
        while below.kernel is ColorOperations, let input = below.inputs.first { below = input }
        guard below.kernel is any RowSource else { return nil }
        let root = image.node === below
            ? image.node : GraphOptimizer.optimize(image.node, outputRect: region, optimizations: options.optimizes)
        guard let source = root.kernel as? any RowSource, source.blockShrink == 1, region == root.pixelExtent else { return nil }
        let decoder = try source.decoder()
        let decoded = decoder.layout(reduction: source.reduction)
        let expandsGray = decoded.channels == 1 && layout.channels == 3
        // (Float outputs hold premultiplied alpha, so a float file with straight alpha goes through the working space.)
        guard decoded.depth == layout.depth, decoded.depth == 8 || !expandsGray, !decoded.alphaPremultiplied,
              decoded.depth != 32 || decoded.channels % 2 == 1,
              decoded.channels == layout.channels || expandsGray else { return nil }
        let codeTables = source.codeTables
        if codeTables != nil && (decoded.depth != 8 || layout.channels != 3) { return nil }
        try ImageFile.checkLimit(decoder.header, file: source.sourceName, pixelLimit: options.pixelLimit)
        try ImageFile.checkMemory(decoder, reduction: source.reduction, rows: 64, file: source.sourceName, limit: options.memoryLimit)
        return DirectCopy(node: root, decoder: decoder, reduction: source.reduction, expandsGray: expandsGray, codeTables: codeTables)
    }

    private func copyDirectly(_ copy: DirectCopy, of original: ImageNode, layout: EncodeLayout,
                              into encoder: any ImageEncoder) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let pipeline = BandPipeline(bytesPerRow: layout.bytesPerRow, sink: encoder)
        defer { pipeline.drain() }
        let statistics = RenderStatistics(failOnWarning: options.failOnWarning)
        try DecodeWarnings.$current.withValue(statistics.warnings) {
        let cancellation = RenderCancellation.current
        try copy.decoder.forEachBand(reduction: copy.reduction, rows: 0..<layout.height) { band in
            try cancellation?.check()
            try pipeline.submit(firstRow: band.firstRow, rowCount: band.rowCount) { target in
                let pixels = band.rowCount * layout.width
                let source = band.base.assumingMemoryBound(to: UInt8.self), rgb = target.assumingMemoryBound(to: UInt8.self)
                if let tables = copy.codeTables {
                    let (r, g, b) = (tables[0], tables[1], tables[2])
                    if copy.expandsGray {
                        for i in 0..<pixels { let v = Int(source[i]); rgb[3 * i] = r[v]; rgb[3 * i + 1] = g[v]; rgb[3 * i + 2] = b[v] }
                    } else {
                        for i in 0..<pixels {
                            rgb[3 * i] = r[Int(source[3 * i])]; rgb[3 * i + 1] = g[Int(source[3 * i + 1])]; rgb[3 * i + 2] = b[Int(source[3 * i + 2])]
                        }
                    }
                } else if copy.expandsGray {
                    for i in 0..<pixels { rgb[3 * i] = source[i]; rgb[3 * i + 1] = source[i]; rgb[3 * i + 2] = source[i] }
                } else {
                    target.copyMemory(from: band.base, byteCount: band.rowCount * layout.bytesPerRow)
                }
            }
        }
        }
        try pipeline.finish()
        let plan = RenderPlan(root: copy.node, outputRect: copy.node.pixelExtent, cache: nil)
        statistics.addDecodedRows(layout.height)
        let report = RenderReport(original: original, plan: plan, statistics: statistics, cache: cache.statistics,
                                  seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        self.report.withLock { $0 = report }
    }

    /// `steps`: the rectangles the render will compute, in order (default: the region).
    private func makeRenderer(_ plan: RenderPlan, steps: [PixelRect]) throws -> Renderer {
        let renderer = try Renderer(plan: plan, pool: pool, cache: cache, pixelLimit: options.pixelLimit, memoryLimit: options.memoryLimit,
                                    steps: steps,
                                    failOnWarning: options.failOnWarning, threads: options.threads)
        try renderer.prepareIntermediates(threads: options.threads)
        return renderer
    }

    private func finish(_ image: Image, _ renderer: Renderer, started: UInt64) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let report = RenderReport(original: image.node, plan: renderer.plan, statistics: renderer.statistics,
                                  cache: cache.statistics, seconds: seconds)
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

    /// Renders `region` in bands of tile rows, converts each band to encoded rows and
    /// pushes it into the encoder in top-to-bottom order, so memory stays proportional to a band.
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
        let pipeline = BandPipeline(bytesPerRow: bytesPerRow, sink: encoder)
        defer { pipeline.drain() }
        for (index, band) in bands.enumerated() {
            let bandTop = band.maxY
            try pipeline.submit(firstRow: region.maxY - band.maxY, rowCount: band.height) { buffer in
                try renderer.renderTiles(of: renderer.plan.root, in: band, tileSize: tile,
                                         threads: options.threads) { tile in
                    // A wide-gamut output converts each row first (a copy: tiles may be cached).
                    let scratch = profile.map { _ in UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: tile.rect.width) }
                    defer { scratch?.deallocate() }
                    for y in tile.rect.y..<tile.rect.maxY {
                        let row = bandTop - 1 - y
                        let offset = row * bytesPerRow + (tile.rect.x - region.x) * layout.channels * layout.depth / 8
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
            renderer.finishedStep(index)
        }
        try pipeline.finish()
        finish(image, renderer, started: started)
    }
}

