import LumenPlatform

extension FilterDescriptor {
    /// A tilt-shift "miniature": the line through point0 and point1 is in focus, and the
    /// picture blurs away from it. The sharp image is the input with its saturation
    /// multiplied by `saturation` (colorControls) and sharpened (unsharpMask with
    /// unsharpMaskRadius and unsharpMaskIntensity); the far image is the sharp one blurred
    /// (gaussianBlur with `radius`). With d the distance of the pixel centre from the line
    /// and L = |point1 − point0|, t = smoothstep(0, L/2, d) and out = mix(sharp, blurred, t):
    /// sharp on the line, fully blurred L/2 away. Extent: the input's.
    static let depthOfField = FilterDescriptor(
        name: "depthOfField", coreImageName: "CIDepthOfField", category: .stylize,
        summary: "A tilt-shift look: sharp along a line through two points, blurred away from it.",
        details: "sharp = unsharpMask(colorControls(saturation)); far = gaussianBlur(sharp, radius); out = mix(sharp, far, smoothstep(0, |p1 − p0|/2, distance to the line p0p1)).",
        parameters: [
            .inputImage,
            .point("point0", default: [0, 300], "A point on the line in focus."),
            .point("point1", default: [300, 300], "Another point on it; their distance sets how fast the blur grows."),
            .number("saturation", default: 1.5, min: 0, max: 10, "Saturation multiplier (miniatures look more colourful)."),
            .number("unsharpMaskRadius", .distance, default: 2.5, min: 0, max: 100, "Radius of the sharpening, pixels."),
            .number("unsharpMaskIntensity", default: 0.5, min: 0, max: 10, "Strength of the sharpening."),
            .number("radius", .distance, default: 6, min: 0, max: 100, "Radius of the blur away from the line, pixels."),
        ]
    ) { args in
        let image = try args.image("image")
        let saturated = try colorControls.apply(["image": .image(image), "saturation": .number(args.number("saturation"))])
        let sharp = try unsharpMask.apply(["image": .image(saturated), "radius": .number(args.number("unsharpMaskRadius")),
                                           "intensity": .number(args.number("unsharpMaskIntensity"))]).cropped(to: image.extent)
        let far = try gaussianBlur.apply(["image": .image(sharp), "radius": .number(args.number("radius"))]).cropped(to: image.extent)
        let p0 = args.point("point0"), p1 = args.point("point1")
        return DepthOfFieldMix.kernel.apply(extent: image.extent, arguments: [sharp, far, p0.x, p0.y, p1.x, p1.y])
    }
}

enum DepthOfFieldMix {
    /// The blend weight of the blurred image at `p`.
    static func weight(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let v = b - a, length = (v * v).sum().squareRoot()
        guard length > 1e-9 else { return 1 }
        let w = p - a, d = Swift.abs(v.x * w.y - v.y * w.x) / length
        let t = min(1, max(0, d / (length / 2)))
        return t * t * (3 - 2 * t)
    }

    static let kernel = ColorKernel("depthOfField", pixel: { px in
        let t = Float(weight(SIMD2(Double(px.coordinate.x), Double(px.coordinate.y)), SIMD2(px.values[0], px.values[1]), SIMD2(px.values[2], px.values[3])))
        return px[0] + (px[1] - px[0]) * t
    })
}
