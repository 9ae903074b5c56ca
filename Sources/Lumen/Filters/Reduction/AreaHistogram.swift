import LumenPlatform

extension FilterDescriptor {
    /// Bin of a value v: ⌊v·count⌋ clamped to 0…count − 1 (values outside 0…1 land in the
    /// end bins), per channel of the premultiplied working-space pixel. Pixel i of the
    /// output = scale · (pixels in bin i) / (pixels in the extent): with scale 1 each
    /// channel's bins add up to 1, as Core Image documents.
    static let areaHistogram = FilterDescriptor(
        name: "areaHistogram", coreImageName: "CIAreaHistogram", category: .reduction,
        summary: "Histograms of red, green, blue and alpha over a rectangle, as a count × 1 image.",
        details: "Pixel i = scale · #{v : clamp(⌊v·count⌋, 0, count − 1) = i} / n per channel; bins add up to scale.",
        parameters: [
            .inputImage, .reductionExtent,
            .number("scale", default: 1, min: 0, max: 1e6, "Multiplies every bin: 1 makes each channel's bins add up to 1."),
            .number("count", .integer, default: 64, min: 1, max: 2048, "Number of bins."),
        ]
    ) { args in try histogram(args, .linear) }

    /// As areaHistogram over log₂ v: bin = ⌊(log₂ v − minimumStop) / (maximumStop −
    /// minimumStop) · count⌋ clamped; v ≤ 0 goes to bin 0.
    static let areaLogarithmicHistogram = FilterDescriptor(
        name: "areaLogarithmicHistogram", coreImageName: "CIAreaLogarithmicHistogram", category: .reduction,
        summary: "Histograms over log₂ of the values (stops), as a count × 1 image.",
        details: "bin = clamp(⌊(log₂ v − minimumStop)/(maximumStop − minimumStop)·count⌋); pixel i = scale · #bin i / n.",
        parameters: [
            .inputImage, .reductionExtent,
            .number("scale", default: 1, min: 0, max: 1e6, "Multiplies every bin: 1 makes each channel's bins add up to 1."),
            .number("count", .integer, default: 64, min: 1, max: 2048, "Number of bins."),
            .number("minimumStop", default: -10, min: -64, max: 64, "log₂ of the value at the start of the first bin."),
            .number("maximumStop", default: 4, min: -64, max: 64, "log₂ of the value at the end of the last bin."),
        ]
    ) { args in
        guard args.number("maximumStop") > args.number("minimumStop") else {
            throw LumenError.invalidValue(filter: "areaLogarithmicHistogram", key: "maximumStop", reason: "must be above minimumStop")
        }
        return try histogram(args, .logarithmic(minimumStop: args.number("minimumStop"), maximumStop: args.number("maximumStop")))
    }

    /// As areaHistogram on the unpremultiplied colour, each pixel counting its alpha
    /// (a transparent pixel counts nothing); alpha's own bins are weighted the same way.
    static let areaAlphaWeightedHistogram = FilterDescriptor(
        name: "areaAlphaWeightedHistogram", coreImageName: "CIAreaAlphaWeightedHistogram", category: .reduction,
        summary: "Histograms of the unpremultiplied colour weighted by alpha, as a count × 1 image.",
        details: "Pixel i = scale · Σ{α : bin(c/α) = i} / n per channel, bins as areaHistogram.",
        parameters: [
            .inputImage, .reductionExtent,
            .number("scale", default: 1, min: 0, max: 1e6, "Multiplies every bin."),
            .number("count", .integer, default: 64, min: 1, max: 2048, "Number of bins."),
        ]
    ) { args in try histogram(args, .alphaWeighted) }

    static func histogram(_ args: FilterArguments, _ binning: Histogram.Binning) throws -> Image {
        let area = PixelRect(covering: args.rect("extent"))
        guard !area.isEmpty else { return .empty }
        return Histogram(binning: binning, count: Int(args.number("count").rounded()), scale: args.number("scale"), area: area)
            .apply(to: [try args.image("image")])
    }
}

/// Per-channel histograms of an area.
struct Histogram: ReductionKernel {
    enum Binning: Hashable, Sendable {
        case linear, alphaWeighted
        case logarithmic(minimumStop: Double, maximumStop: Double)
    }

    let binning: Binning
    let count: Int
    let scale: Double
    let area: PixelRect

    var name: String {
        switch binning {
        case .linear: return "areaHistogram"
        case .alphaWeighted: return "areaAlphaWeightedHistogram"
        case .logarithmic: return "areaLogarithmicHistogram"
        }
    }

    func extent(inputs: [Rect]) -> Rect { Rect(x: 0, y: 0, width: Double(count), height: 1) }

    @inline(__always)
    private func bin(_ v: Double) -> Int {
        let t: Double
        switch binning {
        case .linear, .alphaWeighted: t = v
        case let .logarithmic(lo, hi): t = v > 0 ? (log2(v) - lo) / (hi - lo) : 0
        }
        guard t > 0 else { return 0 }  // NaN too
        return min(count - 1, Int(min(t * Double(count), Double(count))))
    }

    func summarize(_ pixels: Sampler, _ rect: PixelRect) -> [SIMD4<Double>] {
        var bins = [SIMD4<Double>](repeating: .zero, count: count)
        for y in rect.y..<rect.maxY {
            let row = pixels.row(y, from: rect.x)
            for i in 0..<rect.width {
                var p = SIMD4<Double>(row[i]), weight = 1.0
                if binning == .alphaWeighted {
                    guard p.w > 0 else { continue }
                    weight = p.w
                    p = SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w)
                }
                bins[bin(p.x)].x += weight
                bins[bin(p.y)].y += weight
                bins[bin(p.z)].z += weight
                bins[bin(p.w)].w += weight
            }
        }
        return bins
    }

    func finish(_ summaries: [[SIMD4<Double>]], covered: Int) -> [SIMD4<Float>] {
        var totals = [SIMD4<Double>](repeating: .zero, count: count)
        // Pixels of the area outside the input are transparent black: bin 0 (weight 0 when alpha-weighted).
        if binning != .alphaWeighted { totals[bin(0)] += SIMD4(repeating: Double(area.area - covered)) }
        for bins in summaries { for i in 0..<count { totals[i] += bins[i] } }
        let k = scale / Double(area.area)
        return totals.map { SIMD4<Float>($0 * k) }
    }
}
