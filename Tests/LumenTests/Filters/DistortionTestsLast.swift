import Foundation
import Testing
@testable import Lumen

/// The last geometry filters of the catalogue, through the coordinate image of
/// DistortionTests: each output pixel's source against a formula written here.
extension DistortionTests {
    /// A pinhole camera of the coordinate image (400 × 300), written independently of
    /// CameraRotation: rotation matrices from their axis-angle definitions.
    struct Camera {
        let f = 28 / 43.27 * 500.0, c = SIMD2(200.0, 150.0)
        /// The point where the camera turned by Rz(roll)·Ry(yaw)·Rx(pitch) sees p.
        func turn(_ p: SIMD2<Double>, pitch: Double, yaw: Double, roll: Double, inverse: Bool = false) -> SIMD2<Double> {
            var v = SIMD3(p.x - c.x, p.y - c.y, f)
            func rx(_ v: SIMD3<Double>, _ a: Double) -> SIMD3<Double> { SIMD3(v.x, v.y * cos(a) - v.z * sin(a), v.y * sin(a) + v.z * cos(a)) }
            func ry(_ v: SIMD3<Double>, _ a: Double) -> SIMD3<Double> { SIMD3(v.x * cos(a) + v.z * sin(a), v.y, -v.x * sin(a) + v.z * cos(a)) }
            func rz(_ v: SIMD3<Double>, _ a: Double) -> SIMD3<Double> { SIMD3(v.x * cos(a) - v.y * sin(a), v.x * sin(a) + v.y * cos(a), v.z) }
            v = inverse ? rx(ry(rz(v, -roll), -yaw), -pitch) : rz(ry(rx(v, pitch), yaw), roll)
            return c + SIMD2(v.x, v.y) * (f / v.z)
        }
    }

    /// A rectangle's corners (bl, br, tr, tl) as the camera turned by the angles sees them.
    static func guides(pitch: Double, yaw: Double, roll: Double) -> [SIMD2<Double>] {
        [SIMD2(110, 60), SIMD2(290, 60), SIMD2(290, 240), SIMD2(110, 240)].map { Camera().turn($0, pitch: pitch, yaw: yaw, roll: roll) }
    }

    static func solved(_ name: String, _ q: [SIMD2<Double>]) throws -> (pitch: Double, yaw: Double, roll: Double) {
        let kind: KeystoneSolver.Kind = name.hasSuffix("Vertical") ? .vertical : name.hasSuffix("Horizontal") ? .horizontal : .combined
        let camera = try CameraRotation(extent: coordinates.extent, focalLength: 28, filter: name)
        return try KeystoneSolver(camera: camera, kind: kind).solve(q, filter: name)
    }

    /// A keystone correction undoes the turn that made the guides: its output at d samples
    /// the turned camera's view of d; and it is perspectiveRotate by the angles it found.
    static func checkKeystone(_ name: String, pitch: Double, yaw: Double) throws {
        let q = guides(pitch: pitch, yaw: yaw, roll: 0)
        let angles = try solved(name, q)
        #expect(abs(angles.pitch + pitch) < 1e-5 && abs(angles.yaw + yaw) < 1e-5 && abs(angles.roll) < 1e-5, "\(name): \(angles)")
        // The correction turns the camera by the inverse: its output at d reads the turned view of d.
        try expectSource(name, corners(q)) { d in Camera().turn(d, pitch: pitch, yaw: yaw, roll: 0) }
        let same = try apply("perspectiveRotate", ["pitch": .number(angles.pitch), "yaw": .number(angles.yaw), "roll": .number(angles.roll)])
        #expect(try apply(name, corners(q)) == same)
    }

    static let lastChecks: [String: FilterReferenceTests.Check] = [
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
                var u = SIMD2(0.5, 0.5)
                for _ in 0..<30 {
                    let f = forward(u) - d, e = 1e-6
                    let jx = (forward(u + SIMD2(e, 0)) - forward(u)) / e, jy = (forward(u + SIMD2(0, e)) - forward(u)) / e
                    let det = jx.x * jy.y - jy.x * jx.y
                    u -= SIMD2(jy.y * f.x - jy.x * f.y, -jx.y * f.x + jx.x * f.y) / det
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
