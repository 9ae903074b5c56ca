import LumenPlatform

extension FilterDescriptor {
    /// The per-channel median of the 3 × 3 neighbourhood (premultiplied linear; outside
    /// the input is transparent).
    static let medianFilter = FilterDescriptor(
        name: "medianFilter", coreImageName: "CIMedianFilter", category: .blur,
        summary: "Removes speckle noise: each channel's median over 3 × 3 pixels.",
        details: "out = per-channel median of the 9 pixels around (x, y).",
        parameters: [.inputImage]
    ) { args in Median3x3().apply(to: [try args.image("image")]) }
}

/// 3 × 3 median per channel with a 19-exchange sorting network (Paeth / Devillard).
struct Median3x3: ImageKernel {
    var name: String { "medianFilter" }
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: 1, dy: 1) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, input = inputs[0]
        for y in r.y..<r.maxY {
            let top = input.row(y + 1, from: r.x - 1), mid = input.row(y, from: r.x - 1), bottom = input.row(y - 1, from: r.x - 1)
            let out = destination.row(y)
            for x in 0..<r.width {
                var p = (top[x], top[x + 1], top[x + 2], mid[x], mid[x + 1], mid[x + 2], bottom[x], bottom[x + 1], bottom[x + 2])
                @inline(__always) func sort(_ a: inout SIMD4<Float>, _ b: inout SIMD4<Float>) {
                    let lo = lanewiseMin(a, b); b = lanewiseMax(a, b); a = lo
                }
                sort(&p.1, &p.2); sort(&p.4, &p.5); sort(&p.7, &p.8)
                sort(&p.0, &p.1); sort(&p.3, &p.4); sort(&p.6, &p.7)
                sort(&p.1, &p.2); sort(&p.4, &p.5); sort(&p.7, &p.8)
                sort(&p.0, &p.3); sort(&p.5, &p.8); sort(&p.4, &p.7)
                sort(&p.3, &p.6); sort(&p.1, &p.4); sort(&p.2, &p.5)
                sort(&p.4, &p.7); sort(&p.4, &p.2); sort(&p.6, &p.4)
                sort(&p.4, &p.2)
                out[x] = p.4
            }
        }
    }
}
