import Foundation

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

extension FilterDescriptor {
    /// Line segments (each mesh entry [x0, y0, x1, y1]) of `width` pixels, antialiased by
    /// the distance to the nearest segment; the image is the union of all of them.
    static let meshGenerator = FilterDescriptor(
        name: "meshGenerator", coreImageName: "CIMeshGenerator", category: .generator,
        summary: "Draws line segments.",
        details: "coverage = clamp(width/2 + 0.5 − distance to the nearest segment, 0, 1); mesh = [x0, y0, x1, y1, …].",
        parameters: [ParameterDescriptor("mesh", .vector, default: .vector([0, 0, 100, 0, 100, 0, 50, 86, 50, 86, 0, 0]),
                                         "Segments as x0, y0, x1, y1, one after another (a triangle by default, for show)."),
                     .number("width", .distance, default: 1.5, min: 0, max: 1e4, "Line width in pixels."),
                     .color("color", default: .white, "The line color.")]
    ) { args in
        let v = args.vector("mesh")
        guard v.count % 4 == 0, v.count <= 4 * 100_000 else {
            throw LumenError.invalidValue(filter: "meshGenerator", key: "mesh", reason: "expected groups of 4 numbers (x0, y0, x1, y1), at most 100000 segments")
        }
        guard !v.isEmpty else { return .empty }
        return Mesh(segments: v, width: args.number("width"), color: args.color("color")).apply()
    }
}

struct Mesh: ImageKernel {
    let segments: [Double]
    let width: Double
    let color: Color
    var name: String { "meshGenerator" }
    var cachePolicy: CachePolicy { .always }

    func extent(inputs: [Rect]) -> Rect {
        let xs = stride(from: 0, to: segments.count, by: 2).map { segments[$0] }, ys = stride(from: 1, to: segments.count, by: 2).map { segments[$0] }
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!).outset(by: width / 2 + 1)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let c = color.working, reach = width / 2 + 0.5
        let r = destination.rect.rect.outset(by: reach)
        // Only the segments whose box meets this rectangle.
        var near: [(SIMD2<Double>, SIMD2<Double>)] = []
        for s in stride(from: 0, to: segments.count, by: 4) {
            let a = SIMD2(segments[s], segments[s + 1]), b = SIMD2(segments[s + 2], segments[s + 3])
            if max(a.x, b.x) >= r.minX, min(a.x, b.x) <= r.maxX, max(a.y, b.y) >= r.minY, min(a.y, b.y) <= r.maxY { near.append((a, b)) }
        }
        destination.forEachRow { y, row, count in
            for i in 0..<count {
                let p = SIMD2(Double(destination.rect.x + i) + 0.5, Double(y) + 0.5)
                var best = Double.infinity
                for (a, b) in near {
                    let ab = b - a, length2 = (ab * ab).sum()
                    let t = length2 > 0 ? min(1, max(0, ((p - a) * ab).sum() / length2)) : 0
                    let q = a + ab * t
                    best = min(best, ((p - q) * (p - q)).sum())
                }
                row[i] = c * Float(min(1, max(0, reach - best.squareRoot())))
            }
        }
    }
}
