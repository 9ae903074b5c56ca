import LumenPlatform

extension FilterDescriptor {
    /// Scales by (scale·aspectRatio, scale) keeping maxima (macOS 15's
    /// CIMaximumScaleTransform): each output pixel covers a box of the input, and takes per
    /// channel the maximum of the premultiplied input pixels that box touches — a thin
    /// bright line or a sparse mask survives a downscale instead of fading. Scaling up, a
    /// box lies inside one pixel: nearest neighbour. The output box is the scaled extent
    /// rounded as lanczosScale rounds it.
    static let maximumScaleTransform = FilterDescriptor(
        name: "maximumScaleTransform", coreImageName: "CIMaximumScaleTransform", category: .geometryAdjustment,
        summary: "Scales an image keeping the maximum of the pixels each output pixel covers.",
        details: "out(X, Y) = max over input pixels touching [X/sx, (X+1)/sx) × [Y/sy, (Y+1)/sy), sx = scale·aspectRatio, sy = scale.",
        parameters: [
            .inputImage,
            .number("scale", default: 1, min: 1e-6, max: 1e6, identity: 1, "Scale of the height."),
            .number("aspectRatio", default: 1, min: 1e-6, max: 1e6, identity: 1, "Extra scale of the width."),
        ]
    ) { args in
        let image = try args.image("image"), scale = args.number("scale"), aspect = args.number("aspectRatio")
        if scale == 1 && aspect == 1 { return image }
        guard !image.extent.isInfinite else {
            throw LumenError.invalidValue(filter: "maximumScaleTransform", key: "image", reason: "needs a finite extent (crop it first)")
        }
        try ScaleKernel.checkSize(of: image.extent, scaleX: scale * aspect, scaleY: scale, filter: "maximumScaleTransform")
        let box = PixelRect(covering: image.extent)
        guard !box.isEmpty else { return .empty }
        return MaximumScale(input: box, output: ScaleKernel.outputBox(box, scale * aspect, scale)).apply(to: [image])
    }
}

/// The input box `input` scaled onto `output`, each output pixel the per-channel maximum
/// of the input pixels its footprint touches.
struct MaximumScale: ImageKernel {
    let input: PixelRect, output: PixelRect
    var name: String { "maximumScaleTransform" }
    var cachePolicy: CachePolicy { .whenReused }

    func extent(inputs: [Rect]) -> Rect { output.rect }

    /// Input pixels touched by output columns x0..<x1 along one axis.
    private static func span(_ x0: Int, _ x1: Int, from: Int, _ count: Int, to: Int, _ outCount: Int) -> (Int, Int) {
        let ratio = Double(count) / Double(outCount)
        let u0 = Double(x0 - to) * ratio, u1 = Double(x1 - to) * ratio
        let first = max(0, Int(u0.rounded(.down))), last = min(count, max(first + 1, Int(u1.rounded(.up))))
        return (from + first, from + last)
    }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let r = rect.intersection(output)
        guard !r.isEmpty else { return .empty }
        let (x0, x1) = Self.span(r.x, r.maxX, from: input.x, input.width, to: output.x, output.width)
        let (y0, y1) = Self.span(r.y, r.maxY, from: input.y, input.height, to: output.y, output.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect.intersection(output), source = inputs[0]
        guard !r.isEmpty else { return }
        let columns = (r.x..<r.maxX).map { Self.span($0, $0 + 1, from: input.x, input.width, to: output.x, output.width) }
        for y in r.y..<r.maxY {
            let (y0, y1) = Self.span(y, y + 1, from: input.y, input.height, to: output.y, output.height)
            let out = destination.row(y) + (r.x - destination.rect.x)
            for (i, (x0, x1)) in columns.enumerated() {
                var m = SIMD4<Float>(repeating: -.infinity)
                for v in y0..<y1 {
                    let row = source.row(v, from: x0)
                    for k in 0..<(x1 - x0) { m = lanewiseMax(m, row[k]) }
                }
                out[i] = m
            }
        }
    }
}
