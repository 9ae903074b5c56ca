/// A kernel that computes pixels from position alone, one row at a time, with an
/// infinite extent. Implementations evaluate at pixel centres (x + 0.5, y + 0.5) and
/// write premultiplied linear values.
protocol PixelGenerator: ImageKernel {
    var isOpaque: Bool { get }
    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int)
}

extension PixelGenerator {
    func extent(inputs: [Rect]) -> Rect { .infinite }
    func isOpaque(inputs: [Image]) -> Bool { isOpaque }
    /// Generated masks and gradients are cheap per pixel but shared by every render of a
    /// batch or transition, so they are kept from the first render (when they fit).
    var cachePolicy: CachePolicy { .always }

    func render(_ output: Destination, inputs: [Sampler]) {
        output.forEachRow { y, row, count in fill(row, x: output.rect.x, y: y, count: count) }
    }
}
