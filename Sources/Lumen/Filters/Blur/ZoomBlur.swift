import LumenPlatform

extension FilterDescriptor {
    /// Averages samples on the segment from the pixel towards `center`: with
    /// k = amount/100, the streak runs from p to c + (p − c)·(1 − k), so it is `amount`
    /// pixels long 100 pixels from the centre and grows with distance. n = clamp(⌈|amount|·d/100⌉, 1, 64)
    /// bilinear samples. Extent unchanged (growing for negative amount).
    static let zoomBlur = FilterDescriptor(
        name: "zoomBlur", coreImageName: "CIZoomBlur", category: .blur,
        summary: "Blurs along rays from a point, like zooming during the exposure.",
        details: "Mean of samples c + (p − c)·(1 − k·j/(n − 1)), k = amount/100, j = 0…n−1.",
        parameters: [
            .inputImage,
            .point("center", default: [150, 150], "Centre of the zoom."),
            .number("amount", .distance, default: 20, min: -1000, identity: 0, "Streak length 100 px from the centre, pixels (−1000 … below 100)."),
        ]
    ) { args in
        let image = try args.image("image"), amount = args.number("amount")
        guard amount != 0 else { return image }
        guard amount < 100 else { throw LumenError.invalidValue(filter: "zoomBlur", key: "amount", reason: "\(amount) must be below 100") }
        return ZoomBlurKernel(center: args.point("center"), amount: amount, inputBounds: image.extent).apply(to: [image])
    }
}

struct ZoomBlurKernel: ImageKernel {
    let center: Point, amount: Double
    /// The input's extent: samples beyond it are transparent, so the region of interest
    /// stops there (a far centre would otherwise ask for an enormous region).
    let inputBounds: Rect

    var name: String { "zoomBlur" }

    func extent(inputs: [Rect]) -> Rect {
        let k = amount / 100, e = inputs[0]
        // Negative amounts sample outward: the output reaches inward by the factor 1/(1 − k).
        return k < 0 && !e.isInfinite ? e.union(e.applying(Self.scaleAbout(center, 1 / (1 - k)))) : e
    }

    static func scaleAbout(_ c: Point, _ s: Double) -> AffineTransform {
        AffineTransform(translationX: -c.x, y: -c.y).concatenating(AffineTransform(scaleX: s, y: s))
            .concatenating(AffineTransform(translationX: c.x, y: c.y))
    }

    var cachePolicy: CachePolicy { .whenReused }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        rect.union(PixelRect(covering: rect.rect.applying(Self.scaleAbout(center, 1 - amount / 100)))).outset(dx: 1, dy: 1)
            .intersection(PixelRect(covering: inputBounds).outset(dx: 1, dy: 1))
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect
        let k = amount / 100
        for y in r.y..<r.maxY {
            let out = output.row(y)
            let py = Double(y) + 0.5
            for i in 0..<r.width {
                let px = Double(r.x + i) + 0.5
                let d = ((px - center.x) * (px - center.x) + (py - center.y) * (py - center.y)).squareRoot()
                let streak = (abs(amount) * d / 100).rounded(.up)  // infinite for a centre at ±1e308
                let n = streak.isFinite ? Int(min(64, max(1, streak))) : 64
                var sum = SIMD4<Float>.zero
                for j in 0..<n {
                    let f = n == 1 ? 1 : 1 - k * Double(j) / Double(n - 1)
                    sum += input.bilinear(center.x + (px - center.x) * f - 0.5, center.y + (py - center.y) * f - 0.5)
                }
                out[i] = sum / Float(n)
            }
        }
    }
}
