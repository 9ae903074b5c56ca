import LumenPlatform

extension FilterDescriptor {
    /// `radius` is the standard deviation σ in pixels (SPEC §2). The kernel reaches ⌈3σ⌉;
    /// the output extent is the input extent outset by ⌈3σ⌉. Outside the input is
    /// transparent, so edges fade (clamp first to avoid that).
    static let gaussianBlur = FilterDescriptor(
        name: "gaussianBlur", coreImageName: "CIGaussianBlur", category: .blur,
        summary: "Spreads each pixel with a Gaussian of standard deviation `radius`.",
        details: "radius = σ in pixels; kernel reaches ⌈3σ⌉; extent outset by ⌈3σ⌉; separable, two passes.",
        parameters: [
            .inputImage,
            .number("radius", default: 10, min: 0, max: 10000, identity: 0, "Standard deviation σ in pixels (at most 10000)."),
        ]
    ) { args in try args.image("image").applyingGaussianBlur(sigma: args.number("radius")) }
}

/// A 1-D convolution along x or y with a symmetric kernel of `weights.count` taps
/// centred on the pixel (transparent outside the input). Gaussian blur is two of them.
struct Convolve1D: ImageKernel {
    let horizontal: Bool
    let weights: [Float]

    var name: String { horizontal ? "convolveX" : "convolveY" }
    private var reach: Int { weights.count / 2 }

    func extent(inputs: [Rect]) -> Rect {
        let e = inputs[0], d = Double(reach)
        if e.isInfinite { return e }
        return horizontal ? Rect(x: e.x - d, y: e.y, width: e.width + 2 * d, height: e.height)
                          : Rect(x: e.x, y: e.y - d, width: e.width, height: e.height + 2 * d)
    }

    var cachePolicy: CachePolicy { horizontal ? .whenReused : .never }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        horizontal ? rect.outset(dx: reach, dy: 0) : rect.outset(dx: 0, dy: reach)
    }

    /// Gaussian and box weights are symmetric: mirrored taps share a multiply.
    private var isSymmetric: Bool {
        weights.count % 2 == 1 && (0..<(weights.count / 2)).allSatisfy { weights[$0] == weights[weights.count - 1 - $0] }
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect, reach = self.reach, symmetric = isSymmetric
        weights.withUnsafeBufferPointer { w in
            if horizontal {
                for y in r.y..<r.maxY {
                    let row = input.row(y, from: r.x - reach)
                    if symmetric {
                        SeparableKernel.convolveRowSymmetric(row, weights: w, into: output.row(y), count: r.width)
                    } else {
                        SeparableKernel.convolveRow(row, weights: w, into: output.row(y), count: r.width)
                    }
                }
            } else {
                withUnsafeTemporaryAllocation(of: UnsafePointer<SIMD4<Float>>.self, capacity: r.height + w.count - 1) { rows in
                    for j in rows.indices { rows[j] = input.row(r.y - reach + j, from: r.x) }
                    SeparableKernel.convolveColumns(rows: UnsafeBufferPointer(rows), weights: w, symmetric: symmetric, into: output.row(r.y),
                                                    stride: output.stride, height: r.height, count: r.width)
                }
            }
        }
    }
}

/// Normalized Gaussian weights for σ, reaching ⌈3σ⌉ on each side.
func gaussianWeights(sigma: Double) -> [Float] {
    let reach = Int((3 * sigma).rounded(.up))
    let raw = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let sum = raw.reduce(0, +)
    return raw.map { Float($0 / sum) }
}

extension Image {
    /// Gaussian blur with standard deviation `sigma` pixels; returns the image itself
    /// for σ < 0.16 (Core Image's rule).
    ///
    /// Below σ = 4 (`pyramidThreshold`) it is an exact separable convolution reaching
    /// ⌈3σ⌉ (cost ∝ σ). From σ = 4 the cost stops growing: k×k blocks are averaged (k the
    /// power of two from 2 with σ/k < 6, and σ/k ≥ 3 from σ = 6), blurred with
    /// σ′ = √(σ² − (k² − 1)/12)/k (the box's variance taken out), and enlarged k times with
    /// the Catmull–Rom cubic, which adds no variance of its own; the extent is still outset
    /// by ⌈3σ⌉. After the blur the picture is smooth enough that the cubic is closer to the
    /// exact Gaussian than Lanczos-3 was (8-bit sRGB PSNR on FallenLeaf against scipy's exact
    /// Gaussian, 24 pixels in: σ 8 69.5 dB against 63.2, σ 12 65.1 against 61.8, σ 32 62.9
    /// against 60.6), reading 4 pixels a pass, not 7. At σ 4 (σ′ ≈ 2) it is 66.5 dB, every
    /// sample within a code (the exact convolution: 102 dB), and a 9999×9000 photo's blur
    /// takes 0.7× the time; below σ 4 the error grows (photo.jpg's inside: σ 3 two codes,
    /// σ 2 four), so smaller blurs stay exact.
    public func applyingGaussianBlur(sigma: Double) -> Image {
        guard sigma >= 0.16, sigma.isFinite else { return self }
        if sigma >= Self.pyramidThreshold, !extent.isInfinite { return pyramidGaussianBlur(sigma: sigma) }
        let weights = gaussianWeights(sigma: sigma)
        // Vertical first: with tiles wider than tall, the second pass's margin then falls
        // on the long side, so less of the first pass is recomputed between tiles.
        let down = Convolve1D(horizontal: false, weights: weights).apply(to: [self])
        return Convolve1D(horizontal: true, weights: weights).apply(to: [down])
    }

    static let pyramidThreshold = 4.0

    private func pyramidGaussianBlur(sigma: Double) -> Image {
        var k = 2
        while sigma / Double(k * 2) >= 3 { k *= 2 }
        let reach = Int((3 * sigma).rounded(.up))
        let box = PixelRect(covering: extent).outset(dx: reach, dy: reach)
        // Grow the region to whole blocks, centred on the blurred extent.
        let width = (box.width + k - 1) / k * k, height = (box.height + k - 1) / k * k
        let region = PixelRect(x: box.x - (width - box.width) / 2, y: box.y - (height - box.height) / 2, width: width, height: height)
        let small = BoxShrink(factor: k, region: region).apply(to: [self])
        let residual = (sigma * sigma - Double(k * k - 1) / 12).squareRoot() / Double(k)
        let weights = gaussianWeights(sigma: residual)
        let blurred = Convolve1D(horizontal: true, weights: weights).apply(to: [Convolve1D(horizontal: false, weights: weights).apply(to: [small])])
        // Back on the block grid (the region's margin already holds the blur's spread).
        let blurredSmall = CropKernel(rect: small.extent).apply(to: [blurred])
        let smallBox = PixelRect(covering: small.extent)
        let across = Resample1D(over: smallBox, horizontal: true, outputSize: width, origin: region.x, kernel: .cubic(b: 0, c: 0.5)).apply(to: [blurredSmall])
        let up = Resample1D(over: PixelRect(covering: across.extent), horizontal: false, outputSize: height, origin: region.y,
                            kernel: .cubic(b: 0, c: 0.5)).apply(to: [across])
        return up.cropped(to: box.rect)
    }
}
