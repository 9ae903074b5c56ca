import LumenPlatform

extension FilterDescriptor {
    /// He, Sun and Tang's guided filter, used as Core Image uses it: the input (often a
    /// small mask or depth map) is first scaled to the guide image's extent (bilinear),
    /// then filtered so its edges follow the guide's. With I the guide's Rec. 709 luma
    /// and p each channel of the input (premultiplied linear), over windows of
    /// (2·radius + 1)² pixels cut to the guide's extent: a = cov(I, p)/(var(I) + epsilon),
    /// b = mean(p) − a·mean(I), and out = mean(a)·I + mean(b).
    static let guidedFilter = FilterDescriptor(
        name: "guidedFilter", coreImageName: "CIGuidedFilter", category: .geometryAdjustment,
        summary: "Upsamples an image to a guide's size with edges that follow the guide (He's guided filter).",
        details: "Input scaled to the guide's extent; a = cov(I, p)/(var(I) + ε), b = p̄ − a·Ī over (2r + 1)² windows cut to the extent; out = ā·I + b̄, I = guide luma.",
        parameters: [
            .inputImage,
            ParameterDescriptor("guideImage", .image, "The larger image whose edges the result follows."),
            .number("radius", .integer, default: 1, min: 0, max: 100, "Window radius in whole pixels (rounded)."),
            .number("epsilon", default: 0.0001, min: 0, max: 1e6, "Regularisation: larger smooths more, ignoring weaker guide edges."),
        ]
    ) { args in
        let guide = try args.image("guideImage"), image = try args.image("image")
        let (target, scaled) = try fitted(image, to: guide, filter: "guidedFilter")
        return GuidedFilter(radius: Int(args.number("radius").rounded()), epsilon: args.number("epsilon"), box: target)
            .apply(to: [scaled, guide])
    }

    /// Joint bilateral upsampling (Kopf et al. 2007) of `smallImage` to the input's
    /// extent: the output at p is the mean of the small image's pixels q within 2σs of p's
    /// position in it, weighted by e^(−|p↓ − q|²/2σs²) (small-image pixels) times
    /// e^(−(L(p) − L(q↑))²/2σl²), L the input's Rec. 709 luma at p and at q's centre.
    static let edgePreserveUpsampleFilter = FilterDescriptor(
        name: "edgePreserveUpsampleFilter", coreImageName: "CIEdgePreserveUpsampleFilter", category: .geometryAdjustment,
        summary: "Upsamples a small image to the input's size, keeping the input's edges (joint bilateral).",
        details: "out(p) = Σ small(q)·e^(−|p↓ − q|²/2σs²)·e^(−(L(p) − L(q↑))²/2σl²) / Σ weights over |p↓ − q| ≤ 2σs; L = luma of the input.",
        parameters: [
            .inputImage,
            ParameterDescriptor("smallImage", .image, "The low-resolution image to upsample."),
            .number("spatialSigma", default: 3, min: 0.1, max: 5, "σ of the distance weight, in the small image's pixels."),
            .number("lumaSigma", default: 0.15, min: 0.001, max: 1, "σ of the luma-difference weight."),
        ]
    ) { args in
        let guide = try args.image("image"), small = try args.image("smallImage")
        for (key, image) in [("image", guide), ("smallImage", small)] where image.extent.isInfinite || PixelRect(covering: image.extent).isEmpty {
            throw LumenError.invalidValue(filter: "edgePreserveUpsampleFilter", key: key, reason: "needs a finite, non-empty extent")
        }
        return JointBilateralUpsample(guide: PixelRect(covering: guide.extent), small: PixelRect(covering: small.extent),
                                      spatialSigma: args.number("spatialSigma"), lumaSigma: args.number("lumaSigma"))
            .apply(to: [guide, small])
    }

    /// `image` scaled (bilinear) so its extent covers `guide`'s whole-pixel box.
    static func fitted(_ image: Image, to guide: Image, filter: String) throws -> (PixelRect, Image) {
        for (key, candidate) in [("guideImage", guide), ("image", image)] where candidate.extent.isInfinite || PixelRect(covering: candidate.extent).isEmpty {
            throw LumenError.invalidValue(filter: filter, key: key, reason: "needs a finite, non-empty extent")
        }
        let target = PixelRect(covering: guide.extent), e = image.extent
        if e == target.rect { return (target, image) }
        let sx = Double(target.width) / e.width, sy = Double(target.height) / e.height
        let t = AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: Double(target.x) - e.minX * sx, ty: Double(target.y) - e.minY * sy)
        // Clamped first, so the edge pixels are not blended with the transparent outside.
        return (target, image.clampedToExtent().transformed(by: t).cropped(to: target.rect))
    }
}

/// The guided filter over `box`, from per-tile integral images.
struct GuidedFilter: ImageKernel {
    let radius: Int
    let epsilon: Double
    let box: PixelRect
    var name: String { "guidedFilter" }
    var cachePolicy: CachePolicy { .whenReused }

    func extent(inputs: [Rect]) -> Rect { box.rect }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: 2 * radius, dy: 2 * radius).intersection(box) }

    /// Window sums from an integral image over a w × h grid.
    struct Integral {
        let w: Int
        var sums: [SIMD8<Double>]
        init(w: Int, h: Int, _ value: (Int, Int) -> SIMD8<Double>) {
            self.w = w
            sums = [SIMD8<Double>](repeating: .zero, count: (w + 1) * (h + 1))
            for y in 0..<h {
                var row = SIMD8<Double>.zero
                for x in 0..<w {
                    row += value(x, y)
                    sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + row
                }
            }
        }
        /// Sum over x0..<x1, y0..<y1.
        func sum(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> SIMD8<Double> {
            sums[y1 * (w + 1) + x1] - sums[y0 * (w + 1) + x1] - sums[y1 * (w + 1) + x0] + sums[y0 * (w + 1) + x0]
        }
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect.intersection(box)
        guard !r.isEmpty else { return }
        let p = inputs[0], guide = inputs[1], rad = radius
        // Stage 1 over the region grown by r: a and b per channel; stage 2 averages them over r.
        let outer = r.outset(dx: 2 * rad, dy: 2 * rad).intersection(box), mid = r.outset(dx: rad, dy: rad).intersection(box)
        func luma(_ v: SIMD4<Float>) -> Double { Double(0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z) }
        // Per pixel (I, I², 1, 0, p) and (I·p, 0): two integral images of 8 lanes.
        let first = Integral(w: outer.width, h: outer.height) { x, y in
            let i = luma(guide.pixel(outer.x + x, outer.y + y)), v = SIMD4<Double>(p.pixel(outer.x + x, outer.y + y))
            return SIMD8(i, i * i, 1, 0, v.x, v.y, v.z, v.w)
        }
        let second = Integral(w: outer.width, h: outer.height) { x, y in
            let i = luma(guide.pixel(outer.x + x, outer.y + y)), v = SIMD4<Double>(p.pixel(outer.x + x, outer.y + y))
            return SIMD8(i * v.x, i * v.y, i * v.z, i * v.w, 0, 0, 0, 0)
        }
        func window(_ x: Int, _ y: Int) -> (Int, Int, Int, Int) {  // in `outer` coordinates, cut to the box
            (max(x - rad, outer.x) - outer.x, max(y - rad, outer.y) - outer.y, min(x + rad + 1, outer.maxX) - outer.x, min(y + rad + 1, outer.maxY) - outer.y)
        }
        // a, b over `mid` (each window lies inside `outer`).
        var values = [SIMD8<Double>](repeating: .zero, count: mid.width * mid.height)
        for y in 0..<mid.height {
            for x in 0..<mid.width {
                let (x0, y0, x1, y1) = window(mid.x + x, mid.y + y)
                let s = first.sum(x0, y0, x1, y1), t = second.sum(x0, y0, x1, y1), n = s[2]
                let meanI = s[0] / n, varI = s[1] / n - meanI * meanI
                let meanP = SIMD4(s[4], s[5], s[6], s[7]) / n, corr = SIMD4(t[0], t[1], t[2], t[3]) / n
                let a = (corr - meanI * meanP) / (varI + epsilon), b = meanP - a * meanI
                values[y * mid.width + x] = SIMD8(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w)
            }
        }
        let ab = Integral(w: mid.width, h: mid.height) { x, y in values[y * mid.width + x] }
        for y in r.y..<r.maxY {
            let out = output.row(y) + (r.x - output.rect.x)
            for x in r.x..<r.maxX {
                let x0 = max(x - rad, box.x) - mid.x, y0 = max(y - rad, box.y) - mid.y
                let x1 = min(x + rad + 1, box.maxX) - mid.x, y1 = min(y + rad + 1, box.maxY) - mid.y
                let n = Double((x1 - x0) * (y1 - y0)), s = ab.sum(x0, y0, x1, y1) / n
                let i = luma(guide.pixel(x, y))
                out[x - r.x] = SIMD4<Float>(SIMD4(s[0], s[1], s[2], s[3]) * i + SIMD4(s[4], s[5], s[6], s[7]))
            }
        }
    }
}

/// Joint bilateral upsampling of `small` onto `guide`'s pixels.
struct JointBilateralUpsample: ImageKernel {
    let guide: PixelRect, small: PixelRect
    let spatialSigma: Double, lumaSigma: Double
    var name: String { "edgePreserveUpsampleFilter" }
    var cachePolicy: CachePolicy { .whenReused }

    var scale: SIMD2<Double> { SIMD2(Double(guide.width) / Double(small.width), Double(guide.height) / Double(small.height)) }
    var reach: Int { Int((2 * spatialSigma).rounded(.up)) }

    func extent(inputs: [Rect]) -> Rect { guide.rect }

    /// The small image's position of the guide point p.
    func down(_ p: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(Double(small.x), Double(small.y)) + (p - SIMD2(Double(guide.x), Double(guide.y))) / scale
    }
    /// The guide's position of the small image's point q.
    func up(_ q: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(Double(guide.x), Double(guide.y)) + (q - SIMD2(Double(small.x), Double(small.y))) * scale
    }

    /// The small pixels whose centres lie within the reach of the rectangle's positions.
    func smallWindow(_ rect: PixelRect) -> PixelRect {
        let lo = down(SIMD2(Double(rect.x), Double(rect.y))), hi = down(SIMD2(Double(rect.maxX), Double(rect.maxY)))
        return PixelRect(covering: Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)).outset(dx: reach + 1, dy: reach + 1).intersection(small)
    }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let window = smallWindow(rect.intersection(guide))
        guard index == 0 else { return window }
        // The guide at the output pixels and at the small pixels' centres (bilinear: one more).
        guard !window.isEmpty else { return rect }
        let lo = up(SIMD2(Double(window.x), Double(window.y))), hi = up(SIMD2(Double(window.maxX), Double(window.maxY)))
        return PixelRect(covering: Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)).outset(dx: 1, dy: 1).union(rect)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect.intersection(guide)
        guard !r.isEmpty else { return }
        let image = inputs[0], low = inputs[1], window = smallWindow(r)
        func luma(_ v: SIMD4<Float>) -> Double { Double(0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z) }
        // The guide's luma at each small pixel's centre.
        var centreLuma = [Double](repeating: 0, count: window.area)
        for y in 0..<window.height { for x in 0..<window.width {
            centreLuma[y * window.width + x] = luma(image.sample(at: up(SIMD2(Double(window.x + x) + 0.5, Double(window.y + y) + 0.5))))
        } }
        let s2 = 2 * spatialSigma * spatialSigma, l2 = 2 * lumaSigma * lumaSigma, limit = 4 * spatialSigma * spatialSigma
        for y in r.y..<r.maxY {
            let out = output.row(y) + (r.x - output.rect.x)
            for x in r.x..<r.maxX {
                let q = down(SIMD2(Double(x) + 0.5, Double(y) + 0.5)), l = luma(image.pixel(x, y))
                var sum = SIMD4<Double>.zero, total = 0.0
                let qx = Int((q.x - 0.5).rounded(.down)), qy = Int((q.y - 0.5).rounded(.down))
                let v0 = max(qy - reach, window.y), v1 = min(qy + reach + 1, window.maxY - 1)
                let u0 = max(qx - reach, window.x), u1 = min(qx + reach + 1, window.maxX - 1)
                for v in stride(from: v0, through: v1, by: 1) {
                    for u in stride(from: u0, through: u1, by: 1) {
                        let d = SIMD2(Double(u) + 0.5, Double(v) + 0.5) - q, d2 = (d * d).sum()
                        guard d2 <= limit else { continue }
                        let dl = l - centreLuma[(v - window.y) * window.width + (u - window.x)]
                        let w = exp(-d2 / s2 - dl * dl / l2)
                        sum += w * SIMD4<Double>(low.pixel(u, v)); total += w
                    }
                }
                out[x - r.x] = total > 0 ? SIMD4<Float>(sum / total) : .zero
            }
        }
    }
}
