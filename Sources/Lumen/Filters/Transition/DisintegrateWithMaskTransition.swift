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

/// Needs the mask as a third input, so it builds its own node.
struct Disintegrate: TransitionEffect {
    let time: Float, mask: Image, radius: Float, density: Float, offset: [Double]
    var name: String { "disintegrateWithMaskTransition" }
    var key: String { "\(time)|\(mask.identity.hashValue)|\(radius)|\(density)|\(offset)" }
    var margin: Int { Int(max(abs(offset[0]), abs(offset[1])).rounded(.up)) }

    func makeNode(source: ImageNode, target: ImageNode) -> ImageNode {
        DisintegrateNode(source: source, target: target, kernel: self)
    }
}

/// The disintegrate transition over source, target and mask.
final class DisintegrateNode: ImageNode, @unchecked Sendable {
    let kernel: Disintegrate

    init(source: ImageNode, target: ImageNode, kernel: Disintegrate) {
        self.kernel = kernel
        super.init(kind: kernel.name, parameters: kernel.key, extent: source.extent.union(target.extent),
                   inputs: [source, target, kernel.mask.node])
    }

    override func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        index == 2 ? rect.outset(dx: kernel.margin, dy: kernel.margin) : rect
    }

    override func render(_ output: Tile, inputs: [Tile]) {
        let (source, target, mask) = (inputs[0], inputs[1], inputs[2])
        let r = output.rect, t = kernel.time
        let ox = Int(kernel.offset[0].rounded()), oy = Int(kernel.offset[1].rounded())
        let band = max(kernel.radius / 100, 1e-6)
        for y in r.y..<r.maxY {
            let out = output.row(y)
            for i in 0..<r.width {
                let x = r.x + i
                let m = (mask.pixelOrClear(x, y) * lumaWeights).sum()
                if t > m { out[i] = target.pixel(x, y); continue }
                let shadowMask = (mask.pixelOrClear(x - ox, y - oy) * lumaWeights).sum()
                let closeness = max(0, 1 - (shadowMask - t) / band)
                let s = source.pixel(x, y)
                let shade = 1 - kernel.density * closeness
                out[i] = SIMD4(s.x * shade, s.y * shade, s.z * shade, s.w)
            }
        }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode {
        DisintegrateNode(source: inputs[0], target: inputs[1], kernel: Disintegrate(
            time: kernel.time, mask: Image(inputs[2]), radius: kernel.radius, density: kernel.density, offset: kernel.offset))
    }
}
