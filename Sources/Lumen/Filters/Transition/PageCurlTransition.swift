import Foundation

extension FilterDescriptor {
    /// A straight fold line at `angle` moves across `extent`; ahead of it the flat source,
    /// within π·radius behind it the lifted page folded back over the line (the source
    /// mirrored across the line, shaded by 0.55 + 0.45·cos(θ/2), θ = depth/radius), and
    /// behind that the target. With a backsideImage the lifted page shows it (at the same
    /// mirrored position) instead of the source; with a shadingImage the page's light is
    /// read across its middle row at θ/π instead of the cosine (`ShadingRow`).
    static let pageCurlTransition = transition(
        "pageCurlTransition", "CIPageCurlTransition", summary: "The image curls away like a page, revealing the target.",
        details: "Signed distance u to the moving fold line; u > 0 source; −πr < u ≤ 0 the page mirrored across the line and shaded; below, the target.",
        parameters: [
            extentParameter,
            .number("angle", .angle, default: 0, identity: 0, "Direction the page curls towards, radians."),
            .number("radius", .distance, default: 100, min: 0.01, "Radius of the curl, pixels."),
            ParameterDescriptor("backsideImage", .image, default: .image(Image.empty), "The back of the page (optional)."),
            ParameterDescriptor("shadingImage", .image, default: .image(Image.empty), "Optional shading."),
        ]
    ) { args, t in
        PageCurl(time: t, extent: args.rect("extent"), angle: args.number("angle"), radius: args.float("radius"),
                 backside: try args.image("backsideImage"), shading: try args.image("shadingImage"))
    }
}

/// Inputs: source, target, backside, shading.
struct PageCurl: TransitionKernel {
    let time: Float, extent: Rect, angle: Double, radius: Float
    /// Whether the backside image has pixels; the images themselves are inputs 2 and 3.
    let hasBackside: Bool
    let shadingRow: ShadingRow
    private let extraImages: DeterminedByIdentity<[Image]>

    init(time: Float, extent: Rect, angle: Double, radius: Float, backside: Image, shading: Image) {
        self.time = time
        self.extent = extent
        self.angle = angle
        self.radius = radius
        hasBackside = !backside.extent.isEmpty
        shadingRow = ShadingRow(shading)
        extraImages = DeterminedByIdentity([backside, shading])
    }

    var name: String { "pageCurlTransition" }
    var margin: Int { Int(min(1e6, Float.pi * radius).rounded(.up)) + 1 }

    func makeImage(source: Image, target: Image) -> Image { apply(to: [source, target] + extraImages.value) }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        switch index {
        case 1: return rect
        case 3: return shadingRow.regionOfInterest
        default: return sourceRegion(for: rect)
        }
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        output.forEachRow { y, row, count in
            fill(row, x: output.rect.x, y: y, count: count, source: inputs[0], target: inputs[1],
                 page: hasBackside ? inputs[2] : inputs[0], shading: inputs[3])
        }
    }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        fill(out, x: x, y: y, count: count, source: source, target: target, page: source, shading: nil)
    }

    private func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler,
                      page pageImage: Sampler, shading: Sampler?) {
        let dx = Float(cos(angle)), dy = Float(sin(angle))
        // The fold line moves from before the near side to past the far side plus the curl.
        let range = projectionRange(of: extent, dx: dx, dy: dy)
        let near = range.min - 1, far = range.max + .pi * radius + 1
        let line = near + (far - near) * time
        for i in 0..<count {
            let px = Float(x + i) + 0.5, py = Float(y) + 0.5
            let u = px * dx + py * dy - line
            if u > 0 { out[i] = source.pixel(x + i, y); continue }
            if u <= -.pi * radius { out[i] = target.pixel(x + i, y); continue }
            // The lifted page lies folded back over the line: mirror the flat page ahead of it,
            // shaded darker towards the back of the curl.
            let theta = -u / radius
            let page = pageImage.bilinear(Double(px - 2 * u * dx) - 0.5, Double(py - 2 * u * dy) - 0.5)
            let shade = shading.flatMap { shadingRow.light($0, phase: theta / .pi) } ?? 0.55 + 0.45 * cosf(theta / 2)
            let shaded = SIMD4(page.x * shade, page.y * shade, page.z * shade, page.w)
            out[i] = shaded + target.pixel(x + i, y) * (1 - shaded.w)
        }
    }
}
