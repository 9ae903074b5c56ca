import LumenPlatform

extension FilterDescriptor {
    /// A three-mirror kaleidoscope: the equilateral triangle with a corner at `point`,
    /// sides of `size`, turned by `rotation`, is reflected across its sides over and over
    /// to tile the plane (the p3m1 pattern); each copy is dimmed by decay^(r/size), r the
    /// distance from the triangle's centre, so the pattern fades away from it. Infinite.
    static let triangleKaleidoscope = FilterDescriptor(
        name: "triangleKaleidoscope", coreImageName: "CITriangleKaleidoscope", category: .tileEffect,
        summary: "Reflects a triangle of the image across its sides to tile the plane, fading with distance.",
        details: "Fold d by reflections in the triangular grid of side size into the triangle at point (turned by rotation); multiply by decay^(|d − centroid|/size); infinite.",
        parameters: [.inputImage,
                     .point("point", default: [150, 150], "A corner of the triangle."),
                     .number("size", .distance, default: 700, min: 1, max: 1e6, "Side of the triangle, pixels."),
                     .number("rotation", .angle, default: 5.92429, min: -1e4, max: 1e4, "Turn of the triangle, radians."),
                     .number("decay", default: 0.85, min: 0, max: 1, identity: 1, "Brightness kept per triangle side of distance from the centre.")]
    ) { args in
        let p = args.point("point")
        let mirror = TriangleMirror(corner: SIMD2(p.x, p.y), size: args.number("size"), rotation: args.number("rotation"))
        let folded = mirror.apply(to: try args.image("image"))
        let decay = args.number("decay")
        guard decay < 1 else { return folded }
        let centroid = mirror.centroid, size = mirror.size
        let fade = ColorKernel("triangleKaleidoscopeDecay", pixel: { px in
            let v = SIMD2<Double>(Double(px.coordinate.x), Double(px.coordinate.y)) - SIMD2(px.values[0], px.values[1])
            let k = Float(pow(px.values[3], (v * v).sum().squareRoot() / px.values[2]))
            return px[0] * k
        })
        return fade.apply(extent: folded.extent, arguments: [folded, centroid.x, centroid.y, size, decay])
    }
}

/// Folds the plane into an equilateral triangle by reflections in its sides.
struct TriangleMirror: WarpMapping {
    let corner: SIMD2<Double>
    let size: Double
    let rotation: Double
    var name: String { "triangleKaleidoscope" }

    static let h = 3.0.squareRoot() / 2

    func extent(input: Rect) -> Rect { .infinite }

    /// The triangle's centre in the plane.
    var centroid: SIMD2<Double> { toPlane(SIMD2(0.5, Self.h / 3)) }

    private func toLocal(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let v = p - corner, (s, c) = (sin(rotation), cos(rotation))
        return SIMD2(v.x * c + v.y * s, -v.x * s + v.y * c) / size
    }

    private func toPlane(_ q: SIMD2<Double>) -> SIMD2<Double> {
        let (s, c) = (sin(rotation), cos(rotation)), v = q * size
        return corner + SIMD2(v.x * c - v.y * s, v.x * s + v.y * c)
    }

    /// q folded into the unit triangle (0, 0), (1, 0), (½, √3/2).
    static func fold(_ p: SIMD2<Double>) -> SIMD2<Double> {
        var q = p
        // The reflections include translations by the lattice (0, √3), (3/2, √3/2): reduce by them first.
        let b = q.y / (2 * h) - q.x / 3, a = 2 * q.x / 3  // q = a·(3/2, √3/2) + b·(0, √3)
        q -= SIMD2(1.5, h) * a.rounded(.down) + SIMD2(0, 2 * h) * b.rounded(.down)
        // Then reflect across whichever side the point is beyond, until it is inside.
        let n1 = SIMD2(-h, 0.5), n2 = SIMD2(h, 0.5)  // outward unit normals of the sides through (0, 0) and (1, 0)
        for _ in 0..<16 {
            if q.y < 0 { q.y = -q.y; continue }
            let d1 = (q * n1).sum()  // beyond the left side when > 0
            if d1 > 0 { q -= 2 * d1 * n1; continue }
            let d2 = ((q - SIMD2(1, 0)) * n2).sum()  // beyond the right side when > 0
            if d2 > 0 { q -= 2 * d2 * n2; continue }
            break
        }
        return q
    }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let q = toLocal(d)
        guard Swift.abs(q.x) < 1e9, Swift.abs(q.y) < 1e9 else { return nil }
        return toPlane(Self.fold(q))
    }
}
