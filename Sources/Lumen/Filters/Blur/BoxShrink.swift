import CKernels

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
        var rows = [UnsafePointer<SIMD4<Float>>](repeating: input.row(region.y + r.y * k, from: region.x + r.x * k), count: k)
        for y in r.y..<r.maxY {
            for row in 0..<k { rows[row] = input.row(region.y + y * k + row, from: region.x + r.x * k) }
            Self.shrinkRow(rows, factor: k, into: output.row(y), count: r.width)
            if keepsPixels { roundToHalves(output.row(y), count: r.width) }
        }
    }

    /// `count` averages of `factor`×`factor` blocks, from `factor` rows of input: each
    /// row's pixels added in order to zero, the rows' sums in order, then scaled. Above the
    /// baseline `CKernels_shrinkBlocks` does the same operations (two blocks a register for
    /// k = 2, the σ 8 blur's: 73 M of I3's 621 M instructions were this Swift loop).
    static func shrinkRow(_ rows: [UnsafePointer<SIMD4<Float>>], factor k: Int, into out: UnsafeMutablePointer<SIMD4<Float>>,
                          count: Int, level: InstructionSet = .current) {
        let scale = 1 / Float(k * k)
        if level > .baseline {
            return rows.withUnsafeBufferPointer { pointers in
                pointers.withMemoryRebound(to: UnsafePointer<Float>?.self) { rowFloats in
                    out.withMemoryRebound(to: Float.self, capacity: 4 * count) { o in
                        CKernels_shrinkBlocks(level.cLevel, rowFloats.baseAddress!, k, scale, o, count)
                    }
                }
            }
        }
        out.update(repeating: .zero, count: count)
        for source in rows {
            for i in 0..<count {
                var sum = SIMD4<Float>.zero
                for c in 0..<k { sum += source[i * k + c] }
                out[i] += sum
            }
        }
        for i in 0..<count { out[i] *= scale }
    }
}

extension BoxShrink: GeometricKernel {}

/// The blur's averaged blocks are blurred again over dozens of them: half floats keep them
/// closely enough, in half the memory (the large scale's blocks, read once, stay Float32).
extension BoxShrink: KeptAsHalfFloats {
    var keptAsHalfFloats: Bool { keepsPixels }
}
