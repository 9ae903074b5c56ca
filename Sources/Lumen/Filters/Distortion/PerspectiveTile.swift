import LumenPlatform

extension FilterDescriptor {
    /// The image repeated over the plane (as affineTile repeats it), then the homography
    /// taking the image's corners to the four points: a tiled floor or wall in
    /// perspective. Infinite extent; beyond the horizon it is transparent.
    static let perspectiveTile = FilterDescriptor(
        name: "perspectiveTile", coreImageName: "CIPerspectiveTile", category: .tileEffect,
        summary: "Tiles the image over the plane, seen in perspective.",
        details: "H takes the extent's corners to the points; out(d) = in(wrap(H⁻¹(d))) with wrap repeating the extent; infinite.",
        parameters: [.inputImage] + ParameterDescriptor.perspectiveCorners
    ) { args in
        let image = try args.image("image")
        let e = image.extent
        guard !e.isInfinite, e.width >= 1, e.height >= 1 else {
            throw LumenError.invalidValue(filter: "perspectiveTile", key: "image", reason: "needs a finite extent at least 1 pixel each way")
        }
        let mapping = try perspectiveMapping(from: e.cornerPoints, to: args.quad, filter: "perspectiveTile", bounds: nil)
        return PerspectiveTiling(inverse: mapping.inverse, source: e).apply(to: image)
    }
}

/// The plane tiled with `source`, seen through a homography.
struct PerspectiveTiling: WarpMapping {
    let inverse: Homography
    let source: Rect
    var name: String { "perspectiveTile" }

    func extent(input: Rect) -> Rect { .infinite }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        guard let u = inverse.apply(d), Swift.abs(u.x) < 1e12, Swift.abs(u.y) < 1e12 else { return nil }
        let w = source.width, h = source.height
        let x = source.minX + Tiling.fraction((u.x - source.minX) / w) * w, y = source.minY + Tiling.fraction((u.y - source.minY) / h) * h
        // Half a pixel inside, so bilinear samples stay in the image.
        return SIMD2(min(max(x, source.minX + 0.5), source.maxX - 0.5), min(max(y, source.minY + 0.5), source.maxY - 0.5))
    }
}
