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
final class CropNode: ImageNode, @unchecked Sendable {
    let rect: Rect

    init(_ input: ImageNode, rect: Rect) {
        self.rect = rect
        super.init(kind: "crop", parameters: rect.description, extent: input.extent.intersection(rect), inputs: [input])
    }

    override var isOpaque: Bool { inputs[0].isOpaque }

    override func render(_ output: Tile, inputs: [Tile]) { output.copy(from: inputs[0]) }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode { CropNode(inputs[0], rect: rect) }
}

extension Image {
    /// The part of the image inside `rect` (edges rounded to whole pixels).
    public func cropped(to rect: Rect) -> Image {
        if rect.isInfinite || rect.contains(extent) && !extent.isInfinite && PixelRect(covering: extent).rect == extent { return self }
        let rounded = rect.isInfinite ? rect : Rect(x: rect.minX.rounded(), y: rect.minY.rounded(),
                                                     width: rect.maxX.rounded() - rect.minX.rounded(),
                                                     height: rect.maxY.rounded() - rect.minY.rounded())
        if let crop = node as? CropNode { return Image(CropNode(crop.inputs[0], rect: rounded.intersection(crop.rect))) }
        return Image(CropNode(node, rect: rounded))
    }
}
