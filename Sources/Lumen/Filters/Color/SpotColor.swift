import LumenPlatform

extension FilterDescriptor {
    /// Up to three colour ranges replaced by spot colours. For each i = 1…3, in order:
    /// d = Euclidean distance between the pixel's sRGB-encoded colour and centerColor_i,
    /// w = 1 − smoothstep(closeness·contrast, closeness, d) (1 inside closeness·contrast,
    /// 0 beyond closeness; contrast 1 is a hard edge), rgb ← mix(rgb, replacementColor_i, w)
    /// in linear light. Unpremultiplied; alpha unchanged. Apple's exact fall-off is
    /// unpublished; this keeps its documented behaviour (colours near a centre become the
    /// replacement, the others stay).
    static let spotColor = FilterDescriptor(
        name: "spotColor", coreImageName: "CISpotColor", category: .stylize,
        summary: "Replaces up to three ranges of color with spot colors.",
        details: "For i = 1…3: d = |srgb(c) − center_i|, w = 1 − smoothstep(closeness_i·contrast_i, closeness_i, d), c ← mix(c, replacement_i, w) (linear); alpha kept.",
        parameters: [.inputImage] + (1...3).flatMap { i -> [ParameterDescriptor] in
            let (center, replacement, closeness, contrast) = SpotColor.defaults[i - 1]
            return [
                .color("centerColor\(i)", default: center, "Centre of color range \(i)."),
                .color("replacementColor\(i)", default: replacement, "What range \(i) becomes."),
                .number("closeness\(i)", default: closeness, min: 0, max: 2, "Distance (sRGB units) at which range \(i) ends."),
                .number("contrast\(i)", default: contrast, min: 0, max: 1, "Share of the range replaced fully (1: a hard edge)."),
            ]
        }
    ) { args in
        let spots = (1...3).map { i in
            SpotColor.Spot(center: args.color("centerColor\(i)").encodedRGB, replacement: args.color("replacementColor\(i)").linearStraight,
                           closeness: args.float("closeness\(i)"), contrast: args.float("contrast\(i)"))
        }
        return try args.image("image").applyingColor(SpotColor(spots: spots))
    }
}

extension Color {
    /// sRGB-encoded red, green, blue.
    var encodedRGB: SIMD3<Float> { SIMD3(Float(red), Float(green), Float(blue)) }
}

struct SpotColor: ColorOperation {
    struct Spot: Hashable, Sendable {
        let center: SIMD3<Float>
        let replacement: SIMD4<Float>
        let closeness: Float, contrast: Float
    }

    /// Core Image's defaults: (centre, replacement, closeness, contrast) per range.
    static let defaults: [(Color, Color, Double, Double)] = [
        (Color(red: 0.0784, green: 0.0627, blue: 0.0706), Color(red: 0.4392, green: 0.1922, blue: 0.1961), 0.22, 0.98),
        (Color(red: 0.5255, green: 0.3059, blue: 0.3451), Color(red: 0.9137, green: 0.5608, blue: 0.5059), 0.15, 0.98),
        (Color(red: 0.9216, green: 0.4549, blue: 0.3333), Color(red: 0.9098, green: 0.7529, blue: 0.6078), 0.5, 0.99),
    ]

    let spots: [Spot]
    var name: String { "spotColor" }

    /// 1 − smoothstep(low, high, d); a step at `high` when low = high.
    static func weight(_ d: Float, low: Float, high: Float) -> Float {
        if d >= high { return 0 }
        if d <= low { return 1 }
        let t = (d - low) / (high - low)
        return 1 - t * t * (3 - 2 * t)
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            var p = row[i]
            for spot in spots {
                let e = SIMD3(TransferFunction.srgbMirrored(fromLinear: p.x), TransferFunction.srgbMirrored(fromLinear: p.y),
                              TransferFunction.srgbMirrored(fromLinear: p.z))
                let v = e - spot.center, d = (v * v).sum().squareRoot()
                let w = Self.weight(d, low: spot.closeness * spot.contrast, high: spot.closeness)
                if w > 0 {
                    p.x += (spot.replacement.x - p.x) * w
                    p.y += (spot.replacement.y - p.y) * w
                    p.z += (spot.replacement.z - p.z) * w
                }
            }
            row[i] = p
        }
    }
}
