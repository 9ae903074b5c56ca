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
        BlendWithMaskKernel(channel: channel).apply(to: [try args.image("image"), try args.image("backgroundImage"), try args.image("maskImage")])
    }
}

/// Lerps premultiplied source and background by one channel of a mask.
struct BlendWithMaskKernel: ImageKernel {
    /// The mask channel that selects: 0 red, 1 green, 2 blue, 3 alpha.
    let channel: Int

    var name: String { ["blendWithRedMask", "blendWithMask", "blendWithBlueMask", "blendWithAlphaMask"][channel] }

    /// Source, background, mask.
    func extent(inputs: [Rect]) -> Rect { inputs[1].union(inputs[0].intersection(inputs[2])) }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque && inputs[1].isOpaque && inputs[0].extent == inputs[1].extent }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect
        let channel = self.channel
        for y in r.y..<r.maxY {
            let s = inputs[0].row(y, from: r.x), d = inputs[1].row(y, from: r.x), m = inputs[2].row(y, from: r.x), out = output.row(y)
            for i in 0..<r.width {
                let k = min(max(m[i][channel], 0), 1)
                out[i] = d[i] + (s[i] - d[i]) * k
            }
        }
    }
}
