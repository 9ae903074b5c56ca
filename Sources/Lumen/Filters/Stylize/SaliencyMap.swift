import LumenPlatform

extension FilterDescriptor {
    /// Frequency-tuned saliency (Achanta, Hemami, Estrada and Süsstrunk, CVPR 2009) in
    /// place of Core Image's learned model: with Lab the CIE L*a*b* (D50) of each pixel's
    /// unpremultiplied colour, μ its mean over the image and G the Lab image smoothed by
    /// the 5 × 5 binomial filter (edges clamped), S = |μ − G| (Euclidean, ΔE76); the output
    /// is S / max S as grey (s, s, s, 1) over the input's extent. Regions whose colour
    /// differs from the image's average stand out; fine texture is smoothed away.
    static let saliencyMapFilter = FilterDescriptor(
        name: "saliencyMapFilter", coreImageName: "CISaliencyMapFilter", category: .stylize,
        summary: "A grey map of where the image's colours stand out from its average (frequency-tuned saliency).",
        details: "S = |mean Lab − binomial5×5(Lab)| (ΔE76, D50); out = S / max S as (s, s, s, 1). Achanta et al. 2009, not Apple's learned model.",
        parameters: [.inputImage]
    ) { args in
        let image = try args.image("image"), e = image.extent
        guard !e.isInfinite, !PixelRect(covering: e).isEmpty else {
            throw LumenError.invalidValue(filter: "saliencyMapFilter", key: "image", reason: "needs a finite, non-empty extent (crop it first)")
        }
        let extent = FilterValue.vector([e.minX, e.minY, e.width, e.height])
        let lab = Saliency.lab.apply(extent: e, arguments: [image])
        let binomial: [Double] = [1, 4, 6, 4, 1]
        let weights = binomial.flatMap { a in binomial.map { a * $0 / 256 } }
        let smooth = try convolution5X5.apply(["image": .image(lab.clampedToExtent()), "weights": .vector(weights)]).cropped(to: e)
        let mean = try areaAverage.apply(["image": .image(lab), "extent": extent]).clampedToExtent()
        let distance = Saliency.distance.apply(extent: e, arguments: [smooth, mean])
        let peak = try areaMaximum.apply(["image": .image(distance), "extent": extent]).clampedToExtent()
        return Saliency.normalised.apply(extent: e, arguments: [distance, peak])
    }
}

enum Saliency {
    /// (L*, a*, b*, 1) of the unpremultiplied colour; transparent pixels are black.
    static let lab = ColorKernel("saliencyLab", pixel: { px in
        let p = px[0]
        let c = p.w > 0 ? SIMD3<Double>(Double(p.x / p.w), Double(p.y / p.w), Double(p.z / p.w)) : .zero
        let v = Lab.fromLinearSRGB(c)
        return SIMD4(Float(v.x), Float(v.y), Float(v.z), 1)
    })

    /// |mean − smoothed| in Lab, as (S, S, S, 1).
    static let distance = ColorKernel("saliencyDistance", pixel: { px in
        let d = px[0] - px[1], s = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
        return SIMD4(s, s, s, 1)
    })

    /// S divided by the image's largest S (0 where the image is uniform).
    static let normalised = ColorKernel("saliencyNormalised", pixel: { px in
        let peak = px[1].x, s = peak > 0 ? px[0].x / peak : 0
        return SIMD4(s, s, s, 1)
    })
}
