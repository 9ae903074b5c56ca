extension FilterDescriptor {
    /// alpha' = Rec. 709 luma of the premultiplied colour (linear), rgb' = alpha'
    /// (white, premultiplied): a grey mask becomes a white image of that opacity.
    static let maskToAlpha = FilterDescriptor(
        name: "maskToAlpha", coreImageName: "CIMaskToAlpha", category: .colorEffect,
        summary: "Turns a grayscale mask into a white image whose alpha is the mask.",
        details: "a = Rec. 709 luma of the premultiplied linear color; output (a, a, a, a).",
        parameters: [.inputImage]
    ) { args in
        MaskToAlpha().apply(to: [try args.image("image")])
    }
}

/// Premultiplied in, premultiplied out: no division needed.
struct MaskToAlpha: ImageKernel {
    var name: String { "maskToAlpha" }
    func render(_ destination: Destination, inputs: [Sampler]) {
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: destination.rect.x)
            for i in 0..<count {
                let a = (source[i] * lumaWeights).sum()
                row[i] = SIMD4(repeating: a)
            }
        }
    }
}
