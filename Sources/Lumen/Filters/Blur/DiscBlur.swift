extension FilterDescriptor {
    /// The mean over the pixels whose centres lie within `radius` of the pixel's centre
    /// (a disc); extent outset by ⌈radius⌉. Cost grows with radius².
    static let discBlur = FilterDescriptor(
        name: "discBlur", coreImageName: "CIDiscBlur", category: .blur,
        summary: "Averages each pixel with a disc around it (a lens-like blur).",
        details: "Mean over offsets (i, j) with i² + j² ≤ radius²; extent outset by ⌈radius⌉.",
        parameters: [.inputImage, .number("radius", .distance, default: 8, min: 0, identity: 0, "Radius of the disc, pixels.")]
    ) { args in
        let image = try args.image("image"), radius = args.number("radius")
        return radius < 0.5 ? image : Image(DiscBlurNode(image.node, radius: radius))
    }
}

/// A disc-shaped mean, summed row segment by row segment.
final class DiscBlurNode: ImageNode, @unchecked Sendable {
    let radius: Double
    /// Half-width of the disc's row at each vertical offset −reach…reach.
    private let spans: [Int]
    private let reach: Int

    init(_ input: ImageNode, radius: Double) {
        self.radius = radius
        reach = Int(radius.rounded(.down))
        spans = (-reach...reach).map { j in Int((radius * radius - Double(j * j)).squareRoot().rounded(.down)) }
        super.init(kind: "discBlur", parameters: "\(radius)", extent: input.extent.outset(by: Double(reach)), inputs: [input])
    }

    override var cachePolicy: CachePolicy { .whenReused }

    override func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: reach, dy: reach) }

    override func render(_ output: Tile, inputs: [Tile]) {
        let input = inputs[0], r = output.rect
        let count = Float(spans.reduce(0) { $0 + 2 * $1 + 1 })
        for y in r.y..<r.maxY {
            let out = output.row(y)
            for i in 0..<r.width {
                var sum = SIMD4<Float>.zero
                for (k, span) in spans.enumerated() {
                    let row = input.row(y - reach + k) + (r.x + i - input.rect.x)
                    for dx in -span...span { sum += row[dx] }
                }
                out[i] = sum / count
            }
        }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode { DiscBlurNode(inputs[0], radius: radius) }
}
