import LumenPlatform

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
