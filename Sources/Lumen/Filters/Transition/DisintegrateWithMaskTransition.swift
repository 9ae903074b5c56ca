extension FilterDescriptor {
    /// Where the mask (luma, linear) is darkest the source disintegrates first: a pixel
    /// shows the target once t > m. Source pixels within `shadowRadius` of the front (in
    /// mask value, scaled by 1/100) are darkened by `shadowDensity`, shifted by `shadowOffset`.
    static let disintegrateWithMaskTransition = transition(
        "disintegrateWithMaskTransition", "CIDisintegrateWithMaskTransition",
        summary: "The source crumbles away in the order a mask gives, revealing the target.",
        details: "Target where t > m (m = mask luma at the pixel); source near the front is shaded: ×(1 − density·(1 − (m − t)·100/radius)).",
        parameters: [
            ParameterDescriptor("maskImage", .image, "Dark parts go first."),
            .number("shadowRadius", .distance, default: 8, min: 0, "Width of the shadow along the front."),
            .number("shadowDensity", default: 0.65, min: 0, max: 1, identity: 0, "Darkness of the shadow."),
            ParameterDescriptor("shadowOffset", .offset, default: .vector([0, -10]), identity: .vector([0, 0]), "Shift of the shadow, pixels."),
        ]
    ) { args, t in
        Disintegrate(time: t, mask: try args.image("maskImage"), radius: args.float("shadowRadius"),
                     density: args.float("shadowDensity"), offset: args.vector("shadowOffset"))
    }
}

/// The disintegrate transition over source, target and mask (a third input).
struct Disintegrate: TransitionEffect, ImageKernel {
    let time: Float, radius: Float, density: Float, offset: [Double]
    /// The mask image, which becomes the kernel's third input (not a stored value).
    private let mask: DeterminedByIdentity<Image>

    init(time: Float, mask: Image, radius: Float, density: Float, offset: [Double]) {
        self.time = time
        self.mask = DeterminedByIdentity(mask)
        self.radius = radius
        self.density = density
        self.offset = offset
    }

    var name: String { "disintegrateWithMaskTransition" }
    private var margin: Int { Int(min(1e6, max(abs(offset[0]), abs(offset[1]))).rounded(.up)) }

    func makeImage(source: Image, target: Image) -> Image { apply(to: [source, target, mask.value]) }

    func extent(inputs: [Rect]) -> Rect { inputs[0].union(inputs[1]) }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        index == 2 ? rect.outset(dx: margin, dy: margin) : rect
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let (source, target, mask) = (inputs[0], inputs[1], inputs[2])
        let r = output.rect, t = time
        let ox = Int(min(1e6, max(-1e6, offset[0])).rounded()), oy = Int(min(1e6, max(-1e6, offset[1])).rounded())
        let band = max(radius / 100, 1e-6)
        for y in r.y..<r.maxY {
            let out = output.row(y)
            for i in 0..<r.width {
                let x = r.x + i
                let m = (mask.pixelOrClear(x, y) * lumaWeights).sum()
                if t > m { out[i] = target.pixel(x, y); continue }
                let shadowMask = (mask.pixelOrClear(x - ox, y - oy) * lumaWeights).sum()
                let closeness = max(0, 1 - (shadowMask - t) / band)
                let s = source.pixel(x, y)
                let shade = 1 - density * closeness
                out[i] = SIMD4(s.x * shade, s.y * shade, s.z * shade, s.w)
            }
        }
    }
}
