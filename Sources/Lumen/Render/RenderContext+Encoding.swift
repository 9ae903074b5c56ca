import LumenPlatform

/// How a render becomes a file: the encoder's layout and metadata for an output
/// (`EncodeJob`), and the direct copy of a file written unchanged, whose decoded bands go
/// straight to the encoder without the working space.
extension RenderContext {
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

    func encodeJob(_ image: Image, format: OutputFormat, rect: Rect?, background: Color?,
                           keepsMetadata: Bool = true) throws -> EncodeJob {
        var image = format.hdr == .tonemap ? try HDRRendition.toneMapped(image, for: format) : image
        if let background {
            image = image.composited(over: Image(color: background).cropped(to: rect ?? image.extent))
        }
        let region = try outputRegion(image, rect)
        let opaque = image.node.isOpaque(within: rect ?? image.extent)
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

    /// A source written unchanged, with the decoder that can feed the encoder directly.
    struct DirectCopy {
        let node: ImageNode
        let decoder: any ImageDecoder
        let reduction: Int
        let expandsGray: Bool
        /// Per-channel code → code tables, when colour was folded into the source's decode tables.
        let codeTables: [[UInt8]]?
        /// The kernel over the source that writes each row's codes from the decoded ones.
        /// It keeps state from row to row: an `EncodeJob` holding it is run once.
        let rows: (any CodeRowStream)?
    }

    /// A file written unchanged needs no trip through the working space (8-bit codes
    /// survive it exactly): decoded bands go straight to the encoder, so memory stays at
    /// one band. So does a file whose only change is per-channel colour folded into its
    /// decode tables: each code maps through a table to exactly the code the float path
    /// would write. So, too, does a `CodeRowKernel` (vignetteEffect, morphology) over such a
    /// file, written at the file's extent, whose rows go from the decoder's codes to the
    /// encoder's through the kernel's row stream, when rewrites are on. Nil when the
    /// layouts differ and pixels must be converted.
    private func directCopy(of image: Image, region: PixelRect, layout: EncodeLayout) throws -> DirectCopy? {
        // A crop to the region written leaves the same pixels (the command line crops a
        // dilation to its input's extent).
        var top = image.node
        if let crop = top.kernel as? CropKernel, crop.rect == region.rect { top = top.inputs[0] }
        // Only a file, or colour filters straight over one, can come out as a bare source;
        // with rewrites on, one code-row kernel may sit over them.
        var below = top
        let overCodes = options.optimizes && below.kernel is any CodeRowKernel && below.inputs.count == 1
        if overCodes { below = below.inputs[0] }
        while below.kernel is ColorOperations, let input = below.inputs.first { below = input }
        guard below.kernel is any RowSource else { return nil }
        let root = top === below ? top : optimizedGraph(Image(top), region)
        var sourceNode = root, codeKernel: (kernel: any CodeRowKernel, tables: ChannelTables)? = nil
        if overCodes {
            guard let kernel = root.kernel as? any CodeRowKernel, root.inputs.count == 1,
                  let tables = (root.inputs[0].kernel as? any RowSource)?.decodeTables else { return nil }
            (sourceNode, codeKernel) = (root.inputs[0], (kernel, tables))
        }
        // (A dilation's extent is larger than its source's: written at the source's, it has a code form.)
        guard let source = sourceNode.kernel as? any RowSource, source.blockShrink == 1, root.pixelExtent.contains(region),
              region == sourceNode.pixelExtent else { return nil }
        let rows = codeKernel.flatMap { $0.kernel.codeRowStream(tables: $0.tables, width: region.width, height: region.height, level: .current) }
        if codeKernel != nil && rows == nil { return nil }
        let decoder = try source.decoder()
        let decoded = decoder.layout(reduction: source.reduction)
        let expandsGray = decoded.channels == 1 && layout.channels == 3
        // (Float outputs hold premultiplied alpha, so a float file with straight alpha goes through the working space.)
        guard decoded.depth == layout.depth, decoded.depth == 8 || !expandsGray, !decoded.alphaPremultiplied,
              decoded.depth != 32 || decoded.channels % 2 == 1,
              decoded.channels == layout.channels || expandsGray else { return nil }
        // (A gray file's codes are made RGB before the stream reads them, as its tables expand them.)
        if rows != nil && (decoded.depth != 8 || layout.channels != 3 || decoded.channels != 3 && !expandsGray) { return nil }
        let codeTables = rows == nil ? source.codeTables : nil
        if codeTables != nil && (decoded.depth != 8 || layout.channels != 3) { return nil }
        try ImageFile.checkLimit(decoder.header, file: source.sourceName, pixelLimit: options.pixelLimit)
        if let rows {
            // A stream's own rows (a dilation's ring) count as decoded rows of the same bytes;
            // when they do not fit, the tiles (which hold less of a wide picture) may.
            let rowBytes = max(1, decoded.width * decoded.channels)
            let held = rows.lag + (rows.heldBytes + rowBytes - 1) / rowBytes
            guard (try? ImageFile.checkMemory(decoder, reduction: source.reduction, rows: 64 + held, file: source.sourceName,
                                              limit: options.memoryLimit)) != nil else { return nil }
        }
        try ImageFile.checkMemory(decoder, reduction: source.reduction, rows: 64, file: source.sourceName, limit: options.memoryLimit)
        return DirectCopy(node: root, decoder: decoder, reduction: source.reduction, expandsGray: expandsGray, codeTables: codeTables,
                          rows: rows)
    }

    private func copyDirectly(_ copy: DirectCopy, of original: ImageNode, layout: EncodeLayout,
                              into encoder: any ImageEncoder) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        // A code-row kernel's rows are computed on the pipeline's stage thread, beside the
        // decoder's and the encoder's: on the decoder's thread alone they and the decoding
        // took turns (1.07× the tiles' time for vignetteEffect, with 0.76× their
        // instructions), and split at each band between two threads, waking them cost
        // more than a tenth of the time. Rows that are each their own (vignetteEffect's) are
        // also computed by the decoder's thread when it would otherwise wait for the stage's
        // (0.90–0.94× the time of vignetteEffect in process, farm-bench).
        let bytesPerRow = layout.bytesPerRow
        var anywhere: BandStage? = nil
        if let rowAt = copy.rows?.independentRows {
            anywhere = { band in  // rows written in place, each by itself: the stage may run on any thread (BandPipeline.handOver)
                let codes = UnsafeMutableRawPointer(mutating: band.base).assumingMemoryBound(to: UInt8.self)
                for row in 0..<band.rowCount {
                    let line = codes + row * bytesPerRow
                    rowAt(band.firstRow + row, UnsafePointer(line), line)
                }
                return band
            }
        }
        let stage: BandStage? = anywhere ?? copy.rows.map { stream in
            let (height, lag) = (layout.height, stream.lag)
            let fed = LockedValue(stream)  // by the stage's one thread, band after band
            return { band in
                fed.withLock { stream in
                    // Output row r goes where input row r + lag was (it is fed first); the
                    // last band's last `lag` rows go after its own, in the pipeline's extra rows.
                    let codes = UnsafeMutableRawPointer(mutating: band.base).assumingMemoryBound(to: UInt8.self)
                    let slots = band.rowCount + (band.firstRow + band.rowCount == height ? lag : 0)
                    for slot in 0..<slots {
                        let line = codes + slot * bytesPerRow
                        stream.feed(slot < band.rowCount ? UnsafePointer(line) : nil, writing: band.firstRow + slot >= lag ? line : nil)
                    }
                    let first = max(0, band.firstRow - lag), end = min(height, band.firstRow + slots - lag)
                    return RowBand(firstRow: first, rowCount: max(0, end - first), bytesPerRow: bytesPerRow,
                                   base: band.base + (first + lag - band.firstRow) * bytesPerRow)
                }
            }
        }
        let pipeline = BandPipeline(bytesPerRow: layout.bytesPerRow, sink: encoder, stage: stage, stageRunsAnywhere: anywhere != nil, gatherRows: 64,
                                    extraRows: copy.rows?.lag ?? 0, rows: layout.height)
        defer { pipeline.drain() }
        let statistics = RenderStatistics(failOnWarning: options.failOnWarning)
        try DecodeWarnings.$current.withValue(statistics.warnings) {
        let cancellation = RenderCancellation.current
        try copy.decoder.forEachBand(reduction: copy.reduction, rows: 0..<layout.height) { band in
            try cancellation?.check()
            try pipeline.submit(firstRow: band.firstRow, rowCount: band.rowCount) { target in
                let pixels = band.rowCount * layout.width
                let source = band.base.assumingMemoryBound(to: UInt8.self), rgb = target.assumingMemoryBound(to: UInt8.self)
                if copy.rows != nil && !copy.expandsGray {
                    // The codes as decoded; the pipeline's stage rewrites them in place.
                    for row in 0..<band.rowCount {
                        (target + row * layout.bytesPerRow).copyMemory(from: band.base + row * band.bytesPerRow, byteCount: layout.bytesPerRow)
                    }
                } else if let tables = copy.codeTables {
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
                                  seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
                                  listsGraphs: options.listsGraphs)
        self.report.withLock { $0 = report }
    }
}
