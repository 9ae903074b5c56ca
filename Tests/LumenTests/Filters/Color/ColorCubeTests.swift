import Foundation
import Testing
@testable import Lumen

/// Colour cubes: Core Image's table layout, trilinear lookup, .cube files, and Pillow's
/// Color3DLUT as an independent reference for a LUT applied to encoded values.
@Suite struct ColorCubeTests {
    /// A 5³ table with cross-talk between channels and alpha below 1 in a corner.
    static func table(_ n: Int = 5) -> (Data, [SIMD4<Double>]) {
        var entries: [SIMD4<Double>] = []
        for b in 0..<n { for g in 0..<n { for r in 0..<n {
            let (x, y, z) = (Double(r) / Double(n - 1), Double(g) / Double(n - 1), Double(b) / Double(n - 1))
            entries.append(SIMD4(x * x * 0.8 + 0.2 * z, (y + x) / 2, 1 - z * 0.7, r == n - 1 && b == 0 ? 0.5 : 1))
        } } }
        let floats = entries.flatMap { [$0.x, $0.y, $0.z, $0.w].map(Float.init) }
        return (floats.withUnsafeBytes { Data($0) }, entries)
    }

    /// Trilinear lookup in Double (the scalar reference).
    static func lookup(_ entries: [SIMD4<Double>], _ n: Int, _ c: SIMD3<Double>) -> SIMD4<Double> {
        let top = Double(n - 1)
        let u: [Double] = [min(max(c.x, 0), 1) * top, min(max(c.y, 0), 1) * top, min(max(c.z, 0), 1) * top]
        let i0: [Int] = u.map { min(Int($0), n - 2) }
        let f: [Double] = [u[0] - Double(i0[0]), u[1] - Double(i0[1]), u[2] - Double(i0[2])]
        var sum = SIMD4<Double>.zero
        for db in 0...1 { for dg in 0...1 { for dr in 0...1 {
            let wr: Double = dr == 1 ? f[0] : 1 - f[0]
            let wg: Double = dg == 1 ? f[1] : 1 - f[1]
            let wb: Double = db == 1 ? f[2] : 1 - f[2]
            let index = ((i0[2] + db) * n + i0[1] + dg) * n + i0[0] + dr
            sum += entries[index] * (wr * wg * wb)
        } } }
        return sum
    }

    static func srgb(_ v: Double) -> Double { ReferenceHelpers.srgb(v) }
    static func linear(_ v: Double) -> Double { ReferenceHelpers.linear(v) }

    static let checks: [String: FilterReferenceTests.Check] = [
        "colorCube": {
            let (data, entries) = table()
            try ReferenceHelpers.perPixel("colorCube", ["cubeDimension": .number(5), "cubeData": .data(data)]) { c in
                let e = lookup(entries, 5, SIMD3(c.x, c.y, c.z))
                return SIMD4(e.x, e.y, e.z, c.w * e.w)
            }
        },
        "colorCubeWithColorSpace": {
            let (data, entries) = table()
            try ReferenceHelpers.perPixel("colorCubeWithColorSpace", ["cubeDimension": .number(5), "cubeData": .data(data), "colorSpace": .string("sRGB")]) { c in
                let e = lookup(entries, 5, SIMD3(srgb(max(0, c.x)), srgb(max(0, c.y)), srgb(max(0, c.z))))
                return SIMD4(linear(e.x), linear(e.y), linear(e.z), c.w * e.w)
            }
        },
        "colorCubesMixedWithMask": {
            let (data, entries) = table()
            let identity = ColorCubeTable.identityData(dimension: 5)
            let mask = FilterReferenceTests.other
            let out = try FilterReferenceTests.apply("colorCubesMixedWithMask", ["image": .image(FilterReferenceTests.sample), "maskImage": .image(mask),
                "cubeDimension": .number(5), "cube0Data": .data(identity), "cube1Data": .data(data), "colorSpace": .string("linearSRGB")])
            try FilterReferenceTests.expectEach(FilterReferenceTests.sample, mask, { s, m, _, _ in
                let c = s.w > 0 ? SIMD3(s.x / s.w, s.y / s.w, s.z / s.w) : .zero
                let a = SIMD4(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1), 1) // identity cube
                let b = lookup(entries, 5, c)
                let t = min(1, max(0, (SIMD3(m.x, m.y, m.z) * ReferenceHelpers.luma).sum()))
                var o = a + (b - a) * t
                o.w *= s.w
                return SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
            }, of: out)
        },
    ]

    @Test func aCubeFileInAChainMatchesPillowsColor3DLUT() throws {
        let directory = Paths.temporaryDirectory()
        let source = directory.appendingPathComponent("source.png"), ours = directory.appendingPathComponent("ours.png")
        let pillow = directory.appendingPathComponent("pillow.png")
        let context = RenderContext()
        try context.write(try Image(contentsOf: Paths.testdata("photo.jpg")).cropped(to: Rect(x: 200, y: 100, width: 120, height: 80)), to: source)
        let lut = Paths.testdata("luts/film9.cube").path
        // `lut` is an alias of cubeData; the 9³ size comes from the file.
        let chain = try FilterChain("colorCubeWithColorSpace lut=load(\"\(lut)\") colorSpace=\"sRGB\"")
        try context.write(try chain.apply(to: try Image(contentsOf: source)), to: ours)
        _ = try runScript("apply-cube-pillow.py", [lut, source.path, pillow.path], hint: "Pillow is needed")
        let a = try render8(try Image(contentsOf: ours)), b = try render8(try Image(contentsOf: pillow))
        var worst: Float = 0
        for i in stride(from: 0, to: a.samples.count, by: 4) { for c in 0..<3 { worst = max(worst, abs(a.samples[i + c] - b.samples[i + c])) } }
        // Pillow interpolates 8-bit codes in 16-bit fixed point; Lumen in float from linear light.
        #expect(worst <= 2, "largest difference to Pillow: \(worst) levels")
        // The plain colorCube (working space) with the same file differs: it indexes linear values.
        let linear = try FilterChain("colorCube lut=load(\"\(lut)\")").apply(to: try Image(contentsOf: source))
        #expect(try render8(linear) != a)
    }

    @Test func cubeFileErrorsNameTheLine() throws {
        #expect(try CubeLUTFile(text: "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n").dimension == 2)
        let cases = ["LUT_3D_SIZE 2\n0 0 0\n1 zero 0\n": "line 3", "0 0 0\n": "line 1", "LUT_3D_SIZE 1000\n": "line 1",
                     "LUT_1D_SIZE 4\n": "line 1", "LUT_3D_SIZE 2\n0 0 0\n": "1 entries", "DOMAIN_MIN 0 0 -1\n": "line 1"]
        for (text, expected) in cases {
            let error = #expect(throws: LumenError.self) { _ = try CubeLUTFile(text: text, name: "bad.cube") }
            #expect(error.map { "\($0)" }?.contains(expected) == true && error.map { "\($0)" }?.contains("bad.cube") == true, "\(String(describing: error))")
        }
        // Table sizes that match no cube are located errors.
        let error = #expect(throws: LumenError.self) {
            _ = try FilterRegistry.descriptor(named: "colorCube")!.apply(["image": .image(FilterReferenceTests.sample), "cubeData": .data(Data(count: 100))])
        }
        #expect(error.map { "\($0)" }?.contains("cubeData") == true)
    }
}
