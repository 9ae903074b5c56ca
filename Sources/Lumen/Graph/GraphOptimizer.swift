/// Rewrites a graph before rendering. Lowering (always): user-level scale nodes become
/// two 1-D resample passes. Optimizations: identity filters drop out, consecutive color
/// operations fuse into one pass and adjacent matrices multiply, per-channel color
/// operations on an opaque 8-bit file fold into its decode tables, consecutive affine
/// transforms fold into one, crops merge and move below color operations, and a
/// downscale to ≤ ½ directly over a JPEG decodes at a reduced DCT scale first.
enum GraphOptimizer {
    static func optimize(_ root: ImageNode, outputRect: PixelRect, optimizations: Bool = true) -> ImageNode {
        var memo: [ObjectIdentifier: ImageNode] = [:]
        /// Rewrites one node whose inputs are rewritten already.
        func rewrite(_ node: ImageNode) -> ImageNode {
            let inputs = node.inputs.map { memo[ObjectIdentifier($0)] ?? $0 }
            let changed = zip(inputs, node.inputs).contains { $0 !== $1 }
            var result = changed ? node.replacingInputs(inputs) : node
            if optimizations { result = simplify(result) }
            if let scale = result.kernel as? ScaleKernel {
                if optimizations, let (input, color) = colorMatricesBelow(result) {
                    let (source, span) = shrinkOnLoad(input, scale)
                    let lowered = scale.separablePasses(over: source, to: result.pixelExtent, span: span)
                    result = ImageNode(color, inputs: [lowered])
                } else {
                    let (source, span) = optimizations ? shrinkOnLoad(result.inputs[0], scale) : (result.inputs[0], nil)
                    result = scale.separablePasses(over: source, to: result.pixelExtent, span: span)
                }
            }
            return result
        }
        // Inputs before consumers, without recursion: a recipe built in code can be far
        // deeper than a thread's stack allows recursing.
        var stack: [(node: ImageNode, expanded: Bool)] = [(root, false)]
        while let (node, expanded) = stack.popLast() {
            if memo[ObjectIdentifier(node)] != nil { continue }
            if expanded {
                memo[ObjectIdentifier(node)] = rewrite(node)
                continue
            }
            stack.append((node, true))
            for input in node.inputs.reversed() where memo[ObjectIdentifier(input)] == nil { stack.append((input, false)) }
        }
        return memo[ObjectIdentifier(root)] ?? root
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
            if let source = input.kernel as? SourceKernel, let folded = source.folding(operations) {
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

    /// Shrink-on-load, leaving at least a factor of 2 for the Lanczos resampler: for a
    /// shrink to ≤ ½, decode at the largest reduction the file offers (`ImageHeader.reductions`:
    /// a JPEG's 1/2, 1/4, 1/8, a TIFF pyramid's levels); then, for any format, when 8 or
    /// more remains, average k×k blocks of decoded pixels while converting them (k = half
    /// what remains), as vipsthumbnail does. Returns the source and where the picture lies in
    /// its pixels: W/r/k of its columns from the left, H/r/k of its rows ending at the top
    /// (a decoder's partial last row is the bottom one).
    private static func shrinkOnLoad(_ input: ImageNode, _ scale: ScaleKernel) -> (ImageNode, span: ScaleKernel.Span?) {
        guard let source = input.kernel as? SourceKernel, source.reduction == 1, source.blockShrink == 1 else { return (input, nil) }
        var shrink = 1 / max(scale.scaleX, scale.scaleY)
        var reduction = 1
        if let r = source.header.reductions.sorted(by: >).first(where: { Double($0) <= shrink / source.header.reductionMargin }) {
            reduction = r
            shrink /= Double(r)
        }
        let k = shrink >= 8 ? Int(shrink / 2) : 1
        guard reduction > 1 || k > 1 else { return (input, nil) }
        let reduced = source.reduced(by: reduction, blockShrink: k)
        let (w, h) = reduced.decodedSize
        let exact = (Double(source.header.width) / Double(reduction), Double(source.header.height) / Double(reduction))
        // Blocks are laid from the bottom (the working space's origin), so the decoded rows
        // run from 0 to h there, and the picture's rows end at the top one.
        let decodedTop = Double(h)
        let span = ScaleKernel.Span(x: (0, min(exact.0, Double(w)) / Double(k)),
                                    y: ((decodedTop - min(exact.1, Double(h))) / Double(k), min(exact.1, Double(h)) / Double(k)))
        return (ImageNode(reduced), span)
    }
}
