import LumenPlatform

extension FilterDescriptor {
    /// The luma t (clamped 0…1) looks up the gradient image along its horizontal middle
    /// line: colour = gradient at (minX + t·width, midY), bilinear; alpha = α·gradient's α.
    static let colorMap = FilterDescriptor(
        name: "colorMap", coreImageName: "CIColorMap", category: .colorEffect,
        summary: "Maps luminance to the colors of a gradient image.",
        details: "t = clamp(luma); colour = gradientImage at (minX + t·(width − 1) + 0.5, midY); α' = α·gradient α.",
        parameters: [.inputImage, ParameterDescriptor("gradientImage", .image, "A horizontal gradient; its middle row is the map.")]
    ) { args in
        let gradient = try args.image("gradientImage")
        guard !gradient.extent.isInfinite, gradient.extent.width >= 1, gradient.extent.width <= 65536 else {
            throw LumenError.invalidValue(filter: "colorMap", key: "gradientImage", reason: "needs a finite extent 1…65536 pixels wide")
        }
        return ColorMapKernel(gradient: PixelRect(covering: gradient.extent)).apply(to: [try args.image("image"), gradient])
    }
}

/// colorMap's kernel: each pixel's luma looks up the gradient image's middle row.
struct ColorMapKernel: ImageKernel {
    let gradient: PixelRect
    var name: String { "colorMap" }

    func extent(inputs: [Rect]) -> Rect { inputs[0] }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { index == 1 ? gradient : rect }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x, gradient = gradient
        let midY = Double(gradient.y) + Double(gradient.height) / 2
        destination.forEachRow { y, row, count in
            let a = inputs[0].row(y, from: x)
            for i in 0..<count {
                let p = a[i]
                guard p.w > 0 else { row[i] = .zero; continue }
                let t = Double(min(1, max(0, (p * lumaWeights).sum() / p.w)))
                let g = inputs[1].sample(at: SIMD2(Double(gradient.x) + 0.5 + t * Double(gradient.width - 1), midY))
                row[i] = g * p.w
            }
        }
    }
}
