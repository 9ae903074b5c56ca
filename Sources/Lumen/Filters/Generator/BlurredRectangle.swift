import LumenPlatform

extension FilterDescriptor {
    /// The rectangle convolved with a Gaussian of `sigma`, in closed form:
    /// coverage = ¼·(erf((x − x0)/(σ√2)) − erf((x − x1)/(σ√2)))·(same in y).
    static let blurredRectangle = FilterDescriptor(
        name: "blurredRectangle", coreImageName: "CIBlurredRectangleGenerator", category: .generator,
        summary: "A rectangle blurred by a Gaussian, computed exactly.",
        details: "coverage = product over x, y of ½(erf((p − min)/(σ√2)) − erf((p − max)/(σ√2))); extent outset by 3σ.",
        parameters: [.reductionExtent.with(default: [0, 0, 100, 100], "The rectangle."),
                     .number("sigma", .distance, default: 10, min: 0, max: 1e5, "σ of the blur in pixels."),
                     .color("color", default: .white, "The color.")]
    ) { args in
        let rect = args.rect("extent")
        guard rect.width > 0, rect.height > 0 else { return .empty }
        return BlurredRectangle(rect: rect, sigma: args.number("sigma"), color: args.color("color")).apply()
    }

    static func shape(_ args: FilterArguments, stroke: Double?) throws -> Image {
        let rect = args.rect("extent")
        guard rect.width > 0, rect.height > 0 else { return .empty }
        return RoundedRectangle(rect: rect, radius: args.number("radius"), color: args.color("color"), stroke: stroke).apply()
    }
}

struct BlurredRectangle: ImageKernel {
    let rect: Rect
    let sigma: Double
    let color: Color
    var name: String { "blurredRectangle" }
    var cachePolicy: CachePolicy { .always }
    func extent(inputs: [Rect]) -> Rect { rect.outset(by: (3 * sigma).rounded(.up)) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let c = color.working, k = sigma > 0 ? 1 / (sigma * 2.0.squareRoot()) : 0
        func profile(_ p: Double, _ low: Double, _ high: Double) -> Double {
            guard sigma > 0 else { return p >= low && p < high ? 1 : 0 }
            return 0.5 * (erf((p - low) * k) - erf((p - high) * k))
        }
        let columns = (0..<destination.rect.width).map { profile(Double(destination.rect.x + $0) + 0.5, rect.minX, rect.maxX) }
        destination.forEachRow { y, row, count in
            let v = profile(Double(y) + 0.5, rect.minY, rect.maxY)
            for i in 0..<count { row[i] = c * Float(v * columns[i]) }
        }
    }
}
