/// A per-pixel color operation on unpremultiplied linear RGBA, applied to a row at a
/// time (one dynamic call per row, not per pixel). Its stored values are its identity.
protocol ColorOperation: Hashable, Sendable {
    /// The operation's name in graph listings (`colorMatrix`).
    var name: String { get }
    /// True when alpha is unchanged.
    var preservesAlpha: Bool { get }
    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int)
}

extension ColorOperation {
    var preservesAlpha: Bool { true }

    func isEqual(to other: any ColorOperation) -> Bool { (other as? Self) == self }
}

/// A chain of color operations over one input, computed in a single pass per row:
/// unpremultiply, apply each operation, premultiply. Consecutive color filters fuse
/// into one kernel when rendering, and adjacent matrices multiply into one.
struct ColorOperations: ImageKernel {
    let operations: [any ColorOperation]

    var name: String { operations.count == 1 ? operations[0].name : "color" }

    /// Equal when the operations are, one by one (each by its own values).
    static func == (l: Self, r: Self) -> Bool {
        l.operations.count == r.operations.count && zip(l.operations, r.operations).allSatisfy { $0.isEqual(to: $1) }
    }

    func hash(into hasher: inout Hasher) {
        for operation in operations {
            hasher.combine(ObjectIdentifier(type(of: operation)))
            hasher.combine(operation)
        }
    }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque && operations.allSatisfy(\.preservesAlpha) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        destination.copy(from: inputs[0])
        destination.forEachRow { _, row, count in
            for i in 0..<count {
                let p = row[i]
                row[i] = p.w > 0 ? SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w) : SIMD4(0, 0, 0, p.w)
            }
            for operation in operations { operation.apply(row, count: count) }
            for i in 0..<count {
                let p = row[i]
                row[i] = SIMD4(p.x * p.w, p.y * p.w, p.z * p.w, p.w)
            }
        }
    }
}

extension Image {
    /// Applies color operations (fused with a color kernel below, if any, at render time).
    func applyingColor(_ operation: any ColorOperation) -> Image {
        ColorOperations(operations: [operation]).apply(to: [self])
    }
}

/// Rec. 709 luma weights for linear RGB.
let lumaWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)
