import Foundation

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
            .number("radius", default: 10, min: 0, identity: 0, "Standard deviation σ in pixels."),
        ]
    ) { args in try args.image("image").applyingGaussianBlur(sigma: args.number("radius")) }
}

/// A 1-D convolution along x or y with a symmetric kernel of `weights.count` taps
/// centred on the pixel (transparent outside the input). Gaussian blur is two of them.
final class Convolve1DNode: ImageNode, @unchecked Sendable {
    let horizontal: Bool
    let weights: [Float]

    init(_ input: ImageNode, horizontal: Bool, weights: [Float], label: @autoclosure @escaping () -> String) {
        self.horizontal = horizontal
        self.weights = weights
        let reach = Double(weights.count / 2)
        let e = input.extent
        let extent = e.isInfinite ? e : horizontal ? Rect(x: e.x - reach, y: e.y, width: e.width + 2 * reach, height: e.height)
                                                   : Rect(x: e.x, y: e.y - reach, width: e.width, height: e.height + 2 * reach)
        super.init(kind: horizontal ? "convolveX" : "convolveY", parameters: label(), extent: extent, inputs: [input])
    }

    override var cachePolicy: CachePolicy { horizontal ? .whenReused : .never }

    override func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let reach = weights.count / 2
        return horizontal ? rect.outset(dx: reach, dy: 0) : rect.outset(dx: 0, dy: reach)
    }

    override func render(_ output: Tile, inputs: [Tile]) {
        let input = inputs[0], r = output.rect
        let reach = weights.count / 2
        weights.withUnsafeBufferPointer { w in
            if horizontal {
                for y in r.y..<r.maxY {
                    SeparableKernel.convolveRow(UnsafePointer(input.row(y) + (r.x - reach - input.rect.x)), weights: w, into: output.row(y), count: r.width)
                }
            } else {
                for y in r.y..<r.maxY {
                    SeparableKernel.convolveColumns(rowAt: { UnsafePointer(input.row(y - reach + $0) + (r.x - input.rect.x)) }, weights: w,
                                                    into: output.row(y), count: r.width)
                }
            }
        }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode {
        let label = identity.parameters
        return Convolve1DNode(inputs[0], horizontal: horizontal, weights: weights, label: label)
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
    /// Below σ = 12 it is an exact separable convolution reaching ⌈3σ⌉ (cost ∝ σ). From
    /// σ = 12 the cost stops growing: k×k blocks are averaged (k a power of two with
    /// 3 ≤ σ/k < 6), blurred with σ′ = √(σ² − (k² − 1)/12)/k (the box's variance taken
    /// out), and upsampled with Lanczos-3; the extent is still outset by ⌈3σ⌉.
    public func applyingGaussianBlur(sigma: Double) -> Image {
        guard sigma >= 0.16, sigma.isFinite else { return self }
        if sigma >= Self.pyramidThreshold, !extent.isInfinite { return pyramidGaussianBlur(sigma: sigma) }
        let weights = gaussianWeights(sigma: sigma)
        // Vertical first: with tiles wider than tall, the second pass's margin then falls
        // on the long side, so less of the first pass is recomputed between tiles.
        let down = Convolve1DNode(node, horizontal: false, weights: weights, label: "σ=\(sigma)")
        return Image(Convolve1DNode(down, horizontal: true, weights: weights, label: "σ=\(sigma)"))
    }

    static let pyramidThreshold = 12.0

    private func pyramidGaussianBlur(sigma: Double) -> Image {
        var k = 2
        while sigma / Double(k * 2) >= 3 { k *= 2 }
        let reach = Int((3 * sigma).rounded(.up))
        let box = PixelRect(covering: extent).outset(dx: reach, dy: reach)
        // Grow the region to whole blocks, centred on the blurred extent.
        let width = (box.width + k - 1) / k * k, height = (box.height + k - 1) / k * k
        let region = PixelRect(x: box.x - (width - box.width) / 2, y: box.y - (height - box.height) / 2, width: width, height: height)
        let small = Image(BoxShrinkNode(node, factor: k, region: region))
        let residual = (sigma * sigma - Double(k * k - 1) / 12).squareRoot() / Double(k)
        let weights = gaussianWeights(sigma: residual)
        let blurred = Convolve1DNode(Convolve1DNode(small.node, horizontal: false, weights: weights, label: "σ=\(residual)"),
                                     horizontal: true, weights: weights, label: "σ=\(residual)")
        // Back on the block grid (the region's margin already holds the blur's spread).
        let blurredSmall = CropNode(blurred, rect: small.extent)
        let across = Resample1DNode(blurredSmall, horizontal: true, outputSize: width, origin: region.x, kernel: .lanczos3)
        let up = Resample1DNode(across, horizontal: false, outputSize: height, origin: region.y, kernel: .lanczos3)
        return Image(up).cropped(to: box.rect)
    }
}
