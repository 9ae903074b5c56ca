extension FilterDescriptor {
    /// The mean over the pixels whose centres lie within `radius` of the pixel's centre
    /// (a disc); extent outset by ⌈radius⌉. Cost grows with radius².
    static let discBlur = FilterDescriptor(
        name: "discBlur", coreImageName: "CIDiscBlur", category: .blur,
        summary: "Averages each pixel with a disc around it (a lens-like blur).",
        details: "Mean over offsets (i, j) with i² + j² ≤ radius²; extent outset by ⌈radius⌉.",
        parameters: [.inputImage, .number("radius", .distance, default: 8, min: 0, max: 250, identity: 0,
                                          "Radius of the disc, pixels (cost grows with its square: at most 250).")]
    ) { args in
        let image = try args.image("image"), radius = args.number("radius")
        return radius < 0.5 ? image : DiscBlurKernel(radius: radius).apply(to: [image])
    }
}

/// A disc-shaped mean, summed row segment by row segment.
struct DiscBlurKernel: ImageKernel {
    let radius: Double
    /// Half-width of the disc's row at each vertical offset −reach…reach.
    private let spans: [Int]
    private let reach: Int

    init(radius: Double) {
        self.radius = radius
        reach = Int(radius.rounded(.down))
        spans = (-reach...reach).map { j in Int((radius * radius - Double(j * j)).squareRoot().rounded(.down)) }
    }

    var name: String { "discBlur" }
    func extent(inputs: [Rect]) -> Rect { inputs[0].outset(by: Double(reach)) }

    var cachePolicy: CachePolicy { .whenReused }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: reach, dy: reach) }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect
        let count = Float(spans.reduce(0) { $0 + 2 * $1 + 1 })
        for y in r.y..<r.maxY {
            let out = output.row(y)
            for i in 0..<r.width {
                var sum = SIMD4<Float>.zero
                for (k, span) in spans.enumerated() {
                    let row = input.row(y - reach + k, from: r.x + i)
                    for dx in -span...span { sum += row[dx] }
                }
                out[i] = sum / count
            }
        }
    }
}
