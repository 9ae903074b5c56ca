import LumenPlatform

extension FilterDescriptor {
    /// A straight fold line at `angle` moves across `extent`; ahead of it the flat source,
    /// within π·radius behind it the lifted page folded back over the line (the source
    /// mirrored across the line, shaded by 0.55 + 0.45·cos(θ/2), θ = depth/radius), and
    /// behind that the target. With a backsideImage the lifted page shows it (at the same
    /// mirrored position) instead of the source; with a shadingImage the page's light is
    /// read across its middle row at θ/π instead of the cosine (`ShadingRow`).
    /// What both page curls take: where, which way, how tight, and the page's back.
    private static let pageCurlParameters: [ParameterDescriptor] = [
        extentParameter,
        .number("angle", .angle, default: 0, identity: 0, "Direction the page curls towards, radians."),
        .number("radius", .distance, default: 100, min: 0.01, "Radius of the curl, pixels."),
        ParameterDescriptor("backsideImage", .image, default: .image(Image.empty), "The back of the page (optional)."),
    ]

    static let pageCurlTransition = transition(
        "pageCurlTransition", "CIPageCurlTransition", summary: "The image curls away like a page, revealing the target.",
        details: "Signed distance u to the moving fold line; u > 0 source; −πr < u ≤ 0 the page mirrored across the line and shaded; below, the target.",
        parameters: pageCurlParameters + [
            ParameterDescriptor("shadingImage", .image, default: .image(Image.empty), "Optional shading."),
        ]
    ) { args, t in
        PageCurl(time: t, extent: args.rect("extent"), angle: args.number("angle"), radius: args.float("radius"),
                 backside: try args.image("backsideImage"), shading: try args.image("shadingImage"))
    }

    /// pageCurlTransition whose lifted page casts a shadow on the target: under the curl
    /// and for s = shadowSize·radius pixels beyond it, the target is darkened by
    /// shadowAmount·(1 − smoothstep(πr, πr + s, −u)) (u the signed distance to the fold
    /// line), inside shadowExtent (an empty shadowExtent: everywhere).
    static let pageCurlWithShadowTransition = transition(
        "pageCurlWithShadowTransition", "CIPageCurlWithShadowTransition", summary: "The image curls away like a page, casting a shadow on the target.",
        details: "As pageCurlTransition; the target behind the fold is darkened by shadowAmount·(1 − smoothstep(πr, πr + shadowSize·r, −u)) within shadowExtent.",
        parameters: pageCurlParameters + [
            .number("shadowSize", default: 0.5, min: 0, max: 100, "How far the shadow reaches beyond the curl, in curl radii."),
            .number("shadowAmount", default: 0.7, min: 0, max: 1, "Darkness of the shadow (0 none, 1 black)."),
            ParameterDescriptor("shadowExtent", .rectangle, default: .vector([0, 0, 0, 0]), "Where the shadow may fall [x, y, w, h]; empty: anywhere."),
        ]
    ) { args, t in
        PageCurl(time: t, extent: args.rect("extent"), angle: args.number("angle"), radius: args.float("radius"),
                 backside: try args.image("backsideImage"), shading: .empty,
                 shadow: PageCurl.Shadow(size: args.float("shadowSize") * args.float("radius"), amount: args.float("shadowAmount"),
                                         extent: args.rect("shadowExtent")))
    }
}

/// Inputs: source, target, backside, shading.
struct PageCurl: TransitionKernel {
    let time: Float, extent: Rect, angle: Double, radius: Float
    /// Whether the backside image has pixels; the images themselves are inputs 2 and 3.
    let hasBackside: Bool
    let shadingRow: ShadingRow
    private let extraImages: DeterminedByIdentity<[Image]>
    /// The shadow the page casts on the target (pageCurlWithShadowTransition).
    struct Shadow: Hashable, Sendable {
        let size: Float, amount: Float
        let extent: Rect
    }
    let shadow: Shadow?

    init(time: Float, extent: Rect, angle: Double, radius: Float, backside: Image, shading: Image, shadow: Shadow? = nil) {
        self.shadow = shadow
        self.time = time
        self.extent = extent
        self.angle = angle
        self.radius = radius
        hasBackside = !backside.extent.isEmpty
        shadingRow = ShadingRow(shading)
        extraImages = DeterminedByIdentity([backside, shading])
    }

    var name: String { shadow == nil ? "pageCurlTransition" : "pageCurlWithShadowTransition" }
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
            var behind = target.pixel(x + i, y)
            if let shadow {
                let inside = shadow.extent.isEmpty || (Double(px) >= shadow.extent.minX && Double(px) < shadow.extent.maxX
                                                       && Double(py) >= shadow.extent.minY && Double(py) < shadow.extent.maxY)
                let reach = Float.pi * radius
                let dark = !inside ? 0 : shadow.size > 0 ? shadow.amount * (1 - smoothstep(reach, reach + shadow.size, -u)) : (-u <= reach ? shadow.amount : 0)
                behind = SIMD4(behind.x * (1 - dark), behind.y * (1 - dark), behind.z * (1 - dark), behind.w)  // darker, not more transparent
            }
            if u <= -.pi * radius { out[i] = behind; continue }
            // The lifted page lies folded back over the line: mirror the flat page ahead of it,
            // shaded darker towards the back of the curl.
            let theta = -u / radius
            let page = pageImage.bilinear(Double(px - 2 * u * dx) - 0.5, Double(py - 2 * u * dy) - 0.5)
            let shade = shading.flatMap { shadingRow.light($0, phase: theta / .pi) } ?? 0.55 + 0.45 * cosf(theta / 2)
            let shaded = SIMD4(page.x * shade, page.y * shade, page.z * shade, page.w)
            out[i] = shaded + behind * (1 - shaded.w)
        }
    }
}
