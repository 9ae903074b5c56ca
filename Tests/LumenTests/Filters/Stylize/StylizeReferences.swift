import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Stylize/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let stylizeReferences: [String: Check] = [
        "bloom": {
            try checkCombine("bloom", ["radius": .number(2), "intensity": .number(0.7)], sigma: 2) { p, g in p + g * 0.7 - p * g * 0.7 }
        },
        "gloom": {
            try checkCombine("gloom", ["radius": .number(2), "intensity": .number(0.7)], sigma: 2) { p, g in
                let m = SIMD4<Double>(repeating: 0.3) + g * 0.7
                return SIMD4(p.x * m.x, p.y * m.y, p.z * m.z, p.w)
            }
        },
        "edges": {
            try checkNeighbourhood("edges", ["intensity": .number(1.5)]) { x, y in
                let (gx, gy) = sobelOf(x, y), m = (gx * gx + gy * gy).squareRoot() * 1.5
                return SIMD4(m.x, m.y, m.z, samplePixel(x, y).w)
            }
        },
        "sobelGradients": {
            try checkNeighbourhood("sobelGradients", [:]) { x, y in
                let (gx, gy) = sobelOf(x, y), l4 = SIMD4(luma.x, luma.y, luma.z, 0)
                return SIMD4((gx * l4).sum(), (gy * l4).sum(), 0, 1)
            }
        },
        "cannyEdgeDetector": {
            // A bright 40 × 40 square on black: one closed outline, one pixel thick, nothing elsewhere.
            let square = Image(color: .white).cropped(to: Rect(x: 30, y: 30, width: 40, height: 40))
                .composited(over: Image(color: .black).cropped(to: Rect(x: 0, y: 0, width: 100, height: 100)))
            let out = try F.pixels(try F.apply("cannyEdgeDetector", ["image": .image(square)]), Rect(x: 0, y: 0, width: 100, height: 100))
            var count = 0
            for y in 0..<100 { for x in 0..<100 where F.value(out, x: x, y: y).x == 1 {
                count += 1
                let nearEdge = (x >= 27 && x <= 72 && y >= 27 && y <= 72) && !(x >= 33 && x <= 66 && y >= 33 && y <= 66)
                #expect(nearEdge, "an edge at (\(x), \(y)), away from the square's outline")
            } }
            #expect(count >= 4 * 36 && count <= 4 * 44, "\(count) edge pixels for a 40-pixel square")
            // Stricter thresholds find fewer edges.
            let none = try F.pixels(try F.apply("cannyEdgeDetector", ["image": .image(square), "thresholdHigh": .number(5), "thresholdLow": .number(4)]),
                                    Rect(x: 0, y: 0, width: 100, height: 100))
            #expect(stride(from: 0, to: none.samples.count, by: 4).allSatisfy { none.samples[$0] == 0 })
        },
        "comicEffect": {
            let out = try F.pixels(try F.apply("comicEffect", ["image": .image(flat)]), Rect(x: 5, y: 5, width: 30, height: 20))
            let posterized = try F.pixels(try F.apply("colorPosterize", ["image": .image(flat), "levels": .number(4)]), Rect(x: 5, y: 5, width: 30, height: 20))
            #expect(out == posterized, "a flat area gets no ink")
            // The white half (x ≥ 20) is inked black next to the edge, and only there.
            let inked = try inkColumns("comicEffect") { $0.x < 0.5 }.filter { $0 >= 20 }
            #expect(inked.contains(20) && inked.allSatisfy { $0 <= 23 }, "ink on the white side: \(inked.sorted())")
        },
        "edgeWork": {
            let out = try F.pixels(try F.apply("edgeWork", ["image": .image(flat)]), Rect(x: 8, y: 8, width: 24, height: 14))
            #expect(stride(from: 0, to: out.samples.count, by: 4).allSatisfy { out.samples[$0] == 1 }, "white where nothing changes")
            let black = try inkColumns("edgeWork", ["radius": .number(1)]) { $0.x < 0.05 }
            #expect(!black.isEmpty && black.allSatisfy { (15...24).contains($0) }, "\(black.sorted())")
        },
        "lineOverlay": {
            let out = try F.pixels(try F.apply("lineOverlay", ["image": .image(flat)]), Rect(x: 5, y: 5, width: 30, height: 20))
            #expect(stride(from: 3, to: out.samples.count, by: 4).allSatisfy { out.samples[$0] == 0 }, "transparent where nothing changes")
            let lines = try inkColumns("lineOverlay") { $0.w > 0.9 && $0.x == 0 }
            #expect(!lines.isEmpty && lines.allSatisfy { (17...22).contains($0) }, "\(lines.sorted())")
        },
        "spotLight": {
            let position = SIMD3<Double>(30, 20, 25), target = SIMD3<Double>(5, 5, 0)
            let direction = (target - position) / ((target - position) * (target - position)).sum().squareRoot()
            let light = Color(red: 1, green: 0.8, blue: 0.6), l = straight(light)
            let out = try F.apply("spotLight", ["image": .image(F.sample), "lightPosition": .vector([30, 20, 25]), "lightPointsAt": .vector([5, 5, 0]),
                                                "brightness": .number(2), "concentration": .number(0.5), "color": .color(light)])
            try F.expectEach(F.sample, F.sample, tolerance: 3e-5, { p, _, x, y in
                var v = position - SIMD3(Double(x) + 0.5, Double(y) + 0.5, 0)
                v /= (v * v).sum().squareRoot()
                let k = 2 * pow(max(0, -(v * direction).sum()), 2) * max(0, v.z)
                return SIMD4(p.x * k * l.x, p.y * k * l.y, p.z * k * l.z, p.w)
            }, of: out)
        },
        "distanceGradientFromRedMask": {
            let dots = [(3, 4), (15, 9), (9, 1), (10, 1)]
            let out = try F.apply("distanceGradientFromRedMask", ["image": .image(redDots), "maximumDistance": .number(6)])
            #expect(out.extent.isInfinite)
            let area = Rect(x: -8, y: -8, width: 35, height: 29)  // also outside the mask image
            let got = try grid(out, area)
            for y in -8..<21 { for x in -8..<27 {
                let d = dots.map { (Double(($0.0 - x) * ($0.0 - x) + ($0.1 - y) * ($0.1 - y))).squareRoot() }.min()!
                let v = min(d, 6) / 6, a = got(x, y)
                #expect(F.close(a, SIMD4(v, v, v, 1), 1e-6), "(\(x), \(y)): \(a) vs \(v)")
                if !F.close(a, SIMD4(v, v, v, 1), 1e-6) { return }
            } }
        },
        "heightFieldFromMask": {
            // Inside: a soft disc's pixels whose luma is at least ½; outside: the rest and everything beyond the extent.
            let mask = try F.apply("radialGradient", ["center": .vector([8, 7]), "radius0": .number(2), "radius1": .number(9),
                                                      "color0": .color(.white), "color1": .color(.black)]).cropped(to: F.box)
            let p = try grid(mask)
            let radius = 4.0
            let out = try F.apply("heightFieldFromMask", ["image": .image(mask), "radius": .number(radius)])
            #expect(out.extent == F.box)
            var outside: [(Int, Int)] = []
            for y in -1...13 { for x in -1...19 where x < 0 || y < 0 || x >= 19 || y >= 13 || luma(p(x, y)) < 0.5 { outside.append((x, y)) } }
            var raised = 0
            try F.expectEach(mask, mask, tolerance: 1e-6, { _, _, x, y in
                let d = outside.map { (Double(($0.0 - x) * ($0.0 - x) + ($0.1 - y) * ($0.1 - y))).squareRoot() }.min()!
                let t = min(d / radius, 1), h = (1 - (1 - t) * (1 - t)).squareRoot()
                if h > 0 { raised += 1 }
                return SIMD4(h, h, h, 1)
            }, of: out)
            #expect(raised > 10)
        },
        "shadedMaterial": {
            // A bump lit through a 30 × 20 "sphere" of a gradient: the matcap lookup by the normal.
            let bump = try F.apply("radialGradient", ["center": .vector([9, 6]), "radius0": .number(0), "radius1": .number(8),
                                                      "color0": .color(.white), "color1": .color(.black)]).cropped(to: F.box)
            let sphere = try F.apply("linearGradient", ["point0": .vector([0, 0]), "point1": .vector([30, 20]), "color0": .color(Color(red: 0.9, green: 0.1, blue: 0.2)),
                                                        "color1": .color(Color(red: 0.1, green: 0.8, blue: 0.9))]).cropped(to: Rect(x: 0, y: 0, width: 30, height: 20))
            let h = try grid(bump, F.box.outset(by: 1)), s = try grid(sphere, Rect(x: 0, y: 0, width: 30, height: 20))
            let out = try F.apply("shadedMaterial", ["image": .image(bump), "shadingImage": .image(sphere), "scale": .number(6)])
            try F.expectEach(bump, bump, tolerance: 2e-5, { b, _, x, y in
                let gx = (luma(h(x + 1, y)) - luma(h(x - 1, y))) / 2, gy = (luma(h(x, y + 1)) - luma(h(x, y - 1))) / 2
                let n = SIMD3(-6 * gx, -6 * gy, 1), length = (n * n).sum().squareRoot()
                return bilinear(s, SIMD2(15, 10) + SIMD2(n.x, n.y) / length * 9.5) * b.w
            }, of: out)
        },
        "depthOfField": {
            let values: [String: FilterValue] = ["image": .image(F.sample), "point0": .vector([2, 3]), "point1": .vector([16, 7]),
                                                 "saturation": .number(1.8), "unsharpMaskRadius": .number(1.5), "unsharpMaskIntensity": .number(0.7), "radius": .number(2)]
            let sharp = try F.apply("unsharpMask", ["image": .image(try F.apply("colorControls", ["image": .image(F.sample), "saturation": .number(1.8)])),
                                                    "radius": .number(1.5), "intensity": .number(0.7)])
            let far = try F.apply("gaussianBlur", ["image": .image(sharp.cropped(to: F.box)), "radius": .number(2)])
            let a = SIMD2(2.0, 3.0), b = SIMD2(16.0, 7.0), length = ((b - a) * (b - a)).sum().squareRoot()
            var both = 0
            try F.expectEach(sharp, far, tolerance: 2e-5, { s, f, x, y in
                let w = SIMD2(Double(x) + 0.5, Double(y) + 0.5) - a
                let d = abs((b - a).x * w.y - (b - a).y * w.x) / length, t = min(1, d / (length / 2)), k = t * t * (3 - 2 * t)
                if k > 0.05 && k < 0.95 { both += 1 }
                return s + (f - s) * k
            }, of: try F.apply("depthOfField", values))
            #expect(both > 20, "the transition band should cross the sample: \(both)")
        },
        "saliencyMapFilter": {
            let p = try grid(F.sample)
            func lab(_ x: Int, _ y: Int) -> SIMD3<Double> {
                let v = p(min(18, max(0, x)), min(12, max(0, y)))  // edges clamped
                return v.w > 0 ? labD50(SIMD3(v.x / v.w, v.y / v.w, v.z / v.w)) : labD50(.zero)
            }
            var mean = SIMD3<Double>.zero
            for y in 0..<13 { for x in 0..<19 { mean += lab(x, y) } }
            mean /= 247
            let binomial = [1.0, 4, 6, 4, 1]
            var s = [[Double]](repeating: [Double](repeating: 0, count: 19), count: 13)
            for y in 0..<13 { for x in 0..<19 {
                var g = SIMD3<Double>.zero
                for j in -2...2 { for i in -2...2 { g += binomial[i + 2] * binomial[j + 2] / 256 * lab(x + i, y + j) } }
                s[y][x] = ((g - mean) * (g - mean)).sum().squareRoot()
            } }
            let peak = s.flatMap { $0 }.max()!
            try F.expectEach(F.sample, F.sample, tolerance: 2e-4, { _, _, x, y in
                let v = s[y][x] / peak
                return SIMD4(v, v, v, 1)
            }, of: try F.apply("saliencyMapFilter", ["image": .image(F.sample)]))
        },
    ]
}

extension CoordinateMappingTests {
    static let stylizeReferences: [String: FilterReferenceTests.Check] = [
        "pixellate": {
            let values: [String: FilterValue] = ["center": .vector([3, 2]), "scale": .number(5)]
            try ReferenceHelpers.checkNeighbourhood("pixellate", values, reach: 0) { x, y in
                let cx = 3 + Int((Double(x - 3) / 5).rounded(.down)) * 5, cy = 2 + Int((Double(y - 2) / 5).rounded(.down)) * 5
                var sum = SIMD4<Double>.zero
                for j in cy..<(cy + 5) { for i in cx..<(cx + 5) { sum += ReferenceHelpers.samplePixel(i, j) } }
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
                let base = radius > 0 ? ReferenceHelpers.blurred(radius) : FilterReferenceTests.sample
                let out = try FilterReferenceTests.apply("highlightShadowAdjust", ["image": .image(FilterReferenceTests.sample), "radius": .number(radius),
                                                                                 "shadowAmount": .number(0.7), "highlightAmount": .number(0.4)])
                try FilterReferenceTests.expectEach(FilterReferenceTests.sample, base, tolerance: 3e-5, { p, b, _, _ in
                    let luma = b.w > 0 ? (SIMD3(b.x, b.y, b.z) * ReferenceHelpers.luma).sum() / b.w : 0
                    let e = ReferenceHelpers.srgb(min(1, max(0, luma)))
                    let gain = pow(2, 2 * 0.7 * (1 - e) * (1 - e) - 2 * 0.6 * e * e)
                    return SIMD4(p.x * gain, p.y * gain, p.z * gain, p.w)
                }, of: out)
            }
        },
    ]
}
