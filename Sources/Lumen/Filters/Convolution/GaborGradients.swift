import LumenPlatform

extension FilterDescriptor {
    /// Horizontal and vertical gradients from 5 × 5 odd Gabor filters:
    /// Gx(i, j) = e^(−(i² + j²)/2σ²)·sin(ω·i)/k with σ = 1.2, ω = 2π/5 and k = Σ i·e^(…)·sin(ω·i),
    /// so a ramp rising by 1 per pixel gives exactly 1; Gy is Gx turned. Per colour channel
    /// of the premultiplied linear input; red gets the horizontal gradient of the channel
    /// where it is largest in magnitude (signed), green the vertical one likewise; blue 0,
    /// alpha 1. Outside the input reads transparent; the extent is the input's.
    static let gaborGradients = FilterDescriptor(
        name: "gaborGradients", coreImageName: "CIGaborGradients", category: .stylize,
        summary: "Horizontal and vertical gradients (red, green) from 5 × 5 Gabor filters.",
        details: "Gx(i, j) = e^(−(i²+j²)/2σ²)·sin(ωi)/k, σ = 1.2, ω = 2π/5, unit response to a ramp; per channel, the largest |g| kept with its sign; (gx, gy, 0, 1).",
        parameters: [.inputImage]
    ) { args in GaborGradients().apply(to: [try args.image("image")]) }
}

struct GaborGradients: ImageKernel {
    static let sigma = 1.2, omega = 2 * Double.pi / 5
    /// Gx as 25 weights, row j = −2…2, column i = −2…2.
    static let weights: [Float] = {
        var w: [Double] = []
        for j in -2...2 { for i in -2...2 { w.append(exp(-Double(i * i + j * j) / (2 * sigma * sigma)) * sin(omega * Double(i))) } }
        var k = 0.0
        for j in 0..<5 { for i in 0..<5 { k += Double(i - 2) * w[j * 5 + i] } }
        return w.map { Float($0 / k) }
    }()

    var name: String { "gaborGradients" }
    func isOpaque(inputs: [Image]) -> Bool { true }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: 2, dy: 2) }

    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect, source = inputs[0], g = Self.weights
        @inline(__always) func strongest(_ v: SIMD4<Float>) -> Float {
            var best = v.x
            if Swift.abs(v.y) > Swift.abs(best) { best = v.y }
            if Swift.abs(v.z) > Swift.abs(best) { best = v.z }
            return best
        }
        for y in r.y..<r.maxY {
            let out = output.row(y)
            let rows = (-2...2).map { source.row(y + $0, from: r.x) }
            for i in 0..<r.width {
                var gx = SIMD4<Float>.zero, gy = SIMD4<Float>.zero
                for j in 0..<5 {
                    let row = rows[j]
                    for k in 0..<5 {
                        let p = row[i + k - 2]
                        gx += g[j * 5 + k] * p         // Gx(i = k − 2, j)
                        gy += g[k * 5 + j] * p         // Gy(dx, dy) = Gx(dy, dx)
                    }
                }
                out[i] = SIMD4(strongest(gx), strongest(gy), 0, 1)
            }
        }
    }
}
