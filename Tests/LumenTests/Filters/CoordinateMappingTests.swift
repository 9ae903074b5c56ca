import Foundation
import Testing
@testable import Lumen

/// Distortions read their source through a coordinate image: pixel (x, y) holds
/// (x + 0.5, y + 0.5)/scale in red and green, a linear function that bilinear sampling
/// reproduces exactly, so every output pixel tells where it sampled. Each mapping is then
/// checked against a formula computed here.
@Suite struct CoordinateMappingTests {
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

    /// The pixels' sampled positions, for cell filters (nil where transparent or white).
    static func cellSamples(_ name: String, _ values: [String: FilterValue]) throws -> [(SIMD2<Double>, SIMD2<Double>?)] {
        try sampledPositions(try apply(name, values), in: Rect(x: 40, y: 40, width: 300, height: 200)).map { d, s in
            (d, s.flatMap { $0.x > 0 && $0.y > 0 && abs($0.x - 512) > 1 ? $0 : nil })  // white ground reads as (512, 512)
        }
    }

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

/// The last geometry filters of the catalogue, through the coordinate image of
/// CoordinateMappingTests: each output pixel's source against a formula written here.
extension CoordinateMappingTests {
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

}
