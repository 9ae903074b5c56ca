import LumenPlatform

extension FilterDescriptor {
    /// A ring of `width` expands from `center` (radius t·(reach + width), reach = the
    /// farthest corner of `extent`); inside it the target, outside the source; within
    /// the ring the source is displaced radially by scale·sin(2π·phase)·sin(πt) pixels,
    /// phase = (R − d)/width, and, with a shading image, lit by ×(0.5 + its light at the
    /// phase) (`ShadingRow`).
    static let rippleTransition = transition(
        "rippleTransition", "CIRippleTransition", summary: "A circular wave spreads from a point, leaving the target in its wake.",
        details: "Ring radius R = t·(reach + width); d < R − width → target; d > R → source; in the ring, source sampled at d + scale·sin(2π(R − d)/width)·sin(πt).",
        parameters: [
            .point("center", default: [150, 150], "Where the wave starts."),
            extentParameter,
            .number("width", .distance, default: 100, min: 1, "Width of the wave."),
            .number("scale", default: 50, min: -50, identity: 0, "Displacement of the wave, pixels."),
            ParameterDescriptor("shadingImage", .image, default: .image(Image.empty), "Optional shading; its brightness lights the wave."),
        ]
    ) { args, t in
        Ripple(time: t, center: args.point("center"), extent: args.rect("extent"), width: args.float("width"), scale: args.float("scale"),
               shading: try args.image("shadingImage"))
    }
}

/// Inputs: source, target, shading.
struct Ripple: TransitionKernel {
    let time: Float, center: Point, extent: Rect, width: Float, scale: Float
    let shadingRow: ShadingRow
    /// The shading image, input 2.
    private let shading: DeterminedByIdentity<Image>

    init(time: Float, center: Point, extent: Rect, width: Float, scale: Float, shading: Image) {
        self.time = time
        self.center = center
        self.extent = extent
        self.width = width
        self.scale = scale
        shadingRow = ShadingRow(shading)
        self.shading = DeterminedByIdentity(shading)
    }

    var name: String { "rippleTransition" }
    var margin: Int { Int(min(1e6, abs(scale)).rounded(.up)) + 1 }

    func makeImage(source: Image, target: Image) -> Image { apply(to: [source, target, shading.value]) }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        index == 2 ? shadingRow.regionOfInterest : rect.outset(dx: margin, dy: margin)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        output.forEachRow { y, row, count in
            fill(row, x: output.rect.x, y: y, count: count, source: inputs[0], target: inputs[1], shading: inputs[2])
        }
    }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        fill(out, x: x, y: y, count: count, source: source, target: target, shading: nil)
    }

    private func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler,
                      shading: Sampler?) {
        let corners = [(extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY)]
        let reach = Float(corners.map { (($0.0 - center.x) * ($0.0 - center.x) + ($0.1 - center.y) * ($0.1 - center.y)).squareRoot() }.max()!)
        let ring = time * (reach + width)
        let amplitude = scale * sinf(.pi * time)
        for i in 0..<count {
            let dx = Float(Double(x + i) + 0.5 - center.x), dy = Float(Double(y) + 0.5 - center.y)
            let d = (dx * dx + dy * dy).squareRoot()
            if d < ring - width { out[i] = target.pixel(x + i, y); continue }
            if d > ring || d == 0 { out[i] = source.pixel(x + i, y); continue }
            let shift = amplitude * sinf(2 * .pi * (ring - d) / width)
            let k = (d + shift) / d
            let u = Double(center.x) + Double(dx * k) - 0.5, v = Double(center.y) + Double(dy * k) - 0.5
            let displaced = source.bilinear(u, v)
            if let shading, let light = shadingRow.light(shading, phase: (ring - d) / width) {
                let k = 0.5 + light
                out[i] = SIMD4(displaced.x * k, displaced.y * k, displaced.z * k, displaced.w)
            } else {
                out[i] = displaced
            }
        }
    }
}
