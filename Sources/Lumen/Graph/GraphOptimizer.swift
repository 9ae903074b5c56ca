/// Rewrites a graph before rendering. Lowering (always): user-level scale nodes become
/// two 1-D resample passes. Optimizations: identity filters drop out, consecutive color
/// operations fuse into one pass and adjacent matrices multiply, per-channel color
/// operations on an opaque 8-bit file fold into its decode tables, consecutive affine
/// transforms fold into one, crops merge and move below color operations, and a
/// downscale to ≤ ½ directly over a JPEG decodes at a reduced DCT scale first.
enum GraphOptimizer {
    static func optimize(_ root: ImageNode, outputRect: PixelRect, optimizations: Bool = true,
                         shrinkOnLoadMargin: Double? = nil) -> ImageNode {
        root.rewritten { node, _ in  // over its rewritten inputs already
            var result = node
            if optimizations { result = simplify(result) }
            if let scale = result.kernel as? ScaleKernel {
                if optimizations, let (input, color) = colorMatricesBelow(result) {
                    let (source, span) = shrinkOnLoad(input, scale, margin: shrinkOnLoadMargin)
                    let lowered = scale.separablePasses(over: source, to: result.pixelExtent, span: span)
                    result = ImageNode(color, inputs: [lowered])
                } else {
                    let (source, span) = optimizations ? shrinkOnLoad(result.inputs[0], scale, margin: shrinkOnLoadMargin) : (result.inputs[0], nil)
                    result = scale.separablePasses(over: source, to: result.pixelExtent, span: span)
                }
            }
            return result
        }
    }

    private static func simplify(_ node: ImageNode) -> ImageNode {
        switch node.kernel {
        case let color as ColorOperations:
            var operations = color.operations
            var input = node.inputs[0]
            if let below = input.kernel as? ColorOperations {
                operations = below.operations + operations
                input = input.inputs[0]
            }
            operations = mergingMatrices(operations)
            if operations.isEmpty { return input }
            if let source = input.kernel as? any RowSource, let folded = source.folding(operations) {
                return ImageNode(folded)  // per-channel operations on an opaque 8-bit file: decode tables
            }
            return ImageNode(ColorOperations(operations: operations), inputs: [input])
        case is NearestSampling:
            return node.inputs[0]  // a marker for transforms built on it; on its own the identity
        case let affine as AffineKernel:
            if affine.transform.isIdentity { return node.inputs[0] }
            if let below = node.inputs[0].kernel as? AffineKernel, below.nearest == affine.nearest {
                let folded = below.transform.concatenating(affine.transform)
                let input = node.inputs[0].inputs[0]
                return folded.isIdentity ? input : ImageNode(AffineKernel(folded, nearest: affine.nearest), inputs: [input])
            }
            return node
        case let crop as CropKernel:
            let input = node.inputs[0]
            if let below = input.kernel as? CropKernel {
                return ImageNode(CropKernel(rect: crop.rect.intersection(below.rect)), inputs: [input.inputs[0]])
            }
            if crop.rect.contains(input.extent) && !input.extent.isInfinite && PixelRect(covering: input.extent).rect == input.extent { return input }
            if let color = input.kernel as? ColorOperations {
                // Color operations are per pixel: crop first so less is computed.
                return ImageNode(color, inputs: [ImageNode(crop, inputs: [input.inputs[0]])])
            }
            return node
        default:
            return node
        }
    }

    /// Resampling is linear, and so is a color matrix on opaque pixels, so
    /// scale(matrix(x)) = matrix(scale(x)) exactly: computing the color after the scale
    /// touches fewer pixels and lets the scale reach a JPEG source (shrink-on-load).
    /// Returns the matrices' input and the color kernel to apply after the scale.
    private static func colorMatricesBelow(_ scale: ImageNode) -> (ImageNode, ColorOperations)? {
        let below = scale.inputs[0]
        guard let color = below.kernel as? ColorOperations, below.inputs[0].isOpaque,
              color.operations.allSatisfy({ ($0 as? ColorMatrix)?.preservesAlpha == true }) else { return nil }
        return (below.inputs[0], color)
    }

    private static func mergingMatrices(_ operations: [any ColorOperation]) -> [any ColorOperation] {
        var merged: [any ColorOperation] = []
        for operation in operations {
            if let matrix = operation as? ColorMatrix, let previous = merged.last as? ColorMatrix {
                merged[merged.count - 1] = previous.followed(by: matrix)
            } else {
                merged.append(operation)
            }
        }
        return merged.filter { ($0 as? ColorMatrix)?.isIdentity != true }
    }

    /// Shrink-on-load: the source decoded smaller (`RowSource.shrunkOnLoad`), and where
    /// the picture lies in its pixels.
    private static func shrinkOnLoad(_ input: ImageNode, _ scale: ScaleKernel, margin: Double?) -> (ImageNode, span: ScaleKernel.Span?) {
        guard let source = input.kernel as? any RowSource, let (reduced, span) = source.shrunkOnLoad(for: scale, margin: margin) else {
            return (input, nil)
        }
        return (ImageNode(reduced), span)
    }
}
