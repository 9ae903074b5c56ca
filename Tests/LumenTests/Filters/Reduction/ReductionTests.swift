import Foundation
import Testing
@testable import Lumen

/// The reductions against numpy over the same pixels (scripts/reference-reductions.py),
/// and their determinism: the same bits for any thread count and tile size.
@Suite struct ReductionTests {
    static let names = ["areaAverage", "areaMaximum", "areaMinimum", "areaMinMax", "areaMinMaxRed", "areaMaximumAlpha",
                        "areaMinimumAlpha", "areaBoundsRed", "columnAverage", "rowAverage", "areaHistogram",
                        "areaLogarithmicHistogram", "areaAlphaWeightedHistogram"]
    /// More than one 128-pixel block each way, with alpha, partly outside the image.
    static let input = syntheticImage(width: 280, height: 170)
    static let area = Rect(x: -20, y: -10, width: 300, height: 190)

    static func reduce(_ name: String, _ image: Image = input, area: Rect = area, threads: Int = 1) throws -> [SIMD4<Float>] {
        var values: [String: FilterValue] = ["image": .image(image), "extent": .vector([area.x, area.y, area.width, area.height])]
        if name.contains("Histogram") { values["count"] = .number(16) }
        if name == "areaLogarithmicHistogram" { values["minimumStop"] = .number(-8); values["maximumStop"] = .number(2) }
        let out = try FilterRegistry.descriptor(named: name)!.apply(values)
        let bitmap = try RenderContext(.init(threads: threads)).render(out, in: out.extent, format: .rgbaFloat)
        // Output order: bottom row first, left to right.
        return (0..<bitmap.height).reversed().flatMap { row in (0..<bitmap.width).map { bitmap.pixel(x: $0, row: row) } }
    }

    /// numpy's results for every reduction over `input` in `area`, computed once.
    static let numpy: Result<[String: [[Double]]], Error> = Result {
        let pixels = try RenderContext(.init(threads: 1)).render(input, in: area, format: .rgbaFloat)
        let file = Paths.temporaryDirectory().appendingPathComponent("pixels.f32")
        try pixels.samples.withUnsafeBytes { try Data($0).write(to: file) }
        let json = try runScript("reference-reductions.py", [file.path, "\(pixels.width)", "\(pixels.height)", "16", "-8", "2"],
                                 hint: "numpy is needed (pip install numpy)")
        guard let reference = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [[Double]]] else {
            throw LumenError.unrenderable(reason: "scripts/reference-reductions.py printed no reductions as JSON")
        }
        return reference
    }

    /// The reduction `name` equals numpy's over the same pixels (the registry walk's reference).
    static func check(_ name: String) throws {
        let reference = try numpy.get()
        var expected = try #require(reference[name], "numpy has no \(name)")
        if name == "areaBoundsRed" { expected[0][0] += area.x; expected[0][1] += area.y }  // numpy's are relative
        let actual = try reduce(name)
        #expect(actual.count == expected.count, "\(name): \(actual.count) pixels, numpy \(expected.count)")
        for (i, (a, e)) in zip(actual, expected).enumerated() {
            let ok = (0..<4).allSatisfy { abs(Double(a[$0]) - e[$0]) <= 1e-6 * max(1, abs(e[$0])) }
            #expect(ok, "\(name) pixel \(i): \(a) vs numpy \(e)")
            if !ok { break }
        }
    }

    @Test func numpyCoversEveryReduction() throws {
        #expect(Set(try Self.numpy.get().keys) == Set(Self.names))
        // kMeans has its own test (KMeans has no numpy one-liner); histogramDisplayFilter
        // draws a histogram rather than reducing an area (its reference is in ReductionReferences.swift).
        #expect(Set(Self.names) == Set(FilterRegistry.all.filter { $0.category == .reduction && !["kMeans", "histogramDisplayFilter"].contains($0.name) }.map(\.name)))
    }

    @Test func resultsAreTheSameBitsForAnyThreadCountOrTile() throws {
        for name in Self.names {
            let one = try Self.reduce(name, threads: 1), two = try Self.reduce(name, threads: 2)
            #expect(one == two, "\(name) differs between 1 and 2 threads")
            // Rendered through a consumer in small tiles: the reduction is still one result.
            let out = try FilterRegistry.descriptor(named: name)!.apply(["image": .image(Self.input), "extent": .vector([0, 0, 280, 170])])
            try expectTileInvariant(out)
        }
    }

    @Test func outputsSitAtTheOriginWithCoreImagesSizes() throws {
        let sizes = ["areaAverage": (1, 1), "areaMinMax": (2, 1), "columnAverage": (300, 1), "rowAverage": (1, 190), "areaHistogram": (64, 1)]
        for (name, (w, h)) in sizes {
            let out = try FilterRegistry.descriptor(named: name)!.apply(["image": .image(Self.input), "extent": .vector([-20, -10, 300, 190])])
            #expect(out.extent == Rect(x: 0, y: 0, width: Double(w), height: Double(h)), "\(name): \(out.extent)")
        }
    }

    @Test func aHugeAreaIsReadOnlyWhereTheImageIs() throws {
        // 10¹² pixels of extent over a small image: the outside counts as transparent black, unread.
        let average = try Self.reduce("areaAverage", area: Rect(x: -500_000, y: -500_000, width: 1_000_000, height: 1_000_000))
        let inside = try Self.reduce("areaAverage", area: Rect(x: 0, y: 0, width: 280, height: 170))
        let k = Float(280.0 * 170.0 / 1e12)
        #expect(abs(average[0].x - inside[0].x * k) <= 1e-6 * inside[0].x * k)
        // Over an infinite generator the same area is more than the pixel limit: a clear error.
        let error = #expect(throws: LumenError.self) { _ = try Self.reduce("areaAverage", Image(color: .red), area: Rect(x: 0, y: 0, width: 1e6, height: 1e6)) }
        #expect(String(describing: error!).contains("pixel limit"))
    }

    /// Three flat colours over 50 %, 30 % and 20 % of the area.
    static let threeColors: Image = {
        let a = Color(red: 0.9, green: 0.1, blue: 0.1), b = Color(red: 0.1, green: 0.7, blue: 0.2), c = Color(red: 0.2, green: 0.2, blue: 0.9)
        return Image(color: c).cropped(to: Rect(x: 80, y: 0, width: 20, height: 50))
            .composited(over: Image(color: b).cropped(to: Rect(x: 50, y: 0, width: 30, height: 50)))
            .composited(over: Image(color: a).cropped(to: Rect(x: 0, y: 0, width: 50, height: 50)))
    }()

    @Test func kMeansFindsTheColoursAndTheirShares() throws {
        let out = try FilterRegistry.descriptor(named: "CIKMeans")!.apply(["image": .image(Self.threeColors), "extent": .vector([0, 0, 100, 50]),
                                                                           "count": .number(3), "passes": .number(5)])
        #expect(out.extent == Rect(x: 0, y: 0, width: 3, height: 1))
        let bitmap = try RenderContext(.init(threads: 1)).render(out, in: out.extent, format: .rgbaFloat)
        let means = (0..<3).map { bitmap.pixel(x: $0, row: 0) }
        let expected: [(Color, Float)] = [(Color(red: 0.9, green: 0.1, blue: 0.1), 0.5), (Color(red: 0.1, green: 0.7, blue: 0.2), 0.3),
                                          (Color(red: 0.2, green: 0.2, blue: 0.9), 0.2)]
        for (color, share) in expected {
            let w = color.working
            // Pixels hold the mean premultiplied by its share.
            #expect(means.contains { abs($0.w - share) < 1e-6 && abs($0.x / $0.w - w.x) < 1e-5 && abs($0.y / $0.w - w.y) < 1e-5 && abs($0.z / $0.w - w.z) < 1e-5 },
                    "\(color) × \(share) not in \(means)")
        }
        // Seeded by a means image, the same clusters come out in the seeds' order.
        let seeds = Image(color: Color(red: 0.2, green: 0.2, blue: 0.8)).cropped(to: Rect(x: 0, y: 0, width: 1, height: 1))
            .composited(over: Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 3, height: 1)))
        let seeded = try FilterRegistry.descriptor(named: "kMeans")!.apply(["image": .image(Self.threeColors), "extent": .vector([0, 0, 100, 50]),
                                                                          "count": .number(2), "means": .image(seeds)])
        let two = try RenderContext(.init(threads: 2)).render(seeded, in: seeded.extent, format: .rgbaFloat)
        #expect(two.pixel(x: 0, row: 0).z > two.pixel(x: 0, row: 0).x, "the first seed is blue: \(two.pixel(x: 0, row: 0))")
        try expectTileInvariant(seeded)
    }

    @Test func palettesTakeTheNearestColourAndItsCentroid() throws {
        let palette = Image(color: .black).cropped(to: Rect(x: 0, y: 0, width: 1, height: 1))
            .composited(over: Image(color: .white).cropped(to: Rect(x: 0, y: 0, width: 2, height: 1)))
        // palettize: red and blue (dark) go to black, green (luma-bright in linear) to the nearer of the two.
        let mapped = try FilterRegistry.descriptor(named: "palettize")!.apply(["image": .image(Self.threeColors), "paletteImage": .image(palette)])
        let m = try RenderContext().render(mapped, in: Rect(x: 0, y: 0, width: 100, height: 50), format: .rgbaFloat)
        for (x, color) in [(10, Color(red: 0.9, green: 0.1, blue: 0.1)), (60, Color(red: 0.1, green: 0.7, blue: 0.2)), (90, Color(red: 0.2, green: 0.2, blue: 0.9))] {
            let w = color.working, toBlack = (w * w).sum() - w.w * w.w, toWhite = ((SIMD4(1, 1, 1, 1) - w) * (SIMD4(1, 1, 1, 1) - w)).sum()
            let got = m.pixel(x: x, row: 10)
            #expect(got.x == (toBlack < toWhite ? 0 : 1), "\(color) → \(got)")
        }
        // paletteCentroid: each palette colour becomes the mean of the pixels nearest to it.
        let centroids = try FilterRegistry.descriptor(named: "paletteCentroid")!.apply(["image": .image(Self.threeColors), "paletteImage": .image(palette)])
        #expect(centroids.extent == palette.extent)
        let c = try RenderContext().render(centroids, in: palette.extent, format: .rgbaFloat)
        var sums = [SIMD4<Float>](repeating: .zero, count: 2), counts: [Float] = [0, 0]
        for x in 0..<100 {
            let p = m.pixel(x: x, row: 10), orig = try RenderContext().render(Self.threeColors, in: Rect(x: Double(x), y: 10, width: 1, height: 1), format: .rgbaFloat).pixel(x: 0, row: 0)
            let k = p.x == 0 ? 0 : 1
            sums[k] += orig; counts[k] += 1
        }
        for k in 0..<2 where counts[k] > 0 {
            let mean = sums[k] / counts[k], got = c.pixel(x: k, row: 0)
            #expect(abs(got.x - mean.x) < 1e-5 && abs(got.y - mean.y) < 1e-5 && abs(got.z - mean.z) < 1e-5, "palette \(k): \(got) vs \(mean)")
        }
    }
}
