/// A per-pixel color operation on unpremultiplied linear RGBA, applied to a row at a
/// time (one dynamic call per row, not per pixel).
protocol ColorOperation: Sendable {
    /// The operation's name in graph listings (`colorMatrix`).
    var name: String { get }
    /// Canonical parameter text for the node identity.
    var key: String { get }
    /// True when alpha is unchanged.
    var preservesAlpha: Bool { get }
    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int)
}

extension ColorOperation {
    var preservesAlpha: Bool { true }
}

/// A chain of color operations over one input, computed in a single pass per row:
/// unpremultiply, apply each operation, premultiply. Consecutive color filters fuse
/// into one node when rendering, and adjacent matrices multiply into one.
final class ColorNode: ImageNode, @unchecked Sendable {
    let operations: [ColorOperation]

    init(_ input: ImageNode, operations: [ColorOperation]) {
        self.operations = operations
        super.init(kind: operations.count == 1 ? operations[0].name : "color",
                   parameters: operations.map { operations.count == 1 ? $0.key : "\($0.name)(\($0.key))" }.joined(separator: "; "),
                   extent: input.extent, inputs: [input])
    }

    override var isOpaque: Bool { inputs[0].isOpaque && operations.allSatisfy(\.preservesAlpha) }

    override func render(_ output: Tile, inputs: [Tile]) {
        output.copy(from: inputs[0])
        let r = output.rect
        for y in r.y..<r.maxY {
            let row = output.row(y)
            for i in 0..<r.width {
                let p = row[i]
                row[i] = p.w > 0 ? SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w) : SIMD4(0, 0, 0, p.w)
            }
            for operation in operations { operation.apply(row, count: r.width) }
            for i in 0..<r.width {
                let p = row[i]
                row[i] = SIMD4(p.x * p.w, p.y * p.w, p.z * p.w, p.w)
            }
        }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode { ColorNode(inputs[0], operations: operations) }
}

extension Image {
    /// Applies color operations (fused with a color node below, if any, at render time).
    func applyingColor(_ operation: ColorOperation) -> Image {
        Image(ColorNode(node, operations: [operation]))
    }
}

/// Rec. 709 luma weights for linear RGB.
let lumaWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)
