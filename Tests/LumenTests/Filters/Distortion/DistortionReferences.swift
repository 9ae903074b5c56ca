import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Distortion/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension CoordinateMappingTests {
    static let distortionReferences: [String: FilterReferenceTests.Check] = [
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
            let offset: SIMD2<Double> = (SIMD2<Double>(ReferenceHelpers.linear(0.75), ReferenceHelpers.linear(0.25)) - 0.5) * 80
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
        "perspectiveRotate": {
            for (pitch, yaw, roll) in [(0.3, 0.0, 0.0), (0.0, -0.25, 0.0), (0.2, 0.15, 0.4)] {
                // The output at d is what the turned camera saw at the inverse turn of d.
                try expectSource("perspectiveRotate", ["pitch": .number(pitch), "yaw": .number(yaw), "roll": .number(roll)],
                                 in: Rect(x: -100, y: -100, width: 600, height: 500)) { d in
                    Camera().turn(d, pitch: pitch, yaw: yaw, roll: roll, inverse: true)
                }
            }
            // Positive pitch tips the top away: the top edge shrinks.
            let out = try apply("perspectiveRotate", ["pitch": .number(0.3)])
            let turned = [SIMD2(0.0, 0), SIMD2(400.0, 0), SIMD2(400.0, 300), SIMD2(0.0, 300)].map { Camera().turn($0, pitch: 0.3, yaw: 0, roll: 0) }
            #expect(turned[2].x - turned[3].x < 400 && turned[1].x - turned[0].x > 400, "\(turned)")
            // The extent is the turned corners' bounding box.
            let xs = turned.map(\.x), ys = turned.map(\.y)
            #expect(abs(out.extent.minX - xs.min()!) < 1e-6 && abs(out.extent.maxX - xs.max()!) < 1e-6
                    && abs(out.extent.minY - ys.min()!) < 1e-6 && abs(out.extent.maxY - ys.max()!) < 1e-6, "\(out.extent) vs \(turned)")
        },
        "keystoneCorrectionVertical": { try checkKeystone("keystoneCorrectionVertical", pitch: 0.25, yaw: 0) },
        "keystoneCorrectionHorizontal": { try checkKeystone("keystoneCorrectionHorizontal", pitch: 0, yaw: -0.3) },
        "keystoneCorrectionCombined": {
            // Both pairs of guides parallel after the correction: the rectangle comes back
            // a rectangle with upright sides (the order of the turns may differ, so check the shape).
            let q = guides(pitch: 0.2, yaw: -0.15, roll: 0)
            let angles = try solved("keystoneCorrectionCombined", q)
            let r = CameraRotation.rotation(pitch: angles.pitch, yaw: angles.yaw, roll: angles.roll)
            let camera = try CameraRotation(extent: coordinates.extent, focalLength: 28, filter: "test")
            let m = q.compactMap { camera.map($0, r) }
            try #require(m.count == 4)
            #expect(abs(m[0].x - m[3].x) < 1e-4 && abs(m[1].x - m[2].x) < 1e-4, "verticals upright: \(m)")
            #expect(abs(m[0].y - m[1].y) < 1e-4 && abs(m[3].y - m[2].y) < 1e-4, "horizontals level: \(m)")
            let same = try apply("perspectiveRotate", ["pitch": .number(angles.pitch), "yaw": .number(angles.yaw), "roll": .number(angles.roll)])
            #expect(try apply("keystoneCorrectionCombined", corners(q)) == same)
            try checkKeystone("keystoneCorrectionCombined", pitch: 0.2, yaw: 0)
        },
        "perspectiveTile": {
            let forward = squareToQuad(quad)
            // H⁻¹(d) by Newton's method on the forward map (unit square → quad).
            func inverse(_ d: SIMD2<Double>) -> SIMD2<Double> {
                var u = SIMD2<Double>(0.5, 0.5)
                for _ in 0..<30 {
                    let f: SIMD2<Double> = forward(u) - d, e: Double = 1e-6
                    let jx: SIMD2<Double> = (forward(u + SIMD2<Double>(e, 0)) - forward(u)) / e
                    let jy: SIMD2<Double> = (forward(u + SIMD2<Double>(0, e)) - forward(u)) / e
                    let det: Double = jx.x * jy.y - jy.x * jx.y
                    let step = SIMD2<Double>(jy.y * f.x - jy.x * f.y, -jx.y * f.x + jx.x * f.y)
                    u -= step / det
                }
                return u
            }
            try expectSource("perspectiveTile", corners(quad)) { d in
                let u = inverse(d)
                let w = SIMD2(u.x - u.x.rounded(.down), u.y - u.y.rounded(.down))
                // Away from the seams, where a bilinear sample would straddle two tiles.
                guard w.x * 400 > 1.5, w.x * 400 < 398.5, w.y * 300 > 1.5, w.y * 300 < 298.5 else { return SIMD2(-1, -1) }
                return SIMD2(w.x * 400, w.y * 300)
            }
        },
        "droste": {
            let inset: [String: FilterValue] = ["insetPoint0": .vector([150, 100]), "insetPoint1": .vector([250, 200])]
            // r₁ = 50, r₂ = 150: L = ln 3. Without strands the picture nests: the annulus
            // r₁ ≤ |d − c| < r₂ is the picture itself, the next one in is it scaled by 3.
            try expectSource("droste", inset.merging(["strands": .number(0)]) { _, b in b }) { d in
                let r = length(d - c)
                guard r > 1, abs(r - 50) > 0.5, abs(r - 150) > 0.5, abs(r - 50 / 3) > 0.5 else { return SIMD2(-1, -1) }
                var k = 0.0
                while r * pow(3, k) < 50 { k += 1 }
                while r * pow(3, k) >= 150 { k -= 1 }
                return c + (d - c) * pow(3, k)
            }
            // The spiral, from the polar form.
            let L = log(3.0)
            try expectSource("droste", inset.merging(["strands": .number(1), "rotation": .number(0.3), "zoom": .number(1.2)]) { _, b in b }) { d in
                let v = (d - c) / (50 * 1.2), rho = length(v), theta = atan2(v.y, v.x)
                guard rho > 1e-3 else { return SIMD2(-1, -1) }
                var lambda = log(rho) + theta * L / (2 * .pi)
                let phi = theta - log(rho) * L / (2 * .pi) + 0.3
                lambda -= L * (lambda / L).rounded(.down)
                guard lambda > 0.02, lambda < L - 0.02 else { return SIMD2(-1, -1) }  // not across the wrap
                return c + SIMD2(cos(phi), sin(phi)) * 50 * exp(lambda)
            }
        },
        "stretchCrop": {
            let out = try apply("stretchCrop", ["size": .vector([600, 200]), "cropAmount": .number(0.4), "centerStretchAmount": .number(0.6)])
            #expect(out.extent == Rect(x: 0, y: 0, width: 600, height: 200))
            // Fill scale k = max(600/400, 200/300) = 1.5 crops to 400 × 133⅓.
            let shown = SIMD2(400 * 0.6 + 400 * 0.4, 300 * 0.6 + 200 / 1.5 * 0.4)
            try expectSource("stretchCrop", ["size": .vector([600, 200]), "cropAmount": .number(0.4), "centerStretchAmount": .number(0.6)],
                             in: Rect(x: 0, y: 0, width: 600, height: 200)) { d in
                func g(_ t: Double) -> Double { t + 0.6 * sin(2 * .pi * t) / (2 * .pi) }
                return SIMD2(200 - shown.x / 2 + shown.x * g(d.x / 600), 150 - shown.y / 2 + shown.y * g(d.y / 200))
            }
        },
    ]
}
