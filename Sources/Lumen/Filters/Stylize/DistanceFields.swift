import LumenPlatform

extension FilterDescriptor {
    /// The exact Euclidean distance (between pixel centres) from each pixel to the nearest
    /// pixel of the mask — pixels whose red is at least ½ (macOS 15's
    /// CIDistanceGradientFromRedMask) — normalised: v = min(distance, maximumDistance) /
    /// maximumDistance, written to red, green and blue, alpha 1. Infinite (outside the
    /// input there is no mask). Computed per tile by Felzenszwalb and Huttenlocher's
    /// two-pass lower envelope over the tile grown by maximumDistance, which holds every
    /// mask pixel that can be nearer.
    static let distanceGradientFromRedMask = FilterDescriptor(
        name: "distanceGradientFromRedMask", coreImageName: "CIDistanceGradientFromRedMask", category: .gradient,
        summary: "The distance from each pixel to a red mask, as a grey ramp.",
        details: "v = min(d, maximumDistance)/maximumDistance, d = Euclidean distance to the nearest pixel with red ≥ ½; (v, v, v, 1); infinite.",
        parameters: [.inputImage, .number("maximumDistance", .distance, default: 10, min: 1, max: 1000, "Distance that maps to 1, pixels.")]
    ) { args in
        DistanceField(mode: .distanceToRed, reach: args.number("maximumDistance")).apply(to: [try args.image("image")])
    }

    /// A rounded height field inside a mask (pixels with Rec. 709 luma of at least ½):
    /// with d the Euclidean distance to the nearest pixel outside (the image's surroundings
    /// are outside) and t = min(d/radius, 1), h = √(1 − (1 − t)²) — 0 at the edge, rising
    /// as a quarter circle to 1 at `radius` inside — as (h, h, h, 1) over the input's
    /// extent; 0 outside the mask. The input of shadedMaterial.
    static let heightFieldFromMask = FilterDescriptor(
        name: "heightFieldFromMask", coreImageName: "CIHeightFieldFromMask", category: .stylize,
        summary: "A smooth, rounded height field that rises from a mask's edge.",
        details: "t = min(d/radius, 1), d = distance to the nearest pixel outside the mask (luma < ½); h = √(1 − (1 − t)²); (h, h, h, 1).",
        parameters: [.inputImage, .number("radius", .distance, default: 10, min: 1, max: 1000, "Distance over which the height rises, pixels.")]
    ) { args in
        DistanceField(mode: .heightInsideLuma, reach: args.number("radius")).apply(to: [try args.image("image")])
    }

    /// Shades a height field (the luma of the input, e.g. heightFieldFromMask's output)
    /// with a picture of a lit sphere: the surface normal n = normalise(−scale·∂h/∂x,
    /// −scale·∂h/∂y, 1) (central differences) picks the point c + (nx, ny)·ρ of the shading
    /// image, c its centre and ρ half its shorter side, as a matcap does. The result has
    /// the height field's alpha.
    static let shadedMaterial = FilterDescriptor(
        name: "shadedMaterial", coreImageName: "CIShadedMaterial", category: .stylize,
        summary: "Shades a height field with a picture of a lit sphere (a matcap).",
        details: "n = normalise(−scale·∇h, 1), central differences of luma; out = shading(c + (nx, ny)·ρ)·α, c and ρ the shading image's centre and half its shorter side.",
        parameters: [.inputImage, ParameterDescriptor("shadingImage", .image, "A picture of a lit sphere, looked up by the surface normal."),
                     .number("scale", default: 10, min: 0, max: 1e4, "Height of the field: steeper slopes tilt the normal more.")]
    ) { args in
        let shading = try args.image("shadingImage")
        guard !shading.extent.isInfinite, shading.extent.width >= 1, shading.extent.height >= 1 else {
            throw LumenError.invalidValue(filter: "shadedMaterial", key: "shadingImage", reason: "needs a finite extent (crop it to the sphere)")
        }
        let box = PixelRect(covering: shading.extent)
        guard box.area <= 1 << 24 else {
            throw LumenError.invalidValue(filter: "shadedMaterial", key: "shadingImage", reason: "is \(box.width)×\(box.height); at most 16 megapixels")
        }
        return ShadedMaterial(shading: shading.extent, box: box, scale: args.number("scale")).apply(to: [try args.image("image"), shading])
    }
}

/// Exact Euclidean distance transforms of a tile grown by `reach`.
struct DistanceField: ImageKernel {
    enum Mode: Hashable, Sendable { case distanceToRed, heightInsideLuma }
    let mode: Mode
    let reach: Double

    var name: String { mode == .distanceToRed ? "distanceGradientFromRedMask" : "heightFieldFromMask" }
    var cachePolicy: CachePolicy { .whenReused }
    var margin: Int { Int(reach.rounded(.up)) + 1 }

    func extent(inputs: [Rect]) -> Rect { mode == .distanceToRed ? .infinite : inputs[0] }
    func isOpaque(inputs: [Image]) -> Bool { true }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: margin, dy: margin) }

    /// d[q] = min over p of (q − p)² + f[p] (Felzenszwalb–Huttenlocher), for n values at
    /// `stride` apart in `f`, in place; v and z are scratch of n and n + 1.
    static func transform(_ f: UnsafeMutablePointer<Double>, count n: Int, stride: Int,
                          _ values: UnsafeMutablePointer<Double>, _ v: UnsafeMutablePointer<Int>, _ z: UnsafeMutablePointer<Double>) {
        for q in 0..<n { values[q] = f[q * stride] }
        var k = 0
        v[0] = 0; z[0] = -.infinity; z[1] = .infinity
        if n > 1 {
            for q in 1..<n {
                var s: Double
                repeat {
                    let p = v[k]
                    s = ((values[q] + Double(q * q)) - (values[p] + Double(p * p))) / Double(2 * (q - p))
                    if s <= z[k] { k -= 1 } else { break }
                } while k >= 0
                k += 1
                v[k] = q; z[k] = s; z[k + 1] = .infinity
            }
        }
        k = 0
        for q in 0..<n {
            while z[k + 1] < Double(q) { k += 1 }
            let d = Double(q - v[k])
            f[q * stride] = d * d + values[v[k]]
        }
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect, m = margin, source = inputs[0]
        let w = r.width + 2 * m, h = r.height + 2 * m
        let far = 1e20  // "no feature": finite, so the envelope arithmetic stays exact
        var grid = [Double](repeating: far, count: w * h)
        for k in 0..<h {
            let row = source.row(r.y - m + k, from: r.x - m)
            for x in 0..<w {
                let p = row[x]
                let feature: Bool
                switch mode {
                case .distanceToRed: feature = p.x >= 0.5
                case .heightInsideLuma: feature = 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z < 0.5  // outside the mask
                }
                if feature { grid[k * w + x] = 0 }
            }
        }
        let n = max(w, h)
        let values = UnsafeMutablePointer<Double>.allocate(capacity: n), v = UnsafeMutablePointer<Int>.allocate(capacity: n)
        let z = UnsafeMutablePointer<Double>.allocate(capacity: n + 1)
        defer { values.deallocate(); v.deallocate(); z.deallocate() }
        grid.withUnsafeMutableBufferPointer { g in
            for x in 0..<w { Self.transform(g.baseAddress! + x, count: h, stride: w, values, v, z) }
            for k in 0..<h { Self.transform(g.baseAddress! + k * w, count: w, stride: 1, values, v, z) }
        }
        for y in r.y..<r.maxY {
            let out = output.row(y), k = y - r.y + m
            for i in 0..<r.width {
                let d = grid[k * w + i + m].squareRoot()
                let value: Double
                switch mode {
                case .distanceToRed: value = min(d, reach) / reach
                case .heightInsideLuma:
                    let t = min(d / reach, 1)
                    value = (1 - (1 - t) * (1 - t)).squareRoot()
                }
                let f = Float(value)
                out[i] = SIMD4(f, f, f, 1)
            }
        }
    }
}

/// The matcap lookup of shadedMaterial.
struct ShadedMaterial: ImageKernel {
    let shading: Rect
    let box: PixelRect
    let scale: Double
    var name: String { "shadedMaterial" }

    func extent(inputs: [Rect]) -> Rect { inputs[0] }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { index == 0 ? rect.outset(dx: 1, dy: 1) : box }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect, height = inputs[0], sphere = inputs[1]
        let c = SIMD2(shading.midX, shading.midY), rho = max(0, min(shading.width, shading.height) / 2 - 0.5)
        func luma(_ p: SIMD4<Float>) -> Double { Double(0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z) }
        for y in r.y..<r.maxY {
            let out = output.row(y), below = height.row(y - 1, from: r.x), row = height.row(y, from: r.x), above = height.row(y + 1, from: r.x)
            for i in 0..<r.width {
                let gx = (luma(row[i + 1]) - luma(row[i - 1])) / 2, gy = (luma(above[i]) - luma(below[i])) / 2
                let n = SIMD3(-scale * gx, -scale * gy, 1), length = (n * n).sum().squareRoot()
                let at = c + SIMD2(n.x, n.y) / length * rho
                out[i] = sphere.sample(at: at) * row[i].w
            }
        }
    }
}
