import LumenPlatform

extension ParameterDescriptor {
    static func corner(_ key: String, _ value: [Double], _ summary: String) -> ParameterDescriptor {
        .point(key, default: value, summary)
    }
    static let perspectiveCorners: [ParameterDescriptor] = [
        .corner("topLeft", [118, 484], "Where the top-left corner goes."),
        .corner("topRight", [646, 507], "Where the top-right corner goes."),
        .corner("bottomRight", [548, 140], "Where the bottom-right corner goes."),
        .corner("bottomLeft", [155, 153], "Where the bottom-left corner goes."),
    ]
}

extension FilterArguments {
    /// bottomLeft, bottomRight, topRight, topLeft.
    var quad: [SIMD2<Double>] {
        ["bottomLeft", "bottomRight", "topRight", "topLeft"].map { let p = point($0); return SIMD2(p.x, p.y) }
    }
}

extension FilterDescriptor {
    /// The homography taking the image's corners to the four points; each output pixel
    /// samples the input bilinearly at H⁻¹ of its centre. Extent = the quad's bounding box.
    static let perspectiveTransform = FilterDescriptor(
        name: "perspectiveTransform", coreImageName: "CIPerspectiveTransform", category: .geometryAdjustment,
        summary: "Maps the image's corners to four points (a projective transform).",
        details: "H takes the extent's corners to the points; out(d) = in(H⁻¹(d)), bilinear; extent = the quad's bounding box.",
        parameters: [.inputImage] + ParameterDescriptor.perspectiveCorners
    ) { args in
        let image = try args.image("image")
        return try perspective(image, from: image.extent, to: args.quad, filter: "perspectiveTransform", bounds: nil)
    }

    /// As perspectiveTransform, but the rectangle `extent` (not the image's extent) is
    /// what goes to the four points.
    static let perspectiveTransformWithExtent = FilterDescriptor(
        name: "perspectiveTransformWithExtent", coreImageName: "CIPerspectiveTransformWithExtent", category: .geometryAdjustment,
        summary: "Maps the corners of a rectangle to four points, carrying the whole image along.",
        details: "H takes extent's corners to the points; out(d) = in(H⁻¹(d)).",
        parameters: [.inputImage, .reductionExtent.with(default: [0, 0, 300, 300], "The rectangle whose corners move.")] + ParameterDescriptor.perspectiveCorners
    ) { args in
        try perspective(try args.image("image"), from: args.rect("extent"), to: args.quad, filter: "perspectiveTransformWithExtent", bounds: nil)
    }

    /// The inverse: the quad of the four points goes to an upright rectangle of width
    /// max(|top|, |bottom|) and height max(|left|, |right|) with its corner at the quad's
    /// bottom-left point. crop = 1 keeps only that rectangle (a scanned document, straightened).
    static let perspectiveCorrection = FilterDescriptor(
        name: "perspectiveCorrection", coreImageName: "CIPerspectiveCorrection", category: .geometryAdjustment,
        summary: "Straightens a quadrilateral (a photographed page) into a rectangle.",
        details: "H takes the points to an upright W × H rectangle at bottomLeft, W = max(|top|, |bottom|), H = max(|left|, |right|); crop = 1 keeps the rectangle.",
        parameters: [.inputImage] + ParameterDescriptor.perspectiveCorners
            + [.number("crop", .boolean, default: 1, min: 0, max: 1, "1 keeps only the straightened rectangle.")]
    ) { args in
        let q = args.quad  // bl, br, tr, tl
        func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let width = max(length(q[3], q[2]), length(q[0], q[1])), height = max(length(q[0], q[3]), length(q[1], q[2]))
        let target = Rect(x: q[0].x, y: q[0].y, width: width, height: height)
        guard width > 0, height > 0, width < 1e9, height < 1e9 else {
            throw LumenError.invalidValue(filter: "perspectiveCorrection", key: "topLeft", reason: "the four points do not span an area")
        }
        let crop = args.number("crop") >= 0.5
        return try perspectiveMapping(from: q, to: target.cornerPoints, filter: "perspectiveCorrection", bounds: crop ? target : nil)
            .apply(to: try args.image("image"))
    }

    static func perspective(_ image: Image, from rect: Rect, to quad: [SIMD2<Double>], filter: String, bounds: Rect?) throws -> Image {
        guard !rect.isInfinite, !rect.isEmpty else {
            throw LumenError.invalidValue(filter: filter, key: "image", reason: "needs a finite, non-empty extent (crop an infinite image first)")
        }
        return try perspectiveMapping(from: rect.cornerPoints, to: quad, filter: filter, bounds: bounds).apply(to: image)
    }

    static func perspectiveMapping(from: [SIMD2<Double>], to: [SIMD2<Double>], filter: String, bounds: Rect?) throws -> PerspectiveMapping {
        guard let forward = Homography(from: from, to: to), let inverse = forward.inverse else {
            throw LumenError.invalidValue(filter: filter, key: "topLeft", reason: "three of the points are on one line: no perspective maps the corners there")
        }
        return PerspectiveMapping(forward: forward, inverse: inverse, bounds: bounds)
    }
}

extension ParameterDescriptor {
    /// The same parameter with another default and summary.
    func with(default value: [Double], _ summary: String) -> ParameterDescriptor {
        ParameterDescriptor(key, kind, default: .vector(value), min: minimum, max: maximum, identity: nil, summary)
    }
}
