/// Rewrites a graph before rendering. Lowering (always): user-level scale nodes become
/// two 1-D resample passes. Optimizations: identity filters drop out, consecutive color
/// operations fuse into one pass and adjacent matrices multiply, consecutive affine
/// transforms fold into one, crops merge and move below color operations, and a
/// downscale to ≤ ½ directly over a JPEG decodes at a reduced DCT scale first.
enum GraphOptimizer {
    static func optimize(_ root: ImageNode, outputRect: PixelRect, optimizations: Bool = true) -> ImageNode {
        var memo: [ObjectIdentifier: ImageNode] = [:]
        func rewrite(_ node: ImageNode) -> ImageNode {
            if let done = memo[ObjectIdentifier(node)] { return done }
            let inputs = node.inputs.map(rewrite)
            let changed = zip(inputs, node.inputs).contains { $0 !== $1 }
            var result = changed ? node.replacingInputs(inputs) : node
            if optimizations { result = simplify(result) }
            if let scale = result as? ScaleNode {
                if optimizations, let (below, color) = colorMatricesBelow(scale) {
                    let lowered = below.separablePasses(over: shrinkOnLoad(below))
                    result = ColorNode(lowered, operations: color.operations)
                } else {
                    result = scale.separablePasses(over: optimizations ? shrinkOnLoad(scale) : scale.inputs[0])
                }
            }
            memo[ObjectIdentifier(node)] = result
            return result
        }
        return rewrite(root)
    }

    private static func simplify(_ node: ImageNode) -> ImageNode {
        switch node {
        case let color as ColorNode:
            var operations = color.operations
            var input = color.inputs[0]
            if let below = input as? ColorNode {
                operations = below.operations + operations
                input = below.inputs[0]
            }
            operations = mergingMatrices(operations)
            if operations.isEmpty { return input }
            return ColorNode(input, operations: operations)
        case let affine as AffineNode:
            if affine.transform.isIdentity { return affine.inputs[0] }
            if let below = affine.inputs[0] as? AffineNode {
                let folded = below.transform.concatenating(affine.transform)
                return folded.isIdentity ? below.inputs[0] : AffineNode(below.inputs[0], transform: folded)
            }
            return affine
        case let crop as CropNode:
            let input = crop.inputs[0]
            if let below = input as? CropNode { return CropNode(below.inputs[0], rect: crop.rect.intersection(below.rect)) }
            if crop.rect.contains(input.extent) && !input.extent.isInfinite && PixelRect(covering: input.extent).rect == input.extent { return input }
            if let color = input as? ColorNode {
                // Color operations are per pixel: crop first so less is computed.
                return ColorNode(CropNode(color.inputs[0], rect: crop.rect), operations: color.operations)
            }
            return crop
        default:
            return node
        }
    }

    /// Resampling is linear, and so is a color matrix on opaque pixels, so
    /// scale(matrix(x)) = matrix(scale(x)) exactly: computing the color after the scale
    /// touches fewer pixels and lets the scale reach a JPEG source (shrink-on-load).
    private static func colorMatricesBelow(_ scale: ScaleNode) -> (ScaleNode, ColorNode)? {
        guard let color = scale.inputs[0] as? ColorNode, color.inputs[0].isOpaque,
              color.operations.allSatisfy({ ($0 as? ColorMatrix)?.preservesAlpha == true }) else { return nil }
        return (ScaleNode(color.inputs[0], scaleX: scale.scaleX, scaleY: scale.scaleY, kernel: scale.kernel), color)
    }

    private static func mergingMatrices(_ operations: [ColorOperation]) -> [ColorOperation] {
        var merged: [ColorOperation] = []
        for operation in operations {
            if let matrix = operation as? ColorMatrix, let previous = merged.last as? ColorMatrix {
                merged[merged.count - 1] = previous.followed(by: matrix)
            } else {
                merged.append(operation)
            }
        }
        return merged.filter { ($0 as? ColorMatrix)?.isIdentity != true }
    }

    /// For a shrink to ≤ ½ of a JPEG, decode at 1/2, 1/4 or 1/8 while leaving at least
    /// a factor of 2 for the Lanczos resampler (never more than half the remaining factor).
    private static func shrinkOnLoad(_ scale: ScaleNode) -> ImageNode {
        guard let source = scale.inputs[0] as? SourceNode, source.reduction == 1, source.header.format == .jpeg else {
            return scale.inputs[0]
        }
        let shrink = 1 / max(scale.scaleX, scale.scaleY)
        guard let reduction = [8, 4, 2].first(where: { Double($0) <= shrink / 2 }) else { return source }
        return source.reduced(by: reduction)
    }
}
