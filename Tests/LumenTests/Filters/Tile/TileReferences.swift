import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Tile/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension CoordinateMappingTests {
    static let tileReferences: [String: FilterReferenceTests.Check] = [
        "clamp": {
            try expectSource("clamp", ["extent": .vector([100, 50, 150, 120])], in: Rect(x: -50, y: -50, width: 500, height: 400)) { d in
                SIMD2(min(max(d.x, 100.5), 249.5), min(max(d.y, 50.5), 169.5))
            }
        },
        "fourfoldTranslatedTile": {
            try checkTiling("fourfoldTranslatedTile", ["acuteAngle": .number(1.2)]) { d, s in
                let a = lattice(d, 1.2) - lattice(s, 1.2), ls = lattice(s, 1.2)
                return whole(a.x) && whole(a.y) && ls.x > -1e-3 && ls.x < 1.001 && ls.y > -1e-3 && ls.y < 1.001
            }
        },
        "parallelogramTile": {
            try checkTiling("parallelogramTile", ["acuteAngle": .number(1.2)]) { d, s in
                let ld = lattice(d, 1.2), ls = lattice(s, 1.2)
                return near(ls.x, triangle(ld.x)) && near(ls.y, triangle(ld.y))
            }
        },
        "fourfoldReflectedTile": {
            try checkTiling("fourfoldReflectedTile", ["acuteAngle": .number(1.5)]) { d, s in
                let ld = lattice(d, 1.5), ls = lattice(s, 1.5)
                return near(ls.x, triangle(2 * ld.x) / 2) && near(ls.y, triangle(2 * ld.y) / 2)
            }
        },
        "fourfoldRotatedTile": {
            try checkTiling("fourfoldRotatedTile") { d, s in
                // s is in the first cell and is d's place in its cell turned by a multiple of 90°.
                let f = d - SIMD2(d.x.rounded(.down), d.y.rounded(.down))
                let turns = [f, SIMD2(f.y, 1 - f.x), SIMD2(1 - f.x, 1 - f.y), SIMD2(1 - f.y, f.x)]
                return turns.contains { near($0.x, s.x) && near($0.y, s.y) }
            }
        },
        "eightfoldReflectedTile": {
            try checkTiling("eightfoldReflectedTile") { d, s in
                let u = triangle(2 * d.x) / 2, v = triangle(2 * d.y) / 2
                return near(s.x, max(u, v)) && near(s.y, min(u, v))
            }
        },
        "glideReflectedTile": {
            try checkTiling("glideReflectedTile") { d, s in
                let fx = d.x - d.x.rounded(.down), fy = d.y - d.y.rounded(.down)
                let odd = Int(d.y.rounded(.down)) % 2 != 0
                return near(s.y, fy) && near(s.x, odd ? 1 - fx : fx)
            }
        },
        "triangleTile": { try checkTiling("triangleTile") { d, s in near(length(s), latticeDistance(d)) && atan2(s.y, s.x) >= -1e-3 && atan2(s.y, s.x) <= 2 * .pi / 3 + 1e-3 } },
        "sixfoldRotatedTile": { try checkTiling("sixfoldRotatedTile") { d, s in near(length(s), latticeDistance(d)) && atan2(s.y, s.x) >= -1e-3 && atan2(s.y, s.x) <= .pi / 3 + 1e-3 } },
        "sixfoldReflectedTile": { try checkTiling("sixfoldReflectedTile") { d, s in near(length(s), latticeDistance(d)) && atan2(s.y, s.x) >= -1e-3 && atan2(s.y, s.x) <= .pi / 6 + 1e-3 } },
        "twelvefoldReflectedTile": { try checkTiling("twelvefoldReflectedTile") { d, s in near(length(s), latticeDistance(d)) && atan2(s.y, s.x) >= -1e-3 && atan2(s.y, s.x) <= .pi / 12 + 1e-3 } },
        "kaleidoscope": {
            // Same distance from the centre; direction folded into the first half-wedge of 2π/5.
            try checkTiling("kaleidoscope", ["count": .number(5), "angle": .number(0.3)]) { d, s in
                let theta = atan2(s.y, s.x)
                return near(length(s), length(d)) && theta >= -1e-3 && theta <= .pi / 5 + 1e-3
            }
        },
        "affineTile": {
            // The tile is a 90 × 70 crop; the plane is scaled by 0.8 and rotated: T⁻¹(d) − s is a whole number of tiles.
            let tile = coordinates.cropped(to: Rect(x: 100, y: 80, width: 90, height: 70))
            let t = AffineTransform(rotationAngle: 0.25).concatenating(AffineTransform(scaleX: 0.8, y: 0.8))
            let inverse = t.inverted()!
            var checked = 0
            for (d, s) in try sampledPositions(try apply("affineTile", ["image": .image(tile), "transform": .transform(t)]), in: Rect(x: 0, y: 0, width: 300, height: 200)) {
                guard let s, s.x > 101, s.x < 189, s.y > 81, s.y < 149 else { continue }
                let u = SIMD2(inverse.a * d.x + inverse.c * d.y + inverse.tx, inverse.b * d.x + inverse.d * d.y + inverse.ty)
                let k = (u - s) / SIMD2(90, 70)
                guard whole(k.x) && whole(k.y) else { Issue.record("\(d) sampled \(s); T⁻¹(d) = \(u)"); return }
                checked += 1
            }
            #expect(checked > 5000)
        },
        "opTile": {
            try expectSource("opTile", ["center": .vector([200, 150]), "width": .number(40), "scale": .number(1.5), "angle": .number(0.4)]) { d in
                let cell = SIMD2(((d.x - 200) / 40).rounded(.down), ((d.y - 150) / 40).rounded(.down))
                let m = SIMD2(200, 150) + (cell + 0.5) * 40
                // Near a cell's edge a bilinear sample can reach over into the next cell's source.
                let local = d - (SIMD2(200, 150) + cell * 40)
                guard local.x > 1, local.x < 39, local.y > 1, local.y < 39 else { return SIMD2(-1, -1) }
                return m + rotate((d - m) * 1.5, 0.4)
            }
        },
        "triangleKaleidoscope": {
            // Reflections keep distances to the grid's corners and lines: the folded point
            // lies in the triangle, as far from its nearest corner and side as d is from
            // the grid's nearest corner and line.
            let corner = SIMD2(170.0, 120.0), size = 70.0, rotation = 0.35
            let values: [String: FilterValue] = ["point": .vector([corner.x, corner.y]), "size": .number(size), "rotation": .number(rotation), "decay": .number(1)]
            func local(_ p: SIMD2<Double>) -> SIMD2<Double> { rotate(p - corner, -rotation) / size }
            let h = 3.0.squareRoot() / 2
            func lineDistance(_ q: SIMD2<Double>) -> Double {
                // The three families of grid lines: y = k·h and their turns by ±60°.
                [SIMD2(0.0, 1.0), SIMD2(-h, 0.5), SIMD2(h, 0.5)].map { n in
                    let t = (q * n).sum() / h
                    return abs(t - t.rounded()) * h
                }.min()!
            }
            var checked = 0
            for (d, s) in try sampledPositions(try apply("triangleKaleidoscope", values), in: Rect(x: 0, y: 0, width: 400, height: 300)) {
                guard let s else { continue }
                let qd = local(d), qs = local(s)
                // Inside the triangle (0,0), (1,0), (½, h), with bilinear slack.
                let inside = qs.y > -0.02 && (qs * SIMD2(-h, 0.5)).sum() < 0.02 && ((qs - SIMD2(1, 0)) * SIMD2(h, 0.5)).sum() < 0.02
                let cornerD = latticeDistance(qd)
                let cornerS = [SIMD2(0.0, 0), SIMD2(1.0, 0), SIMD2(0.5, h)].map { length(qs - $0) }.min()!
                let ok = inside && abs(cornerD - cornerS) < 2e-3 && abs(lineDistance(qd) - lineDistance(qs)) < 2e-3
                if !ok { Issue.record("\(d) sampled \(s): local \(qd) → \(qs), corner distances \(cornerD) \(cornerS)"); return }
                checked += 1
            }
            #expect(checked > 50000)
            // The decay dims by decay^(distance from the centroid / size).
            let faded = try apply("triangleKaleidoscope", values.merging(["decay": .number(0.6)]) { _, b in b })
            let plain = try FilterReferenceTests.pixels(try apply("triangleKaleidoscope", values), Rect(x: 0, y: 0, width: 400, height: 300))
            let dim = try FilterReferenceTests.pixels(faded, Rect(x: 0, y: 0, width: 400, height: 300))
            let centroid = corner + rotate(SIMD2(0.5, h / 3) * size, rotation)
            for (x, y) in [(10, 10), (200, 150), (390, 290), (50, 250)] {
                let d = SIMD2(Double(x) + 0.5, Double(y) + 0.5), k = pow(0.6, length(d - centroid) / size)
                let a = FilterReferenceTests.value(plain, x: x, y: y), b = FilterReferenceTests.value(dim, x: x, y: y)
                #expect(FilterReferenceTests.close(b, a * k, 1e-5), "(\(x), \(y)) \(b) vs \(a * k)")
            }
        },
    ]
}
