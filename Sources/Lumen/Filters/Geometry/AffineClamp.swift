extension FilterDescriptor {
    static let affineClamp = FilterDescriptor(
        name: "affineClamp", coreImageName: "CIAffineClamp", category: .tileEffect,
        summary: "Transforms the image, then extends its edge pixels outward forever.",
        details: "Output extent is infinite: each pixel outside takes the value of the nearest edge pixel.",
        parameters: [
            .inputImage,
            ParameterDescriptor("transform", .transform, default: .transform(.identity), "Transform applied before clamping."),
        ]
    ) { args in try args.image("image").transformed(by: args.transform("transform")).clampedToExtent() }
}

/// Extends the edge pixels of a finite input outward forever (infinite extent).
final class ClampNode: ImageNode, @unchecked Sendable {
    private let box: PixelRect

    init(_ input: ImageNode) {
        box = input.pixelExtent
        super.init(kind: "clamp", extent: .infinite, inputs: [input])
    }

    override var isOpaque: Bool { inputs[0].isOpaque }

    override func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let x0 = min(max(rect.x, box.x), box.maxX - 1), x1 = min(max(rect.maxX - 1, box.x), box.maxX - 1)
        let y0 = min(max(rect.y, box.y), box.maxY - 1), y1 = min(max(rect.maxY - 1, box.y), box.maxY - 1)
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    override func render(_ output: Tile, inputs: [Tile]) {
        let input = inputs[0], r = output.rect
        let inner = r.intersection(box)
        for y in r.y..<r.maxY {
            let sy = min(max(y, box.y), box.maxY - 1)
            let out = output.row(y)
            let source = input.row(sy)
            if !inner.isEmpty {
                (out + (inner.x - r.x)).update(from: source + (inner.x - input.rect.x), count: inner.width)
                let left = source[inner.x - input.rect.x], right = source[inner.maxX - 1 - input.rect.x]
                for i in 0..<(inner.x - r.x) { out[i] = left }
                for i in (inner.maxX - r.x)..<r.width { out[i] = right }
            } else {
                for i in 0..<r.width {
                    let sx = min(max(r.x + i, box.x), box.maxX - 1)
                    out[i] = source[sx - input.rect.x]
                }
            }
        }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode { ClampNode(inputs[0]) }
}

extension Image {
    /// The image with its edge pixels repeated outward forever (infinite extent).
    public func clampedToExtent() -> Image {
        guard !extent.isInfinite, !extent.isEmpty else { return self }
        return Image(ClampNode(node))
    }
}
