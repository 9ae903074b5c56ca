/// A per-pixel color operation on unpremultiplied linear RGBA, applied to a row at a
/// time (one dynamic call per row, not per pixel). Its stored values are its identity.
protocol ColorOperation: Hashable, Sendable {
    /// The operation's name in graph listings (`colorMatrix`).
    var name: String { get }
    /// True when alpha is unchanged.
    var preservesAlpha: Bool { get }
    /// True when each of red, green and blue out depends only on the same channel in
    /// (and alpha is unchanged): the operation is then a table per channel.
    var isChannelSeparable: Bool { get }
    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int)
}

extension ColorOperation {
    var preservesAlpha: Bool { true }
    var isChannelSeparable: Bool { false }

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
        let input = inputs[0], x = destination.rect.x
        destination.forEachRow { y, row, count in
            let source = input.row(y, from: x)
            // Unpremultiply while copying; opaque pixels (most photos) need no division.
            for i in 0..<count {
                let p = source[i]
                if p.w == 1 { row[i] = p; continue }
                let k: Float = p.w > 0 ? 1 / p.w : 0
                row[i] = SIMD4(p.x * k, p.y * k, p.z * k, p.w)
            }
            for operation in operations { operation.apply(row, count: count) }
            for i in 0..<count {
                let p = row[i]
                if p.w == 1 { continue }
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
