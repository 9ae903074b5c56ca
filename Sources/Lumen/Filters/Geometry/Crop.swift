extension FilterDescriptor {
    /// Keeps the pixels inside a rectangle. The rectangle's edges round to whole pixels
    /// (a pixel is kept when its centre is inside); output extent = input extent ∩ rect.
    static let crop = FilterDescriptor(
        name: "crop", coreImageName: "CICrop", category: .geometryAdjustment,
        summary: "Keeps the part of the image inside a rectangle.",
        details: "Output extent = input extent ∩ rectangle, edges rounded to whole pixels.",
        parameters: [
            .inputImage,
            ParameterDescriptor("rectangle", .rectangle, default: .vector([Rect.infinite.x, Rect.infinite.y, Rect.infinite.width, Rect.infinite.height]),
                                "The rectangle [x, y, width, height] to keep, in pixels."),
        ]
    ) { args in try args.image("image").cropped(to: args.rect("rectangle")) }
}

/// Pixels of the input inside `rect`, transparent outside.
struct CropKernel: ImageKernel {
    let rect: Rect

    var name: String { "crop" }
    func extent(inputs: [Rect]) -> Rect { inputs[0].intersection(rect) }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func render(_ output: Destination, inputs: [Sampler]) { output.copy(from: inputs[0]) }
}

extension Image {
    /// The part of the image inside `rect` (edges rounded to whole pixels).
    public func cropped(to rect: Rect) -> Image {
        if rect.isInfinite || rect.contains(extent) && !extent.isInfinite && PixelRect(covering: extent).rect == extent { return self }
        let rounded = rect.isInfinite ? rect : Rect(x: rect.minX.rounded(), y: rect.minY.rounded(),
                                                     width: rect.maxX.rounded() - rect.minX.rounded(),
                                                     height: rect.maxY.rounded() - rect.minY.rounded())
        if let crop = node.kernel as? CropKernel { return CropKernel(rect: rounded.intersection(crop.rect)).apply(to: [Image(node.inputs[0])]) }
        return CropKernel(rect: rounded).apply(to: [self])
    }
}

extension CropKernel: GeometricKernel {}
