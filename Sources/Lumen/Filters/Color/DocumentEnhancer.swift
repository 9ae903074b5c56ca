import LumenPlatform

extension FilterDescriptor {
    /// Cleans up a photographed page: the paper's light is estimated and divided out, then
    /// the ink is deepened. The background B is the image closed (morphologyMaximum then
    /// morphologyMinimum, radius r = clamp(round(shorter side / 60), 3, 40)) and blurred
    /// (Gaussian σ = r): text strokes thinner than 2r vanish from it, shadows and paper
    /// tint stay. flat = clamp(c / B, 0, 1) per channel makes the paper white; the
    /// enhanced colour is clamp(1 − (1 − flat)·(1 + amount), 0, 1), and the result is
    /// mix(c, enhanced, min(amount, 1)) — amount 0 leaves the image as it is. Alpha kept.
    static let documentEnhancer = FilterDescriptor(
        name: "documentEnhancer", coreImageName: "CIDocumentEnhancer", category: .colorEffect,
        summary: "Whitens the paper and deepens the ink of a photographed document.",
        details: "B = blur(close(image, r), r), r = clamp(shorter side/60, 3, 40); flat = clamp(c/B); enhanced = clamp(1 − (1 − flat)(1 + amount)); out = mix(c, enhanced, min(amount, 1)).",
        parameters: [.inputImage, .number("amount", default: 1, min: 0, max: 10, identity: 0, "Strength: 0 none, 1 whitened paper and deeper ink, more deepens the ink further.")]
    ) { args in
        let image = try args.image("image"), e = image.extent, amount = args.number("amount")
        guard amount > 0 else { return image }
        guard !e.isInfinite, !PixelRect(covering: e).isEmpty else {
            throw LumenError.invalidValue(filter: "documentEnhancer", key: "image", reason: "needs a finite, non-empty extent (crop it first)")
        }
        let r = Double(DocumentEnhancer.radius(for: e))
        let opened = try morphologyMaximum.apply(["image": .image(image.clampedToExtent().cropped(to: e.outset(by: 2 * r))), "radius": .number(r)])
        let closed = try morphologyMinimum.apply(["image": .image(opened), "radius": .number(r)])
        let background = try gaussianBlur.apply(["image": .image(closed.cropped(to: e).clampedToExtent()), "radius": .number(r)]).cropped(to: e)
        return DocumentEnhancer.kernel.apply(extent: e, arguments: [image, background, amount])
    }
}

enum DocumentEnhancer {
    static func radius(for extent: Rect) -> Int {
        let side = min(extent.width, extent.height) / 60
        return Int(min(40, max(3, side.rounded())))
    }

    static let kernel = ColorKernel("documentEnhancer", pixel: { px in
        let c = px[0], b = px[1], amount = Float(px.values[0])
        guard c.w > 0 else { return c }
        let colour = SIMD3(c.x, c.y, c.z) / c.w, paper = b.w > 0 ? SIMD3(b.x, b.y, b.z) / b.w : SIMD3(repeating: 1)
        var enhanced = SIMD3<Float>.zero
        for k in 0..<3 {
            let flat = paper[k] > 1e-6 ? min(1, max(0, colour[k] / paper[k])) : 1
            enhanced[k] = min(1, max(0, 1 - (1 - flat) * (1 + amount)))
        }
        let out = colour + (enhanced - colour) * min(amount, 1)
        return SIMD4(out.x * c.w, out.y * c.w, out.z * c.w, c.w)
    })
}
