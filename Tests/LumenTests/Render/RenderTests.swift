import Foundation
import Testing
@testable import Lumen

@Suite struct RenderTests {
    /// A tall JPEG written by Lumen itself for ROI tests (gradient + checker).
    static func tallJPEG(width: Int = 300, height: Int = 1200) throws -> URL {
        let url = Paths.temporaryDirectory().appendingPathComponent("tall.jpg")
        let image = syntheticImage(width: width, height: height)
        try RenderContext().write(image, to: url, format: .jpeg(quality: 0.9))
        return url
    }

    @Test func buildingAGraphTouchesNoPixels() throws {
        // A file whose pixels are damaged but whose header is fine: building succeeds,
        // only rendering fails, so building cannot have decoded anything.
        let data = try Data(contentsOf: Paths.testdata("photo.jpg"))
        let url = Paths.temporaryDirectory().appendingPathComponent("half.jpg")
        try data.prefix(data.count * 2 / 3).write(to: url)
        var image = try Image(contentsOf: url)
        for i in 0..<1000 {
            image = i % 2 == 0 ? try image.applyingFilter("exposureAdjust", parameters: ["inputEV": 0.001])
                               : image.transformed(by: AffineTransform(translationX: 1, y: 0))
        }
        #expect(image.extent.width == 640)
        #expect(throws: LumenError.self) { _ = try RenderContext().render(image) }
    }

    @Test func infiniteImagesNeedARect() throws {
        let red = Image(color: .red)
        #expect(throws: LumenError.unrenderable(reason: "the image has an infinite extent; crop it or give a size")) {
            _ = try RenderContext().render(red)
        }
        let bitmap = try RenderContext().render(red, in: Rect(x: -5, y: 7, width: 3, height: 2))
        #expect(bitmap.width == 3 && bitmap.pixel(x: 2, row: 1) == SIMD4(255, 0, 0, 255))
    }

    @Test func cropOfABlurDecodesAndComputesOnlyWhatItNeeds() throws {
        let url = try Self.tallJPEG()
        let sigma = 4.0
        let crop = Rect(x: 20, y: 1000, width: 100, height: 100)  // near the top of the file
        let image = try Image(contentsOf: url).applyingGaussianBlur(sigma: sigma).cropped(to: crop)
        let context = RenderContext(.init(threads: 2, tileWidth: 64, tileHeight: 64))
        _ = try context.render(image)
        let report = try #require(context.lastReport)
        let reach = Int((3 * sigma).rounded(.up))
        // Rows above the crop plus the blur's reach, rounded up to a decoder band of 16.
        #expect(report.decodedRows <= 1200 - 1000 + reach + 16)
        let computed = report.optimized.filter { $0.kind.hasPrefix("convolve") }.map(\.pixels).reduce(0, +)
        #expect(computed <= (100 + 2 * reach) * (100 + 2 * reach) * 2)
    }

    @Test func aContextThatListsNoGraphsKeepsTheReportsFigures() throws {
        let url = try Self.tallJPEG()
        let image = try Image(contentsOf: url).applyingGaussianBlur(sigma: 2).cropped(to: Rect(x: 20, y: 1000, width: 40, height: 40))
        var options = RenderContext.Options(threads: 2, tileWidth: 64, tileHeight: 64)
        let listing = RenderContext(options)
        options.listsGraphs = false
        let quiet = RenderContext(options)
        #expect(try listing.render(image) == quiet.render(image))
        let listed = try #require(listing.lastReport), unlisted = try #require(quiet.lastReport)
        #expect(listed.original.map(\.kind).contains("source") && listed.optimized.contains { $0.tiles > 0 })
        #expect(unlisted.original.isEmpty && unlisted.optimized.isEmpty)
        #expect(unlisted.decodedRows == listed.decodedRows && unlisted.decodedRows > 0)
        #expect(unlisted.cache.misses == listed.cache.misses)
    }

    @Test func everyScheduleGivesIdenticalPixels() throws {
        let photo = try Image(contentsOf: Paths.codec("rgba8.png"))
        let graph = try photo
            .applyingGaussianBlur(sigma: 1.5)
            .applyingFilter("colorControls", parameters: ["inputSaturation": 1.3, "inputContrast": 1.1])
            .applyingFilter("vignetteEffect", parameters: ["inputCenter": [11.0, 8.0], "inputRadius": 4.0])
            .transformed(by: AffineTransform(rotationAngle: 0.3))
            .composited(over: syntheticImage(width: 41, height: 33))
            .applyingLanczosScale(0.7)
        try expectTileInvariant(graph)
        try expectTileInvariant(syntheticImage(width: 50, height: 37).applyingLanczosScale(1.6, aspectRatio: 0.8))
    }

    @Test func equalRecipesHaveEqualIdentities() throws {
        let a = try Image(contentsOf: Paths.codec("rgb8.png")).applyingGaussianBlur(sigma: 2).applyingFilter("CIExposureAdjust", parameters: ["inputEV": 1])
        let b = try Image(contentsOf: Paths.codec("rgb8.png")).applyingGaussianBlur(sigma: 2).applyingFilter("exposureAdjust", parameters: ["ev": 1])
        let c = try Image(contentsOf: Paths.codec("rgb8.png")).applyingGaussianBlur(sigma: 2.5).applyingFilter("exposureAdjust", parameters: ["ev": 1])
        #expect(a == b && a.identity.hashValue == b.identity.hashValue)
        #expect(a != c)
    }

    @Test func rewritesFuseFoldAndDrop() throws {
        let photo = try Image(contentsOf: Paths.codec("rgb8.png"))
        let graph = try photo
            .applyingFilter("exposureAdjust", parameters: ["inputEV": 0.5])
            .applyingFilter("colorControls", parameters: ["inputSaturation": 0.5])
            .applyingFilter("gaussianBlur", parameters: ["inputRadius": 0])
            .transformed(by: AffineTransform(translationX: 3, y: 0))
            .transformed(by: AffineTransform(translationX: -3, y: 0))
            .applyingFilter("colorMatrix", parameters: ["inputRVector": [1.0, 0.1, 0, 0]])
        let plan = try RenderContext().plan(for: graph)
        #expect(plan.original.count == 6)
        // exposure + controls fused into one matrix; the translations fold to identity and
        // drop; the blur of radius 0 is gone; the last matrix multiplies in too.
        #expect(plan.optimized.map(\.kind) == ["colorMatrix", "source"])
        let reference = try RenderContext(.init(threads: 1)).render(graph, format: .rgbaFloat)
        var unoptimized = RenderContext.Options(threads: 1)
        unoptimized.optimizes = false
        let plain = try RenderContext(unoptimized).render(graph, format: .rgbaFloat)
        let worst = zip(reference.samples, plain.samples).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-5)
    }

    @Test func cropsMoveBelowColorOperations() throws {
        let graph = try syntheticImage().applyingFilter("exposureAdjust", parameters: ["inputEV": 1]).cropped(to: Rect(x: 2, y: 2, width: 5, height: 5))
        let plan = try RenderContext().plan(for: graph)
        #expect(plan.optimized.map(\.kind).prefix(2) == ["colorMatrix", "crop"])
    }

    @Test func shrinkOnLoadDecodesAtReducedScaleAndStaysClose() throws {
        let thumbnail = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingLanczosScale(0.25)
        let plan = try RenderContext().plan(for: thumbnail)
        #expect(plan.optimized.last?.parameters.hasSuffix("1/2") == true, "\(plan.optimized.map(\.parameters))")
        var plainOptions = RenderContext.Options()
        plainOptions.optimizes = false
        let fast = try RenderContext().render(thumbnail, format: .rgba8)
        let plain = try RenderContext(plainOptions).render(thumbnail, format: .rgba8)
        #expect(fast.width == 160 && fast.height == 100)
        let mse = zip(fast.samples, plain.samples).map { Double($0 - $1) * Double($0 - $1) }.reduce(0, +) / Double(fast.samples.count)
        let psnr = 10 * log10(255 * 255 / max(mse, 1e-12))
        #expect(psnr >= 40, "PSNR \(psnr) dB")
    }

    @Test func repeatedRendersDecodeOnce() throws {
        let context = RenderContext()
        let logo = try Image(contentsOf: Paths.testdata("logo.png"))
        for i in 0..<5 {
            let background = Image(color: Color(red: Double(i) / 5, green: 0.5, blue: 0.5)).cropped(to: Rect(x: 0, y: 0, width: 120, height: 60))
            _ = try context.render(logo.composited(over: background))
            #expect(context.lastReport?.decodedRows == (i == 0 ? 40 : 0))
        }
    }

    @Test func bandedWriteMatchesBitmapRender() throws {
        let image = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingFilter("vignetteEffect", parameters: ["inputCenter": [320.0, 200.0], "inputRadius": 150.0])
        let url = Paths.temporaryDirectory().appendingPathComponent("out.png")
        try RenderContext(.init(threads: 2, tileWidth: 100, tileHeight: 30)).write(image, to: url)
        let written = try render8(try Image(contentsOf: url))
        let direct = try render8(image)
        #expect(written.width == direct.width && written.height == direct.height)
        #expect(zip(written.samples, direct.samples).allSatisfy { $0 == $1 }, "written file differs from the bitmap render")
    }
}

@Suite struct GraphBuildTests {
    /// Prints how long a 1,000-node graph takes to build (no threshold: timing belongs to
    /// benchmarks); asserts that building decoded nothing: the source's pixels are cut
    /// off, so any decode would throw, and only the render does.
    @Test func aThousandNodeGraphBuildsWithoutPixels() throws {
        let photo = try Image(contentsOf: truncatedPhoto())
        func measure(_ label: String, _ step: (Image, Int) throws -> Image) rethrows -> Image {
            var image = photo
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<1000 { image = try step(image, i) }
            print("built a 1,000-node graph (\(label)) in \((DispatchTime.now().uptimeNanoseconds - start) / 1000) µs")
            return image
        }
        let api = measure("Swift API") { image, i in
            i % 2 == 0 ? image.transformed(by: AffineTransform(translationX: 1, y: 0)) : image.applyingGaussianBlur(sigma: 1)
        }
        let named = try measure("applyingFilter by name") { image, _ in try image.applyingFilter("exposureAdjust", parameters: ["inputEV": 0.001]) }
        for image in [api, named] {
            #expect(throws: LumenError.self) { _ = try RenderContext().render(image, in: Rect(x: 0, y: 0, width: 8, height: 8)) }
        }
    }
}

@Suite struct ColorFoldingTests {
    /// Per-channel colour filters on an opaque 8-bit file fold into its decode tables:
    /// the plan is the source alone, and the pixels are exactly the unoptimized ones.
    @Test(arguments: ["photo.jpg", "codecs/gray8.png", "codecs/rgb8.png"])
    func separableColorFoldsIntoTheSourceExactly(_ file: String) throws {
        let photo = try Image(contentsOf: Paths.testdata(file))
        let graphs = [
            try photo.applyingFilter("colorInvert"),
            try photo.applyingFilter("gammaAdjust", parameters: ["power": 0.7]).applyingFilter("exposureAdjust", parameters: ["ev": 0.5]),
            try photo.applyingFilter("toneCurve", parameters: ["point1": [0.25, 0.3], "point3": [0.75, 0.7]]).applyingFilter("colorInvert"),
        ]
        for image in graphs {
            let plan = try RenderContext().plan(for: image)
            #expect(plan.optimized.map(\.kind) == ["source"], "\(plan.optimized.map(\.kind))")
            var plain = RenderContext.Options()
            plain.optimizes = false
            let folded = try RenderContext().render(image, format: .rgbaFloat)
            let unfolded = try RenderContext(plain).render(image, format: .rgbaFloat)
            #expect(folded.samples.elementsEqual(unfolded.samples) { $0.bitPattern == $1.bitPattern })
        }
        // Channel-mixing colour (saturation) and alpha do not fold.
        let mixed = try photo.applyingFilter("colorControls", parameters: ["saturation": 0.5])
        #expect(try RenderContext().plan(for: mixed).optimized.count == 2)
    }
}

@Suite struct BandedTIFFTests {
    /// Tiled and stripped TIFFs decode a band of strips or tile rows at a time, streamed
    /// or whole, to the same pixels as the PNG they were made from.
    @Test(arguments: ["photo-tiled.tif", "photo-strips8.tif"])
    func tiffBandsMatchTheSource(_ name: String) throws {
        let reference = try RenderContext().render(Image(contentsOf: Paths.codec("photo-crop.png")), format: .rgba8)
        let tiff = try Image(contentsOf: Paths.codec(name))
        #expect(try RenderContext().render(tiff, format: .rgba8) == reference)
        for cacheBytes in [16 << 10, 256 << 20] {
            let context = RenderContext(.init(threads: 2, tileWidth: 48, tileHeight: 24, cacheBytes: cacheBytes))
            let png = try context.encode(tiff.applyingGaussianBlur(sigma: 1.5).cropped(to: tiff.extent), format: .png)
            let whole = try RenderContext().encode(tiff.applyingGaussianBlur(sigma: 1.5).cropped(to: tiff.extent), format: .png)
            #expect(png == whole, "\(name), cache \(cacheBytes)")
            #expect((context.lastReport?.decodedRows ?? 0) <= 150)
        }
    }
}

@Suite struct LargeShrinkTests {
    /// A shrink by 8 or more averages blocks first (while decoding, for a file; with a box
    /// filter, for anything else), then resamples with Lanczos: close to the direct
    /// Lanczos resample, same geometry, flat areas stay flat.
    @Test func blockAverageThenLanczosMatchesDirectLanczos() throws {
        let photo = try Image(contentsOf: Paths.codec("photo-crop.png"))  // PNG: no DCT shrink-on-load
        let sharpened = photo.transformed(by: AffineTransform(translationX: 0.5, y: 0.25)).cropped(to: photo.extent)
        for (input, shrinksOnLoad) in [(photo, true), (sharpened, false)] {
            let small = try input.applyingLanczosScale(0.1)
            #expect(small.extent == Rect(x: 0, y: 0, width: 20, height: 15))
            let plan = try RenderContext().plan(for: small)
            if shrinksOnLoad {
                #expect(plan.optimized.last?.parameters.hasSuffix("1/5") == true, "\(plan.optimized.map(\.parameters))")
            } else {
                #expect(plan.optimized.contains { $0.kind == "boxShrink" })
            }
            // The direct resample, built by hand from the two passes.
            let box = PixelRect(covering: input.extent)
            let across = Resample1D(over: box, horizontal: true, outputSize: 20, origin: 0, kernel: .lanczos3).apply(to: [input])
            let direct = Resample1D(over: PixelRect(covering: across.extent), horizontal: false, outputSize: 15, origin: 0,
                                    kernel: .lanczos3).apply(to: [across])
            let a = try RenderContext().render(small, format: .rgba8), b = try RenderContext().render(direct, format: .rgba8)
            let mse = zip(a.samples, b.samples).map { Double($0 - $1) * Double($0 - $1) }.reduce(0, +) / Double(a.samples.count)
            let psnr = 10 * log10(255 * 255 / max(mse, 1e-12))
            #expect(psnr >= 38, "PSNR \(psnr) dB against direct Lanczos")
            try expectTileInvariant(small)
        }
        let flat = Image(color: Color(red: 0.3, green: 0.6, blue: 0.9)).cropped(to: Rect(x: 0, y: 0, width: 333, height: 171))
        let shrunk = try RenderContext().render(try flat.applyingLanczosScale(0.05), format: .rgbaFloat)
        let expected = Color(red: 0.3, green: 0.6, blue: 0.9).working
        #expect(stride(from: 0, to: shrunk.samples.count, by: 4).allSatisfy { abs(shrunk.samples[$0 + 1] - expected.y) < 1e-5 })
    }
}

extension ColorFoldingTests {
    /// Written to an 8-bit file, folded colour maps codes through tables: the same bytes
    /// as the float path (rewrites off), for RGB and gray sources.
    @Test(arguments: ["photo.jpg", "codecs/gray8.png"])
    func foldedColorWritesTheSameBytesAsTheFloatPath(_ file: String) throws {
        let image = try Image(contentsOf: Paths.testdata(file)).applyingFilter("colorInvert")
            .applyingFilter("gammaAdjust", parameters: ["power": 1.4])
        var plain = RenderContext.Options()
        plain.optimizes = false
        for format in [OutputFormat.png, .tiff] {
            #expect(try RenderContext().encode(image, format: format) == RenderContext(plain).encode(image, format: format))
        }
    }
}

@Suite struct SeparableKernelTests {
    /// The symmetric loops (mirrored taps share a multiply) agree with the plain ones.
    @Test(arguments: [3, 7, 25, 49])
    func symmetricLoopsMatchThePlainOnes(_ sixSigma: Int) {
        var generator = SystemRandomNumberGenerator()
        let weights = gaussianWeights(sigma: Double(sixSigma) / 6)
        let count = 37, n = weights.count
        let source = (0..<(count + n)).map { _ in SIMD4<Float>(Float.random(in: 0...1, using: &generator), Float.random(in: 0...1, using: &generator),
                                                                  Float.random(in: 0...1, using: &generator), 1) }
        var plain = [SIMD4<Float>](repeating: .zero, count: count), symmetric = plain
        source.withUnsafeBufferPointer { s in
            weights.withUnsafeBufferPointer { w in
                SeparableKernel.convolveRow(s.baseAddress!, weights: w, into: &plain, count: count)
                SeparableKernel.convolveRowSymmetric(s.baseAddress!, weights: w, into: &symmetric, count: count)
                #expect(zip(plain, symmetric).allSatisfy { (($0 - $1) * ($0 - $1)).max() < 1e-12 })
                let rows = (0..<n).map { UnsafePointer(s.baseAddress! + $0) }
                rows.withUnsafeBufferPointer { r in
                    SeparableKernel.convolveColumns(rows: r, weights: w, into: &plain, count: count)
                    SeparableKernel.convolveColumnsSymmetric(rows: r, weights: w, into: &symmetric, count: count)
                }
                #expect(zip(plain, symmetric).allSatisfy { (($0 - $1) * ($0 - $1)).max() < 1e-12 })
            }
        }
    }
}

/// Long chains whose regions grow from step to step (issue 15: bounded work): the plan
/// keeps intermediates where a tile's pulled region has doubled, so each output tile no
/// longer recomputes every level below it; what cannot be kept is refused before any pixel.
@Suite struct GrowingRegionTests {
    /// Steps of a small blur cropped back to 400×400: the plan keeps some steps whole, the
    /// memory of a tile's recursion stops growing with the chain's length, and the pixels
    /// equal the chain computed step by step, each step rendered in full and read back.
    @Test func aLongBlurChainKeepsIntermediatesAndMatchesStepByStep() throws {
        let size = 400, steps = 40
        let frame = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        let start = syntheticImage(width: size, height: size)
        var chained = start
        for _ in 0..<steps { chained = chained.applyingGaussianBlur(sigma: 0.4).cropped(to: frame) }
        let rect = PixelRect(x: 0, y: 0, width: size, height: size)
        // Plans for 40 and 80 steps, with the default cache and with one too small to keep
        // anything: kept, the bytes a tile's recursion holds stay bounded as the chain
        // doubles; unkept, they grow with it.
        func plans(_ count: Int) -> (kept: RenderPlan, unkept: RenderPlan) {
            var image = start
            for _ in 0..<count { image = image.applyingGaussianBlur(sigma: 0.4).cropped(to: frame) }
            let root = GraphOptimizer.optimize(image.node, outputRect: rect, optimizations: true)
            return (RenderPlan(root: root, outputRect: rect, cache: RenderCache()),
                    RenderPlan(root: root, outputRect: rect, cache: RenderCache(byteLimit: 1024)))
        }
        let (short, long) = (plans(steps), plans(2 * steps))
        #expect(short.kept.materialized.count >= 2 && long.kept.materialized.count >= 4 && long.unkept.materialized.isEmpty)
        #expect(long.kept.tileRecursionPeak.bytes <= short.kept.tileRecursionPeak.bytes * 11 / 10,
                "kept: \(short.kept.tileRecursionPeak.bytes) → \(long.kept.tileRecursionPeak.bytes) bytes")
        #expect(long.unkept.tileRecursionPeak.bytes >= short.unkept.tileRecursionPeak.bytes * 18 / 10,
                "unkept: \(short.unkept.tileRecursionPeak.bytes) → \(long.unkept.tileRecursionPeak.bytes) bytes")

        let context = RenderContext()
        let ours = try context.render(chained, in: frame, format: .rgbaFloat)
        var reference = start
        for _ in 0..<steps {
            let step = try RenderContext().render(reference.applyingGaussianBlur(sigma: 0.4).cropped(to: frame), in: frame, format: .rgbaFloat)
            reference = try Image(bitmap: step)
        }
        let expected = try RenderContext().render(reference, in: frame, format: .rgbaFloat)
        let worst = zip(ours.samples, expected.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-5, "largest difference \(worst)")
    }

    /// 300 steps that do not grow (a one-pixel shift, then an inversion): a node is kept
    /// every `keepEveryLevels` levels, so the renderer never recurses through all 600
    /// nodes or holds a tile for each; the pixels are the picture shifted 300 pixels (an
    /// even number of inversions), as one transform gives them.
    @Test func aLongChainThatDoesNotGrowIsKeptEveryHundredLevels() throws {
        let start = syntheticImage(width: 64, height: 48)
        var chained = start
        for _ in 0..<300 { chained = chained.transformed(by: AffineTransform(translationX: 1, y: 0)).applying("colorInvert") }
        let rect = PixelRect(covering: chained.extent)
        let root = GraphOptimizer.optimize(chained.node, outputRect: rect, optimizations: true)
        let plan = RenderPlan(root: root, outputRect: rect, cache: RenderCache())
        #expect(plan.materialized.count >= 600 / RenderPlan.keepEveryLevels, "\(plan.materialized.count) kept")
        let ours = try RenderContext().render(chained, format: .rgbaFloat)
        let expected = try RenderContext().render(start.transformed(by: AffineTransform(translationX: 300, y: 0)), in: chained.extent, format: .rgbaFloat)
        let worst = zip(ours.samples, expected.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(ours.width == 64 && worst < 1e-4, "largest difference \(worst)")
    }

    /// 1000 small blurs over a 4000×4000 picture with a 1 MiB cache: nothing can be kept,
    /// each worker would hold tens of GiB of tiles, so the render is refused at planning,
    /// with the reason, before any pixel is computed.
    @Test func whatCannotBeKeptIsRefusedBeforeAnyPixel() throws {
        var image = syntheticImage(width: 4000, height: 4000)
        for _ in 0..<1000 { image = image.applyingGaussianBlur(sigma: 0.2) }
        let context = RenderContext(RenderContext.Options(threads: 2, cacheBytes: 1 << 20))
        do {
            _ = try context.render(image, in: Rect(x: 0, y: 0, width: 4000, height: 4000))
            Issue.record("rendered")
        } catch let error as LumenError {
            #expect(error.description.contains("grow from step to step") && error.description.contains("GiB"), "\(error)")
        }
    }
}
