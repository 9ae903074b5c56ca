/// Averages k×k blocks of a region whose size is a multiple of k: output pixel (i, j) is
/// the mean of input block [x0 + i·k, x0 + (i+1)·k) × [y0 + j·k, y0 + (j+1)·k). The first
/// stage of the large-radius Gaussian blur.
struct BoxShrink: ImageKernel {
    let factor: Int
    /// The input region being shrunk (a multiple of `factor` in both sizes).
    let region: PixelRect
    /// Keep the (small) result in the cache from its first render, rounded to half floats
    /// (`KeptAsHalfFloats`): the large-blur pyramid reads it from every output tile; a
    /// large scale reads it once.
    var keepsPixels = true

    var name: String { "boxShrink" }

    func extent(inputs: [Rect]) -> Rect {
        Rect(x: 0, y: 0, width: Double(region.width / factor), height: Double(region.height / factor))
    }

    var cachePolicy: CachePolicy { keepsPixels ? .always : .never }

    /// Small tiles, so each reads about a 256×128 block of input.
    var preferredTileSize: (width: Int, height: Int)? { (max(1, 256 / factor), max(1, 128 / factor)) }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        PixelRect(x: region.x + rect.x * factor, y: region.y + rect.y * factor, width: rect.width * factor, height: rect.height * factor)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect, k = factor
        let scale = 1 / Float(k * k)
        for y in r.y..<r.maxY {
            let out = output.row(y)
            out.update(repeating: .zero, count: r.width)
            for row in 0..<k {
                let source = input.row(region.y + y * k + row, from: region.x + r.x * k)
                for i in 0..<r.width {
                    var sum = SIMD4<Float>.zero
                    for c in 0..<k { sum += source[i * k + c] }
                    out[i] += sum
                }
            }
            for i in 0..<r.width { out[i] *= scale }
            if keepsPixels { roundToHalves(out, count: r.width) }
        }
    }
}

extension BoxShrink: GeometricKernel {}

/// The blur's averaged blocks are blurred again over dozens of them: half floats keep them
/// closely enough, in half the memory (the large scale's blocks, read once, stay Float32).
extension BoxShrink: KeptAsHalfFloats {
    var keptAsHalfFloats: Bool { keepsPixels }
}
