import LumenPlatform

extension FilterDescriptor {
    /// A filled rectangle with corners rounded by `radius` (clamped to half the shorter
    /// side), antialiased by the signed distance to its outline over one pixel; transparent outside.
    static let roundedRectangle = FilterDescriptor(
        name: "roundedRectangle", coreImageName: "CIRoundedRectangleGenerator", category: .generator,
        summary: "A filled rectangle with rounded corners.",
        details: "coverage = clamp(0.5 − sd, 0, 1), sd = signed distance to the rounded outline at the pixel centre; colour × coverage.",
        parameters: [.reductionExtent.with(default: [0, 0, 100, 100], "The rectangle."),
                     .number("radius", .distance, default: 10, min: 0, max: 1e6, "Corner radius in pixels."),
                     .color("color", default: .white, "The fill color.")]
    ) { args in
        try shape(args, stroke: nil)
    }

    /// The outline of the same rounded rectangle, `width` pixels wide, centred on it.
    static let roundedRectangleStroke = FilterDescriptor(
        name: "roundedRectangleStroke", coreImageName: "CIRoundedRectangleStrokeGenerator", category: .generator,
        summary: "The outline of a rectangle with rounded corners.",
        details: "coverage = clamp(width/2 + 0.5 − |sd|, 0, 1) around the rounded outline.",
        parameters: [.reductionExtent.with(default: [0, 0, 100, 100], "The rectangle."),
                     .number("radius", .distance, default: 10, min: 0, max: 1e6, "Corner radius in pixels."),
                     .color("color", default: .white, "The stroke color."),
                     .number("width", .distance, default: 10, min: 0, max: 1e6, "Stroke width in pixels.")]
    ) { args in
        try shape(args, stroke: args.number("width"))
    }
}

/// Signed distance to a rounded rectangle (negative inside).
@inline(__always)
func roundedRectangleDistance(_ p: SIMD2<Double>, _ rect: Rect, _ radius: Double) -> Double {
    let center = SIMD2(rect.midX, rect.midY), half = SIMD2(rect.width / 2, rect.height / 2) - radius
    let q = SIMD2(Swift.abs(p.x - center.x), Swift.abs(p.y - center.y)) - half
    let outside = SIMD2(max(q.x, 0), max(q.y, 0))
    return (outside * outside).sum().squareRoot() + min(max(q.x, q.y), 0) - radius
}

struct RoundedRectangle: ImageKernel {
    let rect: Rect
    let radius: Double
    let color: Color
    let stroke: Double?

    var name: String { stroke == nil ? "roundedRectangle" : "roundedRectangleStroke" }
    var cachePolicy: CachePolicy { .always }
    func extent(inputs: [Rect]) -> Rect { rect.outset(by: (stroke ?? 0) / 2 + 1) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let c = color.working, radius = min(self.radius, min(rect.width, rect.height) / 2)
        destination.forEachRow { y, row, count in
            for i in 0..<count {
                let d = roundedRectangleDistance(SIMD2(Double(destination.rect.x + i) + 0.5, Double(y) + 0.5), rect, radius)
                let coverage = stroke.map { min(1, max(0, $0 / 2 + 0.5 - Swift.abs(d))) } ?? min(1, max(0, 0.5 - d))
                row[i] = c * Float(coverage)
            }
        }
    }
}
