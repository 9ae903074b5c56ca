extension FilterDescriptor {
    /// vignetteEffect centred on the image with sizes relative to it: with h the half
    /// diagonal of the extent, the unchanged circle has radius radius·h/2 and the
    /// darkening ramps over the rest of h. intensity 0 (the default) is the identity.
    static let vignette = FilterDescriptor(
        name: "vignette", coreImageName: "CIVignette", category: .colorEffect,
        summary: "Darkens (or lightens) the edges of the image, sized relative to it.",
        details: "As vignetteEffect with center = extent centre, radius = radius·h/2, band = h − radius·h/2 (h = half diagonal).",
        parameters: [
            .inputImage,
            .number("intensity", default: 0, min: -1, max: 1, identity: 0, "1 black edges, −1 white, 0 unchanged."),
            .number("radius", default: 1, min: 0, max: 2, "Size of the unchanged centre relative to the image."),
        ]
    ) { args in
        let image = try args.image("image"), intensity = args.number("intensity")
        guard intensity != 0 else { return image }
        let e = image.extent
        guard !e.isInfinite else { throw LumenError.invalidValue(filter: "vignette", key: "image", reason: "needs a finite extent") }
        let h = (e.width * e.width + e.height * e.height).squareRoot() / 2
        let inner = args.number("radius") * h / 2
        let band = max(1, h - inner)
        return VignetteKernel(center: e.center, radius: inner, intensity: Float(intensity),
                              falloff: band / (2 * max(inner, 1e-9))).apply(to: [image])
    }
}
