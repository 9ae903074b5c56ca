/// A per-pixel operation of a source (foreground) over a background, both premultiplied.
protocol CompositeOperation: Sendable {
    /// The Core Image-style name for the node (`sourceOver`).
    var name: String { get }
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

/// Two images combined pixel by pixel (Porter–Duff operators and blend modes).
final class CompositeNode: ImageNode, @unchecked Sendable {
    let operation: CompositeOperation

    init(source: ImageNode, background: ImageNode, operation: CompositeOperation) {
        self.operation = operation
        super.init(kind: operation.name, extent: operation.extent(source: source.extent, background: background.extent),
                   inputs: [source, background])
    }

    override var isOpaque: Bool {
        operation.isOpaqueOverOpaqueBackground && inputs[1].isOpaque && inputs[1].extent.contains(inputs[0].extent)
    }

    override func render(_ output: Tile, inputs: [Tile]) {
        let r = output.rect
        for y in r.y..<r.maxY {
            operation.apply(source: inputs[0].row(y), background: inputs[1].row(y), into: output.row(y), count: r.width)
        }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode {
        CompositeNode(source: inputs[0], background: inputs[1], operation: operation)
    }
}
