/// The eight photo effects are fixed looks; Apple's exact transforms are unknown, so
/// each is a documented color matrix built from saturation, contrast and per-channel
/// gains in linear light.
enum PhotoEffectLook {
    /// Rec. 709 luma, then contrast around `pivot`.
    static func mono(contrast: Float, pivot: Float = 0.5) -> ColorMatrix {
        let w = lumaWeights
        let gray = ColorMatrix(r: w, g: w, b: w, a: SIMD4(0, 0, 0, 1), bias: .zero)
        let offset = pivot * (1 - contrast)
        return gray.followed(by: ColorMatrix(r: SIMD4(contrast, 0, 0, 0), g: SIMD4(0, contrast, 0, 0), b: SIMD4(0, 0, contrast, 0),
                                             a: SIMD4(0, 0, 0, 1), bias: SIMD4(offset, offset, offset, 0)))
    }

    /// Saturation and contrast (as colorControls), then gains and a lift of the blacks.
    static func look(saturation: Float, contrast: Float, gains: SIMD4<Float>, lift: Float) -> ColorMatrix {
        colorControlsMatrix(saturation: saturation, brightness: 0, contrast: contrast)
            .followed(by: ColorMatrix(r: SIMD4(gains.x, 0, 0, 0), g: SIMD4(0, gains.y, 0, 0), b: SIMD4(0, 0, gains.z, 0),
                                      a: SIMD4(0, 0, 0, 1), bias: SIMD4(lift, lift, lift, 0)))
    }
}

extension FilterDescriptor {
    static func photoEffect(_ name: String, _ coreImageName: String, summary: String, formula: String,
                            matrix: ColorMatrix) -> FilterDescriptor {
        FilterDescriptor(name: name, coreImageName: coreImageName, category: .colorEffect, summary: summary,
                         details: "A fixed color matrix: \(formula).", parameters: [.inputImage]) { args in
            try args.image("image").applyingColor(matrix)
        }
    }
}
