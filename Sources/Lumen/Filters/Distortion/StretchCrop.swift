import LumenPlatform

extension FilterDescriptor {
    /// Fits the image to `size` partly by cropping and partly by stretching, the stretch
    /// concentrated in the middle. Per axis (input length ℓ, output S): the fill scale
    /// k = max(Sx/ℓx, Sy/ℓy) would crop to S/k; the part of the axis shown is
    /// ℓ' = ℓ·(1 − cropAmount) + (S/k)·cropAmount, centred. An output position at t = u/S
    /// reads the shown part at g(t) = t + centerStretchAmount·sin(2πt)/2π: the
    /// derivative 1 + a·cos 2πt is 1 − a in the middle (stretched most) and 1 + a at the
    /// edges. Output extent (0, 0, size).
    static let stretchCrop = FilterDescriptor(
        name: "stretchCrop", coreImageName: "CIStretchCrop", category: .distortionEffect,
        summary: "Fits an image to a size by cropping some and stretching the rest, mostly in the middle.",
        details: "Per axis ℓ' = ℓ(1 − crop) + (S/k)·crop centred, k = max(Sx/ℓx, Sy/ℓy); source = start + ℓ'·g(u/S), g(t) = t + a·sin(2πt)/2π, a = centerStretchAmount.",
        parameters: [
            .inputImage,
            .point("size", default: [1280, 720], "Width and height of the result, pixels."),
            .number("cropAmount", default: 0.25, min: 0, max: 1, "0 stretches to the size, 1 crops to its aspect ratio."),
            .number("centerStretchAmount", default: 0.25, min: 0, max: 1, "0 stretches evenly, 1 stretches the middle most."),
        ]
    ) { args in
        let image = try args.image("image"), e = image.extent, size = args.point("size")
        guard !e.isInfinite, e.width >= 1, e.height >= 1 else {
            throw LumenError.invalidValue(filter: "stretchCrop", key: "image", reason: "needs a finite extent at least 1 pixel each way")
        }
        guard size.x >= 1, size.y >= 1, size.x <= Double(ScaleKernel.maximumSide), size.y <= Double(ScaleKernel.maximumSide) else {
            throw LumenError.invalidValue(filter: "stretchCrop", key: "size", reason: "each side must be 1…\(ScaleKernel.maximumSide) pixels")
        }
        let k = max(size.x / e.width, size.y / e.height), crop = args.number("cropAmount")
        let shownX = e.width * (1 - crop) + size.x / k * crop, shownY = e.height * (1 - crop) + size.y / k * crop
        return StretchCropMapping(size: SIMD2(size.x, size.y), start: SIMD2(e.midX - shownX / 2, e.midY - shownY / 2),
                                  shown: SIMD2(shownX, shownY), stretch: args.number("centerStretchAmount")).apply(to: image)
    }
}

struct StretchCropMapping: WarpMapping {
    let size: SIMD2<Double>, start: SIMD2<Double>, shown: SIMD2<Double>
    let stretch: Double
    var name: String { "stretchCrop" }

    func extent(input: Rect) -> Rect { Rect(x: 0, y: 0, width: size.x, height: size.y) }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        func g(_ t: Double) -> Double { t + stretch * sin(2 * .pi * t) / (2 * .pi) }
        return start + SIMD2(g(d.x / size.x), g(d.y / size.y)) * shown
    }
}
