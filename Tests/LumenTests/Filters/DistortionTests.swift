import Foundation
import Testing
@testable import Lumen

/// Distortions read their source through a coordinate image: pixel (x, y) holds
/// (x + 0.5, y + 0.5)/scale in red and green, a linear function that bilinear sampling
/// reproduces exactly, so every output pixel tells where it sampled. Each mapping is then
/// checked against a formula computed here.
@Suite struct DistortionTests {
    static let scale = 512.0
    /// 400 × 300 of coordinates, opaque.
    static let coordinates: Image = ColorKernel("coordinates") { p in
        SIMD4(Float(Double(p.coordinate.x) / scale), Float(Double(p.coordinate.y) / scale), 0, 1)
    }.apply(extent: Rect(x: 0, y: 0, width: 400, height: 300), arguments: [])

    /// Source positions the output sampled over `rect` (nil where it is not fully inside the input).
    static func sampledPositions(_ image: Image, in area: Rect) throws -> [(SIMD2<Double>, SIMD2<Double>?)] {
        let rect = PixelRect(covering: area).rect  // renders cover whole pixels
        let bitmap = try RenderContext(.init(threads: 1)).render(image, in: rect, format: .rgbaFloat)
        var result: [(SIMD2<Double>, SIMD2<Double>?)] = []
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x: x, row: row)
                let d = SIMD2(rect.minX + Double(x) + 0.5, rect.maxY - Double(row) - 0.5)
                result.append((d, p.w > 0.9999 ? SIMD2(Double(p.x), Double(p.y)) * scale : nil))
            }
        }
        return result
    }

    /// Heckbert's closed form for the projective map of the unit square to a quad
    /// (bl, br, tr, tl), an independent route to the homography.
    static func squareToQuad(_ q: [SIMD2<Double>]) -> (SIMD2<Double>) -> SIMD2<Double> {
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y)
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
        let den = dx1 * dy2 - dx2 * dy1
        let g = (sx * dy2 - dx2 * sy) / den, h = (dx1 * sy - sx * dy1) / den
        let a = x1 - x0 + g * x1, b = x3 - x0 + h * x3, c = x0
        let d = y1 - y0 + g * y1, e = y3 - y0 + h * y3, f = y0
        return { u in
            let w = g * u.x + h * u.y + 1
            return SIMD2((a * u.x + b * u.y + c) / w, (d * u.x + e * u.y + f) / w)
        }
    }

    static let quad: [SIMD2<Double>] = [SIMD2(30, 20), SIMD2(350, 60), SIMD2(300, 260), SIMD2(60, 230)]

    static func expectMapping(_ image: Image, in rect: Rect, tolerance: Double = 2e-3,
                              _ forward: (SIMD2<Double>) -> SIMD2<Double>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var checked = 0
        for (d, s) in try sampledPositions(image, in: rect) {
            guard let s, s.x > 1, s.y > 1, s.x < 399, s.y < 299 else { continue }
            let back = forward(s)
            guard abs(back.x - d.x) <= tolerance * 10, abs(back.y - d.y) <= tolerance * 10 else {
                Issue.record("output \(d) sampled \(s), which maps to \(back)", sourceLocation: sourceLocation)
                return
            }
            checked += 1
        }
        #expect(checked > 100, "only \(checked) pixels inside the source", sourceLocation: sourceLocation)
    }

    static func apply(_ name: String, _ values: [String: FilterValue]) throws -> Image {
        var all = values
        if all["image"] == nil { all["image"] = .image(coordinates) }
        return try FilterRegistry.descriptor(named: name)!.apply(all)
    }

    static func corners(_ q: [SIMD2<Double>]) -> [String: FilterValue] {
        ["bottomLeft": .vector([q[0].x, q[0].y]), "bottomRight": .vector([q[1].x, q[1].y]),
         "topRight": .vector([q[2].x, q[2].y]), "topLeft": .vector([q[3].x, q[3].y])]
    }

    /// Every output pixel of `name` over `rect` sampled `formula(d)` (nil: transparent).
    static func expectSource(_ name: String, _ values: [String: FilterValue], in rect: Rect = Rect(x: 0, y: 0, width: 400, height: 300),
                             sourceLocation: SourceLocation = #_sourceLocation, _ formula: (SIMD2<Double>) -> SIMD2<Double>?) throws {
        let image = try apply(name, values)
        var checked = 0
        for (d, s) in try sampledPositions(image, in: rect) {
            let expected = formula(d)
            guard let e = expected else {
                #expect(s == nil, "\(name) \(d): expected transparent, sampled \(String(describing: s))", sourceLocation: sourceLocation)
                if s != nil { return }
                continue
            }
            // Only where the whole bilinear footprint is inside the coordinate image.
            guard let s, e.x > 1, e.y > 1, e.x < 399, e.y < 299 else { continue }
            guard abs(s.x - e.x) < 0.01, abs(s.y - e.y) < 0.01 else {
                Issue.record("\(name) \(d): sampled \(s), formula \(e)", sourceLocation: sourceLocation)
                return
            }
            checked += 1
        }
        #expect(checked > 1000, "\(name): only \(checked) pixels checked", sourceLocation: sourceLocation)
    }

    static let c = SIMD2<Double>(200, 150)
    static func polar(_ d: SIMD2<Double>) -> (SIMD2<Double>, Double) { let v = d - c; return (v, (v * v).sum().squareRoot()) }
    static func rotate(_ v: SIMD2<Double>, _ a: Double) -> SIMD2<Double> { SIMD2(v.x * cos(a) - v.y * sin(a), v.x * sin(a) + v.y * cos(a)) }
    static let centre: [String: FilterValue] = ["center": .vector([200, 150])]

    static let radialChecks: [String: FilterReferenceTests.Check] = [
        "bumpDistortion": {
            try expectSource("bumpDistortion", centre.merging(["radius": .number(120), "scale": .number(0.6)]) { a, _ in a }) { d in
                let (v, r) = polar(d)
                guard r < 120 else { return d }
                let t = r / 120
                return c + v * (1 - 0.6 * pow(1 - t * t, 2))
            }
        },
        "bumpDistortionLinear": {
            try expectSource("bumpDistortionLinear", centre.merging(["radius": .number(80), "scale": .number(-0.5), "angle": .number(0.4)]) { a, _ in a }) { d in
                let n = SIMD2(-sin(0.4), cos(0.4)), across = ((d - c) * n).sum()
                guard abs(across) < 80 else { return d }
                let t = across / 80
                return d + n * (across * 0.5 * pow(1 - t * t, 2))
            }
        },
        "pinchDistortion": {
            try expectSource("pinchDistortion", centre.merging(["radius": .number(120), "scale": .number(1.2)]) { a, _ in a }) { d in
                let (v, r) = polar(d)
                guard r < 120, r > 0 else { return d }
                return c + v / r * (120 * pow(r / 120, 1 / 2.2))
            }
        },
        "twirlDistortion": {
            try expectSource("twirlDistortion", centre.merging(["radius": .number(120), "angle": .number(2)]) { a, _ in a }) { d in
                let (v, r) = polar(d)
                return r < 120 ? c + rotate(v, 2 * pow(1 - r / 120, 2)) : d
            }
        },
        "vortexDistortion": {
            try expectSource("vortexDistortion", centre.merging(["radius": .number(120), "angle": .number(3)]) { a, _ in a }) { d in
                let (v, r) = polar(d)
                return r < 120 ? c + rotate(v, 3 * pow(1 - r / 120, 4)) : d
            }
        },
        "holeDistortion": {
            try expectSource("holeDistortion", centre.merging(["radius": .number(50)]) { a, _ in a }) { d in
                let (v, r) = polar(d)
                return r > 50 ? c + v * ((r * r - 2500).squareRoot() / r) : nil
            }
        },
        "circleSplashDistortion": {
            try expectSource("circleSplashDistortion", centre.merging(["radius": .number(90)]) { a, _ in a }) { d in
                let (v, r) = polar(d)
                return r > 90 ? c + v * (90 / r) : d
            }
        },
        "circularWrap": {
            try expectSource("circularWrap", centre.merging(["radius": .number(60), "angle": .number(0.5)]) { a, _ in a },
                             in: Rect(x: -200, y: -250, width: 800, height: 800)) { d in
                let (v, r) = polar(d)
                var theta = atan2(v.y, v.x) - 0.5
                while theta < 0 { theta += 2 * .pi }
                while theta >= 2 * .pi { theta -= 2 * .pi }
                let x = 60 * theta
                return x <= 401 ? SIMD2(x, r - 60) : nil
            }
        },
        "torusLensDistortion": {
            try expectSource("torusLensDistortion", centre.merging(["radius": .number(90), "width": .number(60), "refraction": .number(1.5)]) { a, _ in a }) { d in
                let (v, r) = polar(d), u = (r - 90) / 30
                guard abs(u) < 1 else { return d }
                return c + v / r * (90 + 30 * sin(asin(u) / 1.5))
            }
        },
        "lightTunnel": {
            try expectSource("lightTunnel", centre.merging(["radius": .number(80), "rotation": .number(1.3)]) { a, _ in a }) { d in
                let (v, r) = polar(d)
                guard r > 80 else { return d }
                let theta = atan2(v.y, v.x) + 1.3 * log(r / 80)
                return c + SIMD2(cos(theta), sin(theta)) * 80
            }
        },
    ]

    /// The distortion, cell and tile reference tables (FilterReferenceTests joins them).
    static var tables: [[String: FilterReferenceTests.Check]] { [radialChecks, perspectiveChecks, cellChecks, tileChecks, moreChecks, lastChecks] }

    /// Every pixel of a tiling over the coordinate image: `relation(local d, local s)` holds,
    /// with positions in the tiling's frame (origin at the centre, x along the angle, in cells).
    static func checkTiling(_ name: String, _ extra: [String: FilterValue] = [:], sourceLocation: SourceLocation = #_sourceLocation,
                            _ relation: (SIMD2<Double>, SIMD2<Double>) -> Bool) throws {
        let angle = 0.3, width = 60.0
        var values: [String: FilterValue] = ["center": .vector([200, 150]), "angle": .number(angle), "width": .number(width)].merging(extra) { _, b in b }
        if FilterRegistry.descriptor(named: name)?.parameter("width") == nil { values["width"] = nil }
        func local(_ p: SIMD2<Double>) -> SIMD2<Double> {
            let v = p - c
            return SIMD2(v.x * cos(angle) + v.y * sin(angle), -v.x * sin(angle) + v.y * cos(angle)) / width
        }
        var checked = 0
        for (d, s) in try sampledPositions(try apply(name, values), in: Rect(x: 0, y: 0, width: 400, height: 300)) {
            guard let s, s.x > 1, s.y > 1, s.x < 399, s.y < 299 else { continue }
            guard relation(local(d), local(s)) else {
                Issue.record("\(name): \(d) sampled \(s) (local \(local(d)) → \(local(s)))", sourceLocation: sourceLocation)
                return
            }
            checked += 1
        }
        #expect(checked > 5000, "\(name): \(checked) pixels", sourceLocation: sourceLocation)
    }

    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 2e-3) -> Bool { Swift.abs(a - b) < tolerance }
    static func whole(_ x: Double) -> Bool { near(x, x.rounded(), 2e-3) }
    static func triangle(_ x: Double) -> Double { let m = x - 2 * (x / 2).rounded(.down); return m <= 1 ? m : 2 - m }
    /// Lattice coordinates for the acute angle (u along x, v along the slanted side).
    static func lattice(_ p: SIMD2<Double>, _ acute: Double) -> SIMD2<Double> { let v = p.y / sin(acute); return SIMD2(p.x - v * cos(acute), v) }
    /// Distance to the nearest point of the unit triangular lattice.
    static func latticeDistance(_ q: SIMD2<Double>) -> Double {
        let r3 = 3.0.squareRoot(), b = q.y * 2 / r3, a = q.x - b / 2
        var best = Double.infinity
        for db in -1...2 { for da in -1...2 {
            let pb = b.rounded(.down) + Double(db), pa = a.rounded(.down) + Double(da)
            let point = SIMD2(pa + pb / 2, pb * r3 / 2)
            best = min(best, ((q - point) * (q - point)).sum().squareRoot())
        } }
        return best
    }
    static func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

    static let moreChecks: [String: FilterReferenceTests.Check] = [
        "ninePartStretched": {
            try expectSource("ninePartStretched", ["breakpoint0": .vector([100, 80]), "breakpoint1": .vector([200, 160]), "growAmount": .vector([50, 30])],
                             in: Rect(x: 0, y: 0, width: 450, height: 330)) { d in
                func axis(_ v: Double, _ lo: Double, _ hi: Double, _ g: Double) -> Double { v < lo ? v : v > hi + g ? v - g : lo + (v - lo) * (hi - lo) / (hi - lo + g) }
                return SIMD2(axis(d.x, 100, 200, 50), axis(d.y, 80, 160, 30))
            }
        },
        "ninePartTiled": {
            try expectSource("ninePartTiled", ["breakpoint0": .vector([100, 80]), "breakpoint1": .vector([200, 160]), "growAmount": .vector([150, 100]), "flipYTiles": .number(1)],
                             in: Rect(x: 0, y: 0, width: 550, height: 400)) { d in
                func axis(_ v: Double, _ lo: Double, _ hi: Double, _ g: Double) -> (Double, Bool) {
                    if v < lo { return (v, false) }
                    if v > hi + g { return (v - g, false) }
                    let k = ((v - lo) / (hi - lo)).rounded(.down)
                    return (v - k * (hi - lo), Int(k) % 2 == 1)
                }
                let (x, _) = axis(d.x, 100, 200, 150)
                let (y, odd) = axis(d.y, 80, 160, 100)
                // Positions right at a tile seam may round either way.
                if Swift.abs((d.x - 100).truncatingRemainder(dividingBy: 100)) < 0.6 || Swift.abs((d.y - 80).truncatingRemainder(dividingBy: 80)) < 0.6 {
                    return SIMD2(-100, -100)  // outside the checked area: skipped
                }
                return SIMD2(x, odd ? 240 - y : y)
            }
        },
        "glassLozenge": {
            try expectSource("glassLozenge", ["point0": .vector([120, 150]), "point1": .vector([280, 170]), "radius": .number(60), "refraction": .number(1.6)]) { d in
                let a = SIMD2<Double>(120, 150), b = SIMD2<Double>(280, 170), ab = b - a
                let t = min(1, max(0, ((d - a) * ab).sum() / (ab * ab).sum())), q = a + ab * t, v = d - q, r = length(v)
                guard r < 60, r > 0 else { return d }
                return q + v / r * (60 * sin(asin(r / 60) / 1.6))
            }
        },
        "displacementDistortion": {
            let map = Image(color: Color(red: 0.75, green: 0.25, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 400, height: 300))
            let offset = (SIMD2(CatalogueReferences.linear(0.75), CatalogueReferences.linear(0.25)) - 0.5) * 80
            try expectSource("displacementDistortion", ["displacementImage": .image(map), "scale": .number(80)]) { d in d + offset }
        },
        "glassDistortion": {
            // A texture whose luma rises 1/400 per pixel along x: the gradient is (1/400, 0).
            let texture = ColorKernel("rampX") { p in let v = Float(Double(p.coordinate.x) / 400); return SIMD4(v, v, v, 1) }
                .apply(extent: .infinite, arguments: [])
            try expectSource("glassDistortion", ["textureImage": .image(texture), "scale": .number(200), "center": .vector([0, 0])]) { d in
                d + SIMD2(200.0 / 400, 0)
            }
        },
        "clamp": {
            try expectSource("clamp", ["extent": .vector([100, 50, 150, 120])], in: Rect(x: -50, y: -50, width: 500, height: 400)) { d in
                SIMD2(min(max(d.x, 100.5), 249.5), min(max(d.y, 50.5), 169.5))
            }
        },
    ]

    static let tileChecks: [String: FilterReferenceTests.Check] = [
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
    ]

    /// The pixels' sampled positions, for cell filters (nil where transparent or white).
    static func cellSamples(_ name: String, _ values: [String: FilterValue]) throws -> [(SIMD2<Double>, SIMD2<Double>?)] {
        try sampledPositions(try apply(name, values), in: Rect(x: 40, y: 40, width: 300, height: 200)).map { d, s in
            (d, s.flatMap { $0.x > 0 && $0.y > 0 && abs($0.x - 512) > 1 ? $0 : nil })  // white ground reads as (512, 512)
        }
    }

    static let cellChecks: [String: FilterReferenceTests.Check] = [
        "pixellate": {
            let values: [String: FilterValue] = ["center": .vector([3, 2]), "scale": .number(5)]
            try CatalogueReferences.checkNeighbourhood("pixellate", values, reach: 0) { x, y in
                let cx = 3 + Int((Double(x - 3) / 5).rounded(.down)) * 5, cy = 2 + Int((Double(y - 2) / 5).rounded(.down)) * 5
                var sum = SIMD4<Double>.zero
                for j in cy..<(cy + 5) { for i in cx..<(cx + 5) { sum += CatalogueReferences.samplePixel(i, j) } }
                return sum / 25
            }
        },
        "hexagonalPixellate": {
            // Every pixel samples the lattice point nearest to it (brute force over the lattice).
            let width = 14.0, size = width / 3.0.squareRoot()
            for (d, s) in try cellSamples("hexagonalPixellate", centre.merging(["scale": .number(width)]) { a, _ in a }) {
                guard let s else { continue }
                let p = d - c
                var best = SIMD2<Double>.zero, bestDistance = Double.infinity
                let j0 = Int((p.y / (1.5 * size)).rounded())
                for j in (j0 - 2)...(j0 + 2) {
                    let i0 = Int((p.x / (size * 3.0.squareRoot()) - Double(j) / 2).rounded())
                    for i in (i0 - 2)...(i0 + 2) {
                        let q = SIMD2(size * 3.0.squareRoot() * (Double(i) + Double(j) / 2), size * 1.5 * Double(j))
                        let dist = ((q - p) * (q - p)).sum()
                        if dist < bestDistance - 1e-9 { bestDistance = dist; best = q }
                    }
                }
                guard abs((c + best - s).x) < 0.02 && abs((c + best - s).y) < 0.02 else {
                    Issue.record("\(d) sampled \(s), nearest hexagon centre \(c + best)")
                    return
                }
            }
        },
        "crystallize": {
            // Voronoi: each pixel's seed is the nearest of all the seeds the image uses.
            let samples = try cellSamples("crystallize", centre.merging(["radius": .number(25)]) { a, _ in a })
            var seeds: [SIMD2<Double>] = []
            for case let (_, s?) in samples where !seeds.contains(where: { abs($0.x - s.x) < 0.05 && abs($0.y - s.y) < 0.05 }) { seeds.append(s) }
            #expect(seeds.count > 40 && seeds.count < 200, "\(seeds.count) cells")
            for (d, s) in samples {
                guard let s else { continue }
                let own = ((s - d) * (s - d)).sum()
                guard let nearer = seeds.first(where: { ((($0 - d) * ($0 - d)).sum()) < own - 0.5 }) else { continue }
                Issue.record("\(d) took seed \(s) but \(nearer) is nearer")
                return
            }
        },
        "pointillize": {
            let samples = try cellSamples("pointillize", centre.merging(["radius": .number(12)]) { a, _ in a })
            var seeds: [SIMD2<Double>] = []
            for case let (_, s?) in samples where !seeds.contains(where: { abs($0.x - s.x) < 0.05 && abs($0.y - s.y) < 0.05 }) { seeds.append(s) }
            #expect(seeds.count > 20)
            for (d, s) in samples {
                if let s {
                    #expect(((s - d) * (s - d)).sum() <= 12 * 12 + 0.5, "\(d) is outside its dot at \(s)")
                } else {
                    #expect(!seeds.contains { (($0 - d) * ($0 - d)).sum() < 12 * 12 - 0.5 }, "\(d) is white inside a dot")
                }
            }
        },
        "highlightShadowAdjust": {
            for radius in [0.0, 2.0] {
                let base = radius > 0 ? CatalogueReferences.blurred(radius) : FilterReferenceTests.sample
                let out = try FilterReferenceTests.apply("highlightShadowAdjust", ["image": .image(FilterReferenceTests.sample), "radius": .number(radius),
                                                                                 "shadowAmount": .number(0.7), "highlightAmount": .number(0.4)])
                try FilterReferenceTests.expectEach(FilterReferenceTests.sample, base, tolerance: 3e-5, { p, b, _, _ in
                    let luma = b.w > 0 ? (SIMD3(b.x, b.y, b.z) * CatalogueReferences.luma).sum() / b.w : 0
                    let e = CatalogueReferences.srgb(min(1, max(0, luma)))
                    let gain = pow(2, 2 * 0.7 * (1 - e) * (1 - e) - 2 * 0.6 * e * e)
                    return SIMD4(p.x * gain, p.y * gain, p.z * gain, p.w)
                }, of: out)
            }
        },
    ]

    static let perspectiveChecks: [String: FilterReferenceTests.Check] = [
        "perspectiveTransform": {
            let out = try apply("perspectiveTransform", corners(quad))
            #expect(abs(out.extent.minX - 30) < 1e-9 && abs(out.extent.minY - 20) < 1e-9 && abs(out.extent.width - 320) < 1e-9 && abs(out.extent.height - 240) < 1e-9)
            let toQuad = squareToQuad(quad)
            try expectMapping(out, in: out.extent) { s in toQuad(SIMD2(s.x / 400, s.y / 300)) }
        },
        "perspectiveTransformWithExtent": {
            let out = try apply("perspectiveTransformWithExtent", corners(quad).merging(["extent": .vector([100, 50, 200, 150])]) { a, _ in a })
            let toQuad = squareToQuad(quad)
            try expectMapping(out, in: Rect(x: 0, y: 0, width: 400, height: 300)) { s in toQuad(SIMD2((s.x - 100) / 200, (s.y - 50) / 150)) }
        },
        "perspectiveCorrection": {
            // The quad becomes an upright rectangle at its bottom-left point: the inverse map.
            let out = try apply("perspectiveCorrection", corners(quad))
            let w = max(((quad[2] - quad[3]) * (quad[2] - quad[3])).sum().squareRoot(), ((quad[1] - quad[0]) * (quad[1] - quad[0])).sum().squareRoot())
            let h = max(((quad[3] - quad[0]) * (quad[3] - quad[0])).sum().squareRoot(), ((quad[2] - quad[1]) * (quad[2] - quad[1])).sum().squareRoot())
            #expect(abs(out.extent.width - w) < 1e-9 && abs(out.extent.height - h) < 1e-9 && out.extent.minX == 30)
            let toQuad = squareToQuad(quad)
            // Output d sampled s: s must be the quad point of d's place in the rectangle.
            var checked = 0
            for (d, s) in try sampledPositions(out, in: out.extent) {
                guard let s else { continue }
                let expected = toQuad(SIMD2((d.x - 30) / w, (d.y - 20) / h))
                #expect(abs(expected.x - s.x) < 0.02 && abs(expected.y - s.y) < 0.02, "\(d): \(s) vs \(expected)")
                if abs(expected.x - s.x) >= 0.02 { return }
                checked += 1
            }
            #expect(checked > 1000)
        },
    ]

    /// Distortions of a 300 × 1200 JPEG cropped near its top decode only the rows the
    /// crop's source needs (the file is read top down, in bands of 16 rows).
    @Test(arguments: ["perspectiveTransform", "bumpDistortion", "twirlDistortion", "perspectiveRotate", "stretchCrop"])
    func aCropOfADistortedImageDecodesOnlyWhatItNeeds(_ name: String) throws {
        let url = try RenderTests.tallJPEG()
        var values: [String: FilterValue] = ["image": .image(try Image(contentsOf: url))]
        switch name {
        case "perspectiveTransform":
            values.merge(Self.corners([SIMD2(0, 0), SIMD2(300, 20), SIMD2(320, 1200), SIMD2(-10, 1180)])) { a, _ in a }
        case "perspectiveRotate":
            values["roll"] = .number(0.01); values["focalLength"] = .number(50)
        case "stretchCrop":
            values["size"] = .vector([300, 1200]); values["cropAmount"] = .number(0); values["centerStretchAmount"] = .number(0.02)
        default:
            values["center"] = .vector([150, 1050]); values["radius"] = .number(60)
        }
        let image = try FilterRegistry.descriptor(named: name)!.apply(values).cropped(to: Rect(x: 100, y: 1000, width: 50, height: 50))
        let context = RenderContext(.init(threads: 2, tileWidth: 64, tileHeight: 64))
        _ = try context.render(image)
        let decoded = try #require(context.lastReport).decodedRows
        // The crop's source lies within ~60 rows of it: 1200 − 1000 + 60 + a band.
        #expect(decoded <= 1200 - 1000 + 60 + 16 + 16, "\(name) decoded \(decoded) of 1200 rows")
    }
}
