import LumenPlatform

extension FilterDescriptor {
    /// Core Image's `clamped(to:)`: every pixel reads the nearest pixel of the rectangle
    /// (the rectangle's edges extend to infinity).
    static let clamp = FilterDescriptor(
        name: "clamp", coreImageName: "CIClamp", category: .tileEffect,
        summary: "Extends the edge pixels of a rectangle to infinity.",
        details: "out(x, y) = in(clamp(x, left, right − 1), clamp(y, bottom, top − 1)) in whole pixels; infinite extent.",
        parameters: [.inputImage, .reductionExtent]
    ) { args in
        let rect = PixelRect(covering: args.rect("extent"))
        guard !rect.isEmpty else { return .empty }
        return ClampToRect(rect: rect).apply(to: [try args.image("image")])
    }
}

/// Reads the nearest pixel of `rect`.
struct ClampToRect: ImageKernel {
    let rect: PixelRect
    var name: String { "clamp" }
    func extent(inputs: [Rect]) -> Rect { .infinite }

    func regionOfInterest(for r: PixelRect, input index: Int) -> PixelRect {
        let x0 = min(max(r.x, rect.x), rect.maxX - 1), x1 = min(max(r.maxX - 1, rect.x), rect.maxX - 1)
        let y0 = min(max(r.y, rect.y), rect.maxY - 1), y1 = min(max(r.maxY - 1, rect.y), rect.maxY - 1)
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect
        for y in r.y..<r.maxY {
            let row = inputs[0].row(min(max(y, rect.y), rect.maxY - 1))
            let source = inputs[0].rect.x
            let out = destination.row(y)
            for i in 0..<r.width { out[i] = row[min(max(r.x + i, rect.x), rect.maxX - 1) - source] }
        }
    }
}

extension ClampToRect: GeometricKernel {}
