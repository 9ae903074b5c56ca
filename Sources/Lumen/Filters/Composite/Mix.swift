import LumenPlatform

extension FilterDescriptor {
    /// out = background + amount·(image − background), premultiplied: amount 1 is the
    /// image, 0 the background.
    static let mix = FilterDescriptor(
        name: "mix", coreImageName: "CIMix", category: .compositeOperation,
        summary: "Blends the image with a background by an amount.",
        details: "out = mix(background, image, amount) on premultiplied linear values; extent = union.",
        parameters: [.inputImage, .backgroundImage, .number("amount", default: 1, min: -10, max: 10, "1 the image, 0 the background.")]
    ) { args in
        MixKernel(amount: Float(args.number("amount"))).apply(to: [try args.image("image"), try args.image("backgroundImage")])
    }
}

/// mix's kernel: `image` over `backgroundImage` by `amount`, over the union of their extents.
struct MixKernel: ImageKernel {
    let amount: Float
    var name: String { "mix" }

    func extent(inputs: [Rect]) -> Rect { inputs[0].union(inputs[1]) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x, amount = amount
        destination.forEachRow { y, row, count in
            let a = inputs[0].row(y, from: x), b = inputs[1].row(y, from: x)
            for i in 0..<count { row[i] = b[i] + (a[i] - b[i]) * amount }
        }
    }
}
