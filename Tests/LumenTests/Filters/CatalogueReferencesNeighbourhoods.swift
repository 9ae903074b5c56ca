import Foundation
import Testing
@testable import Lumen

/// References for the last neighbourhood filters: each against a direct (brute-force)
/// computation in Double here, independent of the fast algorithm the filter uses.
extension CatalogueReferences {
    /// Pixels of `image` over `rect` as a function of (x, y), clear outside.
    static func grid(_ image: Image, _ rect: Rect = F.box) throws -> (Int, Int) -> SIMD4<Double> {
        let b = try F.pixels(image, rect)
        let x0 = Int(rect.minX), y0 = Int(rect.minY), w = Int(rect.width), h = Int(rect.height)
        return { x, y in x < x0 || y < y0 || x >= x0 + w || y >= y0 + h ? .zero : F.value(b, x: x - x0, y: y - y0) }
    }

    /// Bilinear sampling at a position (pixel centres at k + ½), clear outside, as Core Image samples.
    static func bilinear(_ p: (Int, Int) -> SIMD4<Double>, _ at: SIMD2<Double>) -> SIMD4<Double> {
        let u = at.x - 0.5, v = at.y - 0.5, x = Int(u.rounded(.down)), y = Int(v.rounded(.down))
        let fx = u - Double(x), fy = v - Double(y)
        let top = p(x, y + 1) * (1 - fx) + p(x + 1, y + 1) * fx, bottom = p(x, y) * (1 - fx) + p(x + 1, y) * fx
        return bottom * (1 - fy) + top * fy
    }

    static func luma(_ p: SIMD4<Double>) -> Double { 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z }

    /// Red dots on black: the mask of the distance tests (19 × 13, opaque).
    static let redDots: Image = ColorKernel("redDots") { p in
        let x = Int(p.coordinate.x), y = Int(p.coordinate.y)
        return (x == 3 && y == 4) || (x == 15 && y == 9) || (x >= 9 && x <= 10 && y == 1) ? SIMD4(1, 0, 0, 1) : SIMD4(0, 0, 0.3, 1)
    }.apply(extent: F.box, arguments: [])

    static let neighbourhoodChecks: [String: Check] = [
        "bokehBlur": {
            let (radius, ring, size) = (3.6, 0.5, 0.4)
            let p = try grid(F.sample, F.box.outset(by: 4))
            let out = try F.apply("bokehBlur", ["image": .image(F.sample), "radius": .number(radius), "ringAmount": .number(ring),
                                                "ringSize": .number(size), "softness": .number(0)])
            #expect(out.extent == F.box.outset(by: 3))
            let inner = radius * (1 - size)
            var weights: [(Int, Int, Double)] = []
            for j in -4...4 { for i in -4...4 {
                let d2 = Double(i * i + j * j)
                let w = (d2 <= radius * radius ? 1 + ring : 0) - (d2 <= inner * inner ? ring : 0)
                if w != 0 { weights.append((i, j, w)) }
            } }
            let total = weights.reduce(0) { $0 + $1.2 }
            try F.expectEach(F.sample, F.sample, in: F.box.outset(by: 3), tolerance: 1e-5, { _, _, x, y in
                weights.reduce(SIMD4<Double>.zero) { $0 + p(x + $1.0, y + $1.1) * $1.2 } / total
            }, of: out)
            // With a ring the rim outweighs the middle: one bright pixel becomes a ringed disc.
            let dot = Image(color: .white).cropped(to: Rect(x: 9, y: 6, width: 1, height: 1))
            let disc = try grid(try F.apply("bokehBlur", ["image": .image(dot), "radius": .number(4), "ringAmount": .number(1), "ringSize": .number(0.3), "softness": .number(0)]))
            #expect(disc(13, 6).x > 1.9 * disc(9, 6).x && disc(9, 6).x > 0)
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
        "gaborGradients": {
            let p = try grid(F.sample, F.box.outset(by: 2))
            var gx = [[Double]](repeating: [Double](repeating: 0, count: 5), count: 5)
            var k = 0.0
            for j in -2...2 { for i in -2...2 {
                let w = exp(-Double(i * i + j * j) / (2 * 1.44)) * sin(2 * .pi / 5 * Double(i))
                gx[j + 2][i + 2] = w; k += Double(i) * w
            } }
            func strongest(_ v: SIMD4<Double>) -> Double { [v.y, v.z].reduce(v.x) { abs($1) > abs($0) ? $1 : $0 } }
            try F.expectEach(F.sample, F.sample, tolerance: 1e-5, { _, _, x, y in
                var sx = SIMD4<Double>.zero, sy = SIMD4<Double>.zero
                for j in -2...2 { for i in -2...2 {
                    sx += gx[j + 2][i + 2] / k * p(x + i, y + j)
                    sy += gx[i + 2][j + 2] / k * p(x + i, y + j)  // the vertical filter is the horizontal one turned
                } }
                return SIMD4(strongest(sx), strongest(sy), 0, 1)
            }, of: try F.apply("gaborGradients", ["image": .image(F.sample)]))
            // A ramp rising by 1 per pixel has gradient 1.
            let ramp = ColorKernel("ramp") { px in SIMD4(px.coordinate.x, 0, 0, 1) }.apply(extent: Rect(x: 0, y: 0, width: 30, height: 30), arguments: [])
            let g = try grid(try F.apply("gaborGradients", ["image": .image(ramp)]), Rect(x: 0, y: 0, width: 30, height: 30))
            #expect(abs(g(15, 15).x - 1) < 1e-5 && abs(g(15, 15).y) < 1e-5, "\(g(15, 15))")
        },
        "guidedFilter": {
            // He's guided filter, directly: window means by summation.
            let guide = try grid(F.sample), input = F.other.cropped(to: F.box), p = try grid(input)
            let radius = 2, eps = 0.01
            func window(_ x: Int, _ y: Int) -> [(Int, Int)] {
                var w: [(Int, Int)] = []
                for j in max(0, y - radius)...min(12, y + radius) { for i in max(0, x - radius)...min(18, x + radius) { w.append((i, j)) } }
                return w
            }
            func ab(_ x: Int, _ y: Int) -> (SIMD4<Double>, SIMD4<Double>) {
                let w = window(x, y), n = Double(w.count)
                let mI = w.reduce(0) { $0 + luma(guide($1.0, $1.1)) } / n
                let vI = w.reduce(0) { $0 + luma(guide($1.0, $1.1)) * luma(guide($1.0, $1.1)) } / n - mI * mI
                let mP = w.reduce(SIMD4<Double>.zero) { $0 + p($1.0, $1.1) } / n
                let cIP = w.reduce(SIMD4<Double>.zero) { $0 + luma(guide($1.0, $1.1)) * p($1.0, $1.1) } / n
                let a = (cIP - mI * mP) / (vI + eps)
                return (a, mP - a * mI)
            }
            let out = try F.apply("guidedFilter", ["image": .image(input), "guideImage": .image(F.sample), "radius": .number(2), "epsilon": .number(eps)])
            #expect(out.extent == F.box)
            try F.expectEach(F.sample, F.sample, tolerance: 1e-5, { g, _, x, y in
                let w = window(x, y), n = Double(w.count)
                let coefficients = w.map { ab($0.0, $0.1) }
                let a = coefficients.reduce(SIMD4<Double>.zero) { $0 + $1.0 } / n, b = coefficients.reduce(SIMD4<Double>.zero) { $0 + $1.1 } / n
                return a * luma(g) + b
            }, of: out)
            // A smaller input is scaled to the guide first.
            let small = try F.apply("guidedFilter", ["image": .image(input.cropped(to: Rect(x: 0, y: 0, width: 7, height: 5))), "guideImage": .image(F.sample)])
            #expect(small.extent == F.box)
        },
        "edgePreserveUpsampleFilter": {
            let small = F.other.cropped(to: Rect(x: 0, y: 0, width: 7, height: 5))
            let guide = try grid(F.sample), low = try grid(small, Rect(x: 0, y: 0, width: 7, height: 5))
            let (ss, ls) = (1.5, 0.2)
            let out = try F.apply("edgePreserveUpsampleFilter", ["image": .image(F.sample), "smallImage": .image(small),
                                                                 "spatialSigma": .number(ss), "lumaSigma": .number(ls)])
            #expect(out.extent == F.box)
            let scale = SIMD2(19.0 / 7, 13.0 / 5)
            try F.expectEach(F.sample, F.sample, tolerance: 1e-5, { g, _, x, y in
                let q = SIMD2(Double(x) + 0.5, Double(y) + 0.5) / scale
                var sum = SIMD4<Double>.zero, total = 0.0
                for v in 0..<5 { for u in 0..<7 {
                    let c = SIMD2(Double(u) + 0.5, Double(v) + 0.5), d = c - q, d2 = (d * d).sum()
                    guard d2 <= 4 * ss * ss else { continue }
                    let dl = luma(g) - luma(bilinear(guide, c * scale))
                    let w = exp(-d2 / (2 * ss * ss) - dl * dl / (2 * ls * ls))
                    sum += w * low(u, v); total += w
                } }
                return total > 0 ? sum / total : .zero
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
        "pageCurlWithShadowTransition": {
            let source = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
            let target = Image(color: Color(red: 0, green: 0.5, blue: 1)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
            var values: [String: FilterValue] = ["image": .image(source), "targetImage": .image(target), "time": .number(0.5),
                                                 "extent": .vector([0, 0, 40, 30]), "radius": .number(3), "shadowAmount": .number(0)]
            // Without a shadow it is pageCurlTransition.
            let plain = try F.apply("pageCurlTransition", ["image": .image(source), "targetImage": .image(target), "time": .number(0.5),
                                                           "extent": .vector([0, 0, 40, 30]), "radius": .number(3)])
            try F.expectEach(plain, plain, in: Rect(x: 0, y: 0, width: 40, height: 30), tolerance: 0, { p, _, _, _ in p },
                             of: try F.apply("pageCurlWithShadowTransition", values))
            // Behind the curl the target is darkened by amount·(1 − smoothstep(πr, πr + size·r, −u)), inside the shadow extent.
            values["shadowAmount"] = .number(0.6); values["shadowSize"] = .number(2); values["shadowExtent"] = .vector([0, 0, 40, 20])
            let out = try grid(try F.apply("pageCurlWithShadowTransition", values), Rect(x: 0, y: 0, width: 40, height: 30))
            let t = try grid(target, Rect(x: 0, y: 0, width: 40, height: 30))
            let near = -1.0, far = 40 + Double.pi * 3 + 1, line = near + (far - near) * 0.5
            var shaded = 0
            for y in 0..<30 { for x in 0..<40 {
                let u = Double(x) + 0.5 - line
                guard u <= -.pi * 3 else { continue }
                var dark = 0.0
                if y < 20 {
                    let e = min(1, max(0, (-u - .pi * 3) / 6)); dark = 0.6 * (1 - e * e * (3 - 2 * e))
                }
                let e = t(x, y), expected = SIMD4(e.x * (1 - dark), e.y * (1 - dark), e.z * (1 - dark), e.w)
                #expect(F.close(out(x, y), expected, 1e-5), "(\(x), \(y)) \(out(x, y)) vs \(expected)")
                if dark > 0.01 { shaded += 1 }
            } }
            #expect(shaded > 20)
        },
    ]
}

extension CatalogueReferences {
    /// CIE L*a*b* (D50) of linear sRGB, written from the ICC's D50 sRGB matrix.
    static func labD50(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let m: [SIMD3<Double>] = [SIMD3(0.4360747, 0.3850649, 0.1430804), SIMD3(0.2225045, 0.7168786, 0.0606169), SIMD3(0.0139322, 0.0971045, 0.7141733)]
        let xyz = SIMD3((m[0] * c).sum() / 0.9642, (m[1] * c).sum(), (m[2] * c).sum() / 0.8249)
        func f(_ t: Double) -> Double { t > pow(6.0 / 29, 3) ? cbrt(t) : t / (3 * pow(6.0 / 29, 2)) + 4.0 / 29 }
        return SIMD3(116 * f(xyz.y) - 16, 500 * (f(xyz.x) - f(xyz.y)), 200 * (f(xyz.y) - f(xyz.z)))
    }

    static let enhancementChecks: [String: Check] = [
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
        "documentEnhancer": {
            // A page lit from one side (paper from 0.35 to 0.9) with dark strokes of text.
            let page = ColorKernel("page") { px in
                let x = px.coordinate.x, y = px.coordinate.y
                let light = 0.35 + 0.55 * x / 120
                let ink = Int(y) % 12 < 2 && Int(x) % 10 < 7 && x > 10 && x < 110 && y > 10 && y < 80
                let v = ink ? light * 0.12 : light
                return SIMD4(v, v * 0.97, v * 0.9, 1)
            }.apply(extent: Rect(x: 0, y: 0, width: 120, height: 90), arguments: [])
            let out = try grid(try F.apply("documentEnhancer", ["image": .image(page), "amount": .number(1)]), Rect(x: 0, y: 0, width: 120, height: 90))
            let before = try grid(page, Rect(x: 0, y: 0, width: 120, height: 90))
            // Paper between the lines becomes near-white whatever the light; the ink stays dark.
            var paper: [Double] = [], ink: [Double] = [], paperBefore: [Double] = []
            for y in 0..<90 { for x in 0..<120 {
                let isInk = y % 12 < 2 && x % 10 < 7 && x > 10 && x < 110 && y > 10 && y < 80
                if isInk { ink.append(out(x, y).y) } else if y % 12 > 4 && y % 12 < 10 { paper.append(out(x, y).y); paperBefore.append(before(x, y).y) }
            } }
            #expect(paper.min()! > 0.93, "paper \(paper.min()!)…\(paper.max()!) (before \(paperBefore.min()!)…\(paperBefore.max()!))")
            #expect(ink.max()! < 0.2, "ink up to \(ink.max()!)")
            // The formula, given the closed and blurred background the doc comment describes.
            let r = 3.0
            let closed = try F.apply("morphologyMinimum", ["image": .image(try F.apply("morphologyMaximum", ["image": .image(page.clampedToExtent().cropped(to: Rect(x: -6, y: -6, width: 132, height: 102))), "radius": .number(r)])), "radius": .number(r)])
            let background = try F.apply("gaussianBlur", ["image": .image(closed.cropped(to: page.extent).clampedToExtent()), "radius": .number(r)]).cropped(to: page.extent)
            let amount = 0.6
            try F.expectEach(page, background, in: Rect(x: 0, y: 0, width: 120, height: 90), tolerance: 2e-5, { c, b, _, _ in
                var out = c
                for k in 0..<3 {
                    let flat = min(1, max(0, c[k] / b[k])), enhanced = min(1, max(0, 1 - (1 - flat) * (1 + amount)))
                    out[k] = c[k] + (enhanced - c[k]) * amount
                }
                return out
            }, of: try F.apply("documentEnhancer", ["image": .image(page), "amount": .number(amount)]))
        },
    ]
}
