import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Geometry/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let geometryReferences: [String: Check] = [
        "sampleNearest": {
            let nearest = try F.apply("sampleNearest", ["image": .image(F.sample)])
            try F.expectEach(F.sample, F.sample, { p, _, _, _ in p }, of: nearest)
            // Scaled up by 3 it is blocks of the pixels, not a bilinear ramp.
            let scaled = nearest.transformed(by: AffineTransform(a: 3, b: 0, c: 0, d: 3, tx: 0, ty: 0))
            let big = Rect(x: 0, y: 0, width: 57, height: 39)
            let source = try F.pixels(F.sample), out = try F.pixels(scaled, big)
            for y in 0..<39 { for x in 0..<57 {
                let e = F.value(source, x: x / 3, y: y / 3), a = F.value(out, x: x, y: y)
                #expect(F.close(a, e, 0), "(\(x), \(y)) \(a) vs \(e)")
                if !F.close(a, e, 0) { return }
            } }
            // Without the marker the same transform interpolates.
            let smooth = try F.pixels(F.sample.transformed(by: AffineTransform(a: 3, b: 0, c: 0, d: 3, tx: 0, ty: 0)), big)
            #expect(!F.close(F.value(smooth, x: 3, y: 10), F.value(source, x: 1, y: 3), 1e-3))
        },
        "maximumScaleTransform": {
            let source = try F.pixels(F.sample)
            for (scale, aspect) in [(0.5, 1.0), (0.37, 0.8), (2.5, 1.0), (0.2, 3.0)] {
                let out = try F.apply("maximumScaleTransform", ["image": .image(F.sample), "scale": .number(scale), "aspectRatio": .number(aspect)])
                let w = max(1, Int((19 * scale * aspect).rounded())), h = max(1, Int((13 * scale).rounded()))
                #expect(out.extent == Rect(x: 0, y: 0, width: Double(w), height: Double(h)), "\(scale) \(aspect): \(out.extent)")
                let pixels = try F.pixels(out, out.extent)
                for Y in 0..<h { for X in 0..<w {
                    // Input pixels k with [k, k + 1) meeting the footprint [X·19/w, (X + 1)·19/w).
                    let u0 = Double(X) * 19 / Double(w), u1 = Double(X + 1) * 19 / Double(w)
                    let v0 = Double(Y) * 13 / Double(h), v1 = Double(Y + 1) * 13 / Double(h)
                    var m = SIMD4<Double>(repeating: -.infinity)
                    for y in 0..<13 where Double(y + 1) > v0 && Double(y) < v1 {
                        for x in 0..<19 where Double(x + 1) > u0 && Double(x) < u1 { m = pointwiseMax(m, F.value(source, x: x, y: y)) }
                    }
                    let a = F.value(pixels, x: X, y: Y)
                    #expect(F.close(a, m, 1e-6), "\(scale) \(aspect) (\(X), \(Y)): \(a) vs \(m)")
                    if !F.close(a, m, 1e-6) { return }
                } }
            }
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
    ]
}

extension FilterReferenceTests {
    static let geometryReferences: [String: Check] = [
        "crop": {
            let cropped = sample.cropped(to: Rect(x: 3.4, y: 2.6, width: 5, height: 4))
            #expect(cropped.extent == Rect(x: 3, y: 3, width: 5, height: 4))
            try expectEach(sample, sample, { s, _, x, y in (3..<8).contains(x) && (3..<7).contains(y) ? s : .zero }, of: cropped)
        },
        "affineTransform": {
            var turned = sample
            for _ in 0..<4 { turned = turned.transformed(by: AffineTransform(rotationAngle: .pi / 2)) }
            // Four quarter turns fold into one (near-)identity transform.
            try expectEach(sample, sample, tolerance: 1e-4, { s, _, _, _ in s }, of: turned)
            let shifted = sample.transformed(by: AffineTransform(translationX: 2, y: -1))
            let input = try pixels(sample, Rect(x: -2, y: 1, width: 19, height: 13))
            try expectEach(sample, sample, { _, _, x, y in value(input, x: x, y: y) }, of: shifted)
        },
        "lanczosScale": { try checkScale("lanczosScale") },
        "bicubicScale": { try checkScale("bicubicScale") },
        "affineClamp": {
            let clamped = try apply("affineClamp", ["image": .image(sample)])
            #expect(clamped.extent.isInfinite)
            let inside = try pixels(sample), outside = try pixels(clamped, Rect(x: -3, y: 0, width: 3, height: 13))
            for y in 0..<13 { for x in 0..<3 { #expect(value(outside, x: x, y: y) == value(inside, x: 0, y: y)) } }
        },
        "orientation": {
            for o in 1...8 {
                let turned = try apply("orientation", ["image": .image(sample), "orientation": .number(Double(o))])
                let inverse = [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6][o]!
                let back = try apply("orientation", ["image": .image(turned), "orientation": .number(Double(inverse))])
                #expect(try pixels(back) == pixels(sample), "orientation \(o) then \(inverse) is the identity")
            }
        },
    ]
}

extension SampleImageReferences {
    static var geometryReferences: [String: FilterReferenceTests.Check] {
        [
            "straighten": {
                #expect(try F.apply("straighten", ["image": .image(F.sample)]) == F.sample)
                let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
                let out = try F.apply("straighten", ["image": .image(photo), "angle": .number(0.1)])
                #expect(out.extent == photo.extent)
                let pixels = try F.pixels(out, photo.extent)
                #expect(F.value(pixels, x: 0, y: 0).w > 0.999 && F.value(pixels, x: 639, y: 399).w > 0.999, "no empty corners")
            },
        ]
    }
}
