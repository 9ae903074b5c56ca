extension ParameterDescriptor {
    /// The rectangle a reduction reads (Core Image's `inputExtent`).
    static let reductionExtent = ParameterDescriptor("extent", .rectangle, default: .vector([0, 0, 640, 80]),
        "The rectangle reduced, in pixels (partly covered pixels count whole); outside the image it reads transparent black.")
}

extension FilterDescriptor {
    /// Σ pixels / pixel count over the extent, premultiplied working-space values,
    /// summed in Double per 128-pixel block and merged in block order.
    static let areaAverage = areaStatistic(.average, "areaAverage", "CIAreaAverage",
        summary: "The average colour of a rectangle, as a 1 × 1 image.",
        details: "Output (0, 0, 1, 1) = Σ p / n over the extent's n pixels (premultiplied, linear).")
    /// Per-channel maximum over the extent.
    static let areaMaximum = areaStatistic(.maximum, "areaMaximum", "CIAreaMaximum",
        summary: "The per-channel maximum of a rectangle, as a 1 × 1 image.",
        details: "Output (0, 0, 1, 1) = (max r, max g, max b, max a) over the extent, each channel on its own.")
    /// Per-channel minimum over the extent.
    static let areaMinimum = areaStatistic(.minimum, "areaMinimum", "CIAreaMinimum",
        summary: "The per-channel minimum of a rectangle, as a 1 × 1 image.",
        details: "Output (0, 0, 1, 1) = (min r, min g, min b, min a) over the extent, each channel on its own.")
    /// Per-channel minimum at (0, 0) and maximum at (1, 0).
    static let areaMinMax = areaStatistic(.minMax, "areaMinMax", "CIAreaMinMax",
        summary: "The per-channel minimum and maximum of a rectangle, as a 2 × 1 image.",
        details: "Output (0, 0, 2, 1): pixel 0 the per-channel minimum, pixel 1 the maximum.")
    /// (min red, max red, 0, 1).
    static let areaMinMaxRed = areaStatistic(.minMaxRed, "areaMinMaxRed", "CIAreaMinMaxRed",
        summary: "The minimum and maximum red of a rectangle, in red and green of a 1 × 1 image.",
        details: "Output (0, 0, 1, 1) = (min r, max r, 0, 1).")
    /// The pixel whose alpha is largest; ties go to the lowest row, then the leftmost.
    static let areaMaximumAlpha = areaStatistic(.maximumAlpha, "areaMaximumAlpha", "CIAreaMaximumAlpha",
        summary: "The pixel of a rectangle with the largest alpha, as a 1 × 1 image.",
        details: "Output (0, 0, 1, 1) = the pixel with the largest alpha (ties: lowest y, then lowest x).")
    /// The pixel whose alpha is smallest; ties go to the lowest row, then the leftmost.
    static let areaMinimumAlpha = areaStatistic(.minimumAlpha, "areaMinimumAlpha", "CIAreaMinimumAlpha",
        summary: "The pixel of a rectangle with the smallest alpha, as a 1 × 1 image.",
        details: "Output (0, 0, 1, 1) = the pixel with the smallest alpha (ties: lowest y, then lowest x).")
    /// The bounding box (x, y, width, height in pixels) of the pixels whose red is above 0.
    static let areaBoundsRed = areaStatistic(.boundsRed, "areaBoundsRed", "CIAreaBoundsRed",
        summary: "The bounding box of the pixels with red above zero, as a 1 × 1 image.",
        details: "Output (0, 0, 1, 1) = (x, y, width, height) in pixels of the smallest rectangle holding every pixel with red > 0; (0, 0, 0, 0) when none.")

    static func areaStatistic(_ statistic: AreaStatistic.Statistic, _ name: String, _ coreImageName: String,
                              summary: String, details: String) -> FilterDescriptor {
        FilterDescriptor(name: name, coreImageName: coreImageName, category: .reduction, summary: summary, details: details,
                         parameters: [.inputImage, .reductionExtent]) { args in
            let area = PixelRect(covering: args.rect("extent"))
            guard !area.isEmpty else { return .empty }
            return AreaStatistic(statistic: statistic, area: area).apply(to: [try args.image("image")])
        }
    }
}

/// The 1 × 1 (or 2 × 1) statistics of an area.
struct AreaStatistic: ReductionKernel {
    enum Statistic: String, Sendable { case average, maximum, minimum, minMax, minMaxRed, maximumAlpha, minimumAlpha, boundsRed }

    let statistic: Statistic
    let area: PixelRect

    var name: String { "area" + statistic.rawValue.prefix(1).uppercased() + statistic.rawValue.dropFirst() }

    func extent(inputs: [Rect]) -> Rect { Rect(x: 0, y: 0, width: statistic == .minMax ? 2 : 1, height: 1) }

    struct Summary: Sendable {
        var sum = SIMD4<Double>.zero
        var low = SIMD4<Float>(repeating: .infinity), high = SIMD4<Float>(repeating: -.infinity)
        /// The chosen pixel (by alpha) and where it is.
        var pick = SIMD4<Float>.zero, pickX = Int.max, pickY = Int.max, hasPick = false
        /// Bounds of red > 0: min x, min y, max x, max y (inclusive).
        var bounds = (Int.max, Int.max, Int.min, Int.min)

        /// Whether a pixel at (x, y) with `alpha` replaces the current pick.
        func prefers(_ alpha: Float, _ x: Int, _ y: Int, largest: Bool) -> Bool {
            guard hasPick else { return true }
            if alpha != pick.w { return largest ? alpha > pick.w : alpha < pick.w }
            return y < pickY || (y == pickY && x < pickX)
        }

        mutating func take(_ p: SIMD4<Float>, _ x: Int, _ y: Int, largest: Bool) {
            if prefers(p.w, x, y, largest: largest) { pick = p; pickX = x; pickY = y; hasPick = true }
        }
    }

    func summarize(_ pixels: Sampler, _ rect: PixelRect) -> Summary {
        var s = Summary()
        for y in rect.y..<rect.maxY {
            let row = pixels.row(y, from: rect.x)
            switch statistic {
            case .average:
                var rowSum = SIMD4<Double>.zero
                for i in 0..<rect.width { rowSum += SIMD4<Double>(row[i]) }
                s.sum += rowSum
            case .maximum, .minimum, .minMax, .minMaxRed:
                for i in 0..<rect.width { s.low = lanewiseMin(s.low, row[i]); s.high = lanewiseMax(s.high, row[i]) }
            case .maximumAlpha, .minimumAlpha:
                for i in 0..<rect.width { s.take(row[i], rect.x + i, y, largest: statistic == .maximumAlpha) }
            case .boundsRed:
                for i in 0..<rect.width where row[i].x > 0 {
                    s.bounds = (min(s.bounds.0, rect.x + i), min(s.bounds.1, y), max(s.bounds.2, rect.x + i), max(s.bounds.3, y))
                }
            }
        }
        return s
    }

    func finish(_ summaries: [Summary], covered: Int) -> [SIMD4<Float>] {
        var total = Summary()
        let uncovered = covered < area.area  // those pixels are transparent black
        if uncovered {
            total.low = .zero
            total.high = .zero
        }
        for s in summaries {
            total.sum += s.sum
            total.low = lanewiseMin(total.low, s.low)
            total.high = lanewiseMax(total.high, s.high)
            if s.hasPick { total.take(s.pick, s.pickX, s.pickY, largest: statistic == .maximumAlpha) }
            total.bounds = (min(total.bounds.0, s.bounds.0), min(total.bounds.1, s.bounds.1),
                            max(total.bounds.2, s.bounds.2), max(total.bounds.3, s.bounds.3))
        }
        switch statistic {
        case .average:
            return [SIMD4<Float>(total.sum / Double(area.area))]
        case .maximum: return [total.high]
        case .minimum: return [total.low]
        case .minMax: return [total.low, total.high]
        case .minMaxRed: return [SIMD4(total.low.x, total.high.x, 0, 1)]
        case .maximumAlpha, .minimumAlpha:
            // A transparent pixel outside the input wins a minimum (or ties at zero).
            if uncovered && (statistic == .minimumAlpha ? (!total.hasPick || total.pick.w > 0) : !total.hasPick) { return [.zero] }
            return [total.hasPick ? total.pick : .zero]
        case .boundsRed:
            guard total.bounds.0 <= total.bounds.2 else { return [.zero] }
            return [SIMD4(Float(total.bounds.0), Float(total.bounds.1),
                          Float(total.bounds.2 - total.bounds.0 + 1), Float(total.bounds.3 - total.bounds.1 + 1))]
        }
    }
}
