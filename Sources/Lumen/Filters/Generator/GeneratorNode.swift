/// Computes pixels from position alone, one row at a time. Implementations evaluate at
/// pixel centres (x + 0.5, y + 0.5) and write premultiplied linear values.
protocol PixelGenerator: Sendable {
    var name: String { get }
    /// Canonical parameter text for the node identity.
    var key: String { get }
    var isOpaque: Bool { get }
    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int)
}

/// An image made by a generator; the extent is infinite unless given.
final class GeneratorNode: ImageNode, @unchecked Sendable {
    let generator: PixelGenerator

    init(_ generator: PixelGenerator, extent: Rect = .infinite) {
        self.generator = generator
        super.init(kind: generator.name, parameters: generator.key, extent: extent)
    }

    override var isOpaque: Bool { generator.isOpaque }
    /// Generated masks and gradients are cheap per pixel but shared by every render of a
    /// batch or transition, so they are kept from the first render (when they fit).
    override var cachePolicy: CachePolicy { .always }

    override func render(_ output: Tile, inputs: [Tile]) {
        let r = output.rect
        for y in r.y..<r.maxY { generator.fill(output.row(y), x: r.x, y: y, count: r.width) }
    }
}

/// Linear interpolation of premultiplied working-space colors.
@inline(__always)
func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: Float) -> SIMD4<Float> { a + (b - a) * t }
