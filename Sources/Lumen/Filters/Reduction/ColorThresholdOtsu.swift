import LumenPlatform

extension FilterDescriptor {
    /// Binarises at the threshold Otsu's method finds in the image: the luma (Rec. 709,
    /// unpremultiplied linear) of every pixel of the extent goes into 256 bins
    /// ⌊l·256⌋ (clamped); the split t maximising the between-class variance
    /// w₀w₁(μ₀ − μ₁)² (the first, if tied) gives the threshold (t + 1)/256; each colour
    /// component becomes 1 at or above it and 0 below, as colorThreshold does. Alpha kept.
    /// The histogram is a reduction over fixed blocks, so the threshold does not depend
    /// on tiles or threads.
    static let colorThresholdOtsu = FilterDescriptor(
        name: "colorThresholdOtsu", coreImageName: "CIColorThresholdOtsu", category: .colorAdjustment,
        summary: "Binarizes an image at the threshold Otsu's method finds in its histogram.",
        details: "256-bin histogram of Rec. 709 luma; t maximises w₀w₁(μ₀ − μ₁)²; threshold (t + 1)/256; c' = c ≥ threshold ? 1 : 0 (unpremultiplied); alpha kept.",
        parameters: [.inputImage]
    ) { args in
        let image = try args.image("image")
        guard !image.extent.isInfinite else {
            throw LumenError.invalidValue(filter: "colorThresholdOtsu", key: "image", reason: "needs a finite extent (crop it first)")
        }
        let area = PixelRect(covering: image.extent)
        guard !area.isEmpty else { return .empty }
        let threshold = OtsuThreshold(area: area).apply(to: [image]).clampedToExtent()
        return OtsuBinarize.kernel.apply(extent: image.extent, arguments: [image, threshold])
    }
}

/// The Otsu threshold of an area's luma, as a 1 × 1 image (t, t, t, 1).
struct OtsuThreshold: ReductionKernel {
    static let bins = 256
    let area: PixelRect
    var name: String { "otsuThreshold" }

    func extent(inputs: [Rect]) -> Rect { Rect(x: 0, y: 0, width: 1, height: 1) }

    static func bin(_ p: SIMD4<Float>) -> Int {
        guard p.w > 0 else { return 0 }
        let l = (0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z) / p.w
        guard l > 0 else { return 0 }  // NaN too
        return min(bins - 1, Int(min(l * Float(bins), Float(bins))))
    }

    func summarize(_ pixels: Sampler, _ rect: PixelRect) -> [Int] {
        var counts = [Int](repeating: 0, count: Self.bins)
        for y in rect.y..<rect.maxY {
            let row = pixels.row(y, from: rect.x)
            for i in 0..<rect.width { counts[Self.bin(row[i])] += 1 }
        }
        return counts
    }

    /// The last bin of the dark class.
    static func split(_ counts: [Int]) -> Int {
        let total = Double(counts.reduce(0, +))
        guard total > 0 else { return 0 }
        let sum = counts.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var best = 0, bestVariance = -1.0, w0 = 0.0, sum0 = 0.0
        for t in 0..<(counts.count - 1) {
            w0 += Double(counts[t]); sum0 += Double(t * counts[t])
            let w1 = total - w0
            guard w0 > 0, w1 > 0 else { continue }
            let m0 = sum0 / w0, m1 = (sum - sum0) / w1
            let variance = w0 * w1 * (m0 - m1) * (m0 - m1)
            if variance > bestVariance { bestVariance = variance; best = t }
        }
        return best
    }

    func finish(_ summaries: [[Int]], covered: Int) -> [SIMD4<Float>] {
        var counts = [Int](repeating: 0, count: Self.bins)
        counts[0] = area.area - covered  // outside the input: transparent
        for s in summaries { for i in 0..<Self.bins { counts[i] += s[i] } }
        let t = Float(Self.split(counts) + 1) / Float(Self.bins)
        return [SIMD4(t, t, t, 1)]
    }
}

enum OtsuBinarize {
    /// Input 0 the image, input 1 the threshold everywhere.
    static let kernel = ColorKernel("colorThresholdOtsu", pixel: { p in
        let c = p[0], t = p[1].x
        guard c.w > 0 else { return .zero }
        let a = c.w
        return SIMD4(c.x / a >= t ? a : 0, c.y / a >= t ? a : 0, c.z / a >= t ? a : 0, a)
    })
}
