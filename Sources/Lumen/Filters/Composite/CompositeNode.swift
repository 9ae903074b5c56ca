/// A per-pixel operation of a source (foreground) over a background, both premultiplied;
/// the node's kernel. Its stored values are its identity.
protocol CompositeOperation: ImageKernel {
    func apply(source: UnsafePointer<SIMD4<Float>>, background: UnsafePointer<SIMD4<Float>>,
               into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int)
    /// The output extent for the inputs' extents (default: their union).
    func extent(source: Rect, background: Rect) -> Rect
    /// True when an opaque background that covers the source gives an opaque result.
    var isOpaqueOverOpaqueBackground: Bool { get }
}

extension CompositeOperation {
    func extent(source: Rect, background: Rect) -> Rect { source.union(background) }
    var isOpaqueOverOpaqueBackground: Bool { false }
}

/// Two images combined pixel by pixel (Porter–Duff operators and blend modes): inputs
/// are the source and the background.
extension CompositeOperation {
    func extent(inputs: [Rect]) -> Rect { extent(source: inputs[0], background: inputs[1]) }

    func isOpaque(inputs: [Image]) -> Bool {
        isOpaqueOverOpaqueBackground && inputs[1].isOpaque && inputs[1].extent.contains(inputs[0].extent)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect
        for y in r.y..<r.maxY {
            apply(source: inputs[0].row(y, from: r.x), background: inputs[1].row(y, from: r.x), into: output.row(y), count: r.width)
        }
    }
}
