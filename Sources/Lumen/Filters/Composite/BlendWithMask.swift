extension FilterDescriptor {
    /// out = S·m + D·(1 − m) with m = the mask's green channel clamped to [0, 1]
    /// (premultiplied, linear); extent = D ∪ (S ∩ M).
    static let blendWithMask = FilterDescriptor(
        name: "blendWithMask", coreImageName: "CIBlendWithMask", category: .stylize,
        summary: "Shows the image where the mask is white and the background where it is black.",
        details: "out = S·m + D·(1 − m), m = mask green (linear) clamped to 0…1; extent = D ∪ (S ∩ M).",
        parameters: [.inputImage, .optionalBackgroundImage, ParameterDescriptor("maskImage", .image, "The mask; its green channel selects.")]
    ) { args in try blend(args, channel: 1) }

    static let blendWithAlphaMask = blendVariant("blendWithAlphaMask", "CIBlendWithAlphaMask", channel: 3, channelName: "alpha")
    static let blendWithRedMask = blendVariant("blendWithRedMask", "CIBlendWithRedMask", channel: 0, channelName: "red")
    static let blendWithBlueMask = blendVariant("blendWithBlueMask", "CIBlendWithBlueMask", channel: 2, channelName: "blue")

    /// blendWithMask reading another channel of the mask.
    private static func blendVariant(_ name: String, _ coreImageName: String, channel: Int, channelName: String) -> FilterDescriptor {
        FilterDescriptor(
            name: name, coreImageName: coreImageName, category: .stylize,
            summary: "Like blendWithMask, reading the mask's \(channelName) channel.",
            details: "out = S·m + D·(1 − m), m = mask \(channelName) clamped to 0…1.",
            parameters: [.inputImage, .optionalBackgroundImage, ParameterDescriptor("maskImage", .image, "The mask; its \(channelName) channel selects.")]
        ) { args in try blend(args, channel: channel) }
    }

    private static func blend(_ args: FilterArguments, channel: Int) throws -> Image {
        Image(BlendWithMaskNode(source: try args.image("image").node, background: try args.image("backgroundImage").node,
                                mask: try args.image("maskImage").node, channel: channel))
    }
}

/// Lerps premultiplied source and background by one channel of a mask.
final class BlendWithMaskNode: ImageNode, @unchecked Sendable {
    let channel: Int

    init(source: ImageNode, background: ImageNode, mask: ImageNode, channel: Int) {
        self.channel = channel
        let extent = background.extent.union(source.extent.intersection(mask.extent))
        super.init(kind: ["blendWithRedMask", "blendWithMask", "blendWithBlueMask", "blendWithAlphaMask"][channel],
                   extent: extent, inputs: [source, background, mask])
    }

    override var isOpaque: Bool { inputs[0].isOpaque && inputs[1].isOpaque && inputs[0].extent == inputs[1].extent }

    override func render(_ output: Tile, inputs: [Tile]) {
        let r = output.rect
        let channel = self.channel
        for y in r.y..<r.maxY {
            let s = inputs[0].row(y), d = inputs[1].row(y), m = inputs[2].row(y), out = output.row(y)
            for i in 0..<r.width {
                let k = min(max(m[i][channel], 0), 1)
                out[i] = d[i] + (s[i] - d[i]) * k
            }
        }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode {
        BlendWithMaskNode(source: inputs[0], background: inputs[1], mask: inputs[2], channel: channel)
    }
}
