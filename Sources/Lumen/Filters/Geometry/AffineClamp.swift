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
struct ClampKernel: ImageKernel {
    /// The pixels whose edges repeat.
    let box: PixelRect

    var name: String { "clamp" }
    func extent(inputs: [Rect]) -> Rect { .infinite }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let x0 = min(max(rect.x, box.x), box.maxX - 1), x1 = min(max(rect.maxX - 1, box.x), box.maxX - 1)
        let y0 = min(max(rect.y, box.y), box.maxY - 1), y1 = min(max(rect.maxY - 1, box.y), box.maxY - 1)
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
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
}

extension Image {
    /// The image with its edge pixels repeated outward forever (infinite extent).
    public func clampedToExtent() -> Image {
        guard !extent.isInfinite, !extent.isEmpty else { return self }
        return ClampKernel(box: PixelRect(covering: extent)).apply(to: [self])
    }
}

extension ClampKernel: GeometricKernel {}
