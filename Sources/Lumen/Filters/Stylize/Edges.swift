import LumenPlatform

/// The Sobel gradient of channel values at (x, y) (y up), divided by 4 so a unit step gives 1.
@inline(__always)
func sobel(_ s: Sampler, _ x: Int, _ y: Int) -> (SIMD4<Float>, SIMD4<Float>) {
    let top = s.row(y + 1, from: x - 1), mid = s.row(y, from: x - 1), bottom = s.row(y - 1, from: x - 1)
    // Typed a term at a time: as one expression it took the type checker 1.7 s.
    let two: Float = 2, quarter: Float = 0.25
    let right: SIMD4<Float> = top[2] + mid[2] * two + bottom[2], left: SIMD4<Float> = top[0] + mid[0] * two + bottom[0]
    let above: SIMD4<Float> = top[0] + top[1] * two + top[2], below: SIMD4<Float> = bottom[0] + bottom[1] * two + bottom[2]
    return ((right - left) * quarter, (above - below) * quarter)
}

extension FilterDescriptor {
    /// Per colour channel, the Sobel gradient magnitude √(gx² + gy²)/4 of the premultiplied
    /// values times intensity (a unit step scores 1); alpha kept.
    static let edges = FilterDescriptor(
        name: "edges", coreImageName: "CIEdges", category: .stylize,
        summary: "Finds edges and shows them in color on black.",
        details: "rgb = intensity·√(gx² + gy²) per channel, Sobel / 4 (premultiplied, linear); alpha kept.",
        parameters: [.inputImage, .number("intensity", default: 1, min: 0, max: 1000, "Gain of the edges.")]
    ) { args in EdgeKernel(mode: .edges(Float(args.number("intensity")))).apply(to: [try args.image("image")]) }

    /// The Sobel gradient of the Rec. 709 luma: red = ∂/∂x, green = ∂/∂y (y up, a unit
    /// step scores 1), blue 0, alpha 1.
    static let sobelGradients = FilterDescriptor(
        name: "sobelGradients", coreImageName: "CISobelGradients", category: .stylize,
        summary: "The horizontal and vertical luma gradients in red and green.",
        details: "(gx, gy, 0, 1) of Rec. 709 luma, Sobel / 4, y up.",
        parameters: [.inputImage]
    ) { args in EdgeKernel(mode: .sobel).apply(to: [try args.image("image")]) }

    /// Canny's detector: luma (sRGB-encoded when perceptual) blurred by gaussianSigma,
    /// Sobel gradient, non-maximum suppression across the edge, double threshold (strong
    /// ≥ thresholdHigh, weak ≥ thresholdLow), then hysteresisPasses rounds in which weak
    /// pixels touching a strong one become strong. White edges on black, alpha 1.
    static let cannyEdgeDetector = FilterDescriptor(
        name: "cannyEdgeDetector", coreImageName: "CICannyEdgeDetector", category: .stylize,
        summary: "Thin, connected edges (Canny), white on black.",
        details: "blur σ, Sobel, non-maximum suppression, thresholds high/low, hysteresis passes; out 1 on edges, 0 elsewhere.",
        parameters: [
            .inputImage,
            .number("gaussianSigma", .distance, default: 1.6, min: 0, max: 100, "σ of the smoothing blur."),
            .number("perceptual", .boolean, default: 0, min: 0, max: 1, "1 works on sRGB-encoded luma."),
            .number("thresholdHigh", default: 0.05, min: 0, max: 10, "Gradient magnitude of a strong edge."),
            .number("thresholdLow", default: 0.02, min: 0, max: 10, "Gradient magnitude of a weak edge."),
            .number("hysteresisPasses", .integer, default: 1, min: 0, max: 20, "Rounds of growing strong edges into weak ones."),
        ]
    ) { args in
        let image = try args.image("image")
        let luma = image.applyingColor(LumaOperation(perceptual: args.number("perceptual") >= 0.5))
        let sigma = args.number("gaussianSigma")
        let smooth = sigma > 0 ? luma.applyingGaussianBlur(sigma: sigma).cropped(to: image.extent) : luma
        var edges = CannyThreshold(high: Float(args.number("thresholdHigh")), low: Float(args.number("thresholdLow"))).apply(to: [smooth])
        for _ in 0..<Int(args.number("hysteresisPasses").rounded()) { edges = Hysteresis(final: false).apply(to: [edges]) }
        return Hysteresis(final: true).apply(to: [edges])
    }
}

/// Grey = Rec. 709 luma (optionally sRGB-encoded), alpha kept.
struct LumaOperation: ColorOperation {
    let perceptual: Bool
    var name: String { perceptual ? "lumaEncoded" : "luma" }
    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            var l = (p * lumaWeights).sum()
            if perceptual { l = Float(TransferFunction.srgb(fromLinear: Double(max(0, l)))) }
            row[i] = SIMD4(l, l, l, p.w)
        }
    }
}

struct EdgeKernel: ImageKernel {
    enum Mode: Hashable, Sendable { case edges(Float), sobel }
    let mode: Mode
    var name: String {
        if case .sobel = mode { return "sobelGradients" }
        return "edges"
    }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: 1, dy: 1) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, s = inputs[0]
        for y in r.y..<r.maxY {
            let out = destination.row(y), own = s.row(y, from: r.x)
            for i in 0..<r.width {
                let (gx, gy) = sobel(s, r.x + i, y)
                switch mode {
                case let .edges(k):
                    let m = (gx * gx + gy * gy).squareRoot() * k
                    out[i] = SIMD4(m.x, m.y, m.z, own[i].w)
                case .sobel:
                    out[i] = SIMD4((gx * lumaWeights).sum(), (gy * lumaWeights).sum(), 0, 1)
                }
            }
        }
    }
}

/// Non-maximum suppression and the double threshold: 1 strong, 0.5 weak, 0 none (in red).
struct CannyThreshold: ImageKernel {
    let high: Float
    let low: Float
    var name: String { "cannyThreshold" }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: 2, dy: 2) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, s = inputs[0]
        func magnitude(_ x: Int, _ y: Int) -> (Float, Float, Float) {
            let (gx, gy) = sobel(s, x, y)
            return ((gx.x * gx.x + gy.x * gy.x).squareRoot(), gx.x, gy.x)
        }
        for y in r.y..<r.maxY {
            let out = destination.row(y)
            for i in 0..<r.width {
                let x = r.x + i
                let (m, gx, gy) = magnitude(x, y)
                var value: Float = 0
                if m >= low {
                    // Neighbours across the edge, along the gradient rounded to 45°.
                    let angle = atan2(gy, gx), octant = Int(((angle + .pi) / (.pi / 4)).rounded()) % 4
                    let (dx, dy) = [(1, 0), (1, 1), (0, 1), (-1, 1)][octant]
                    if m >= magnitude(x + dx, y + dy).0 && m > magnitude(x - dx, y - dy).0 { value = m >= high ? 1 : 0.5 }
                }
                out[i] = SIMD4(value, value, value, 1)
            }
        }
    }
}

/// One hysteresis round (weak next to strong becomes strong), or the final binarisation.
struct Hysteresis: ImageKernel {
    let final: Bool
    var name: String { final ? "cannyEdges" : "cannyHysteresis" }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { final ? rect : rect.outset(dx: 1, dy: 1) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, s = inputs[0]
        for y in r.y..<r.maxY {
            let out = destination.row(y)
            for i in 0..<r.width {
                let x = r.x + i, v = s.pixel(x, y).x
                if final { let e: Float = v == 1 ? 1 : 0; out[i] = SIMD4(e, e, e, 1); continue }
                var strong = v == 1
                if v == 0.5 {
                    outer: for dy in -1...1 { for dx in -1...1 where s.pixel(x + dx, y + dy).x == 1 { strong = true; break outer } }
                }
                let e: Float = strong ? 1 : v
                out[i] = SIMD4(e, e, e, 1)
            }
        }
    }
}
