import Foundation
import Testing
@testable import Lumen

/// Scalar references for the color filters, on unpremultiplied linear values in Double.
enum ColorOperationReferences {
    typealias F = FilterReferenceTests

    /// Checks `name` with `parameters` against `f` applied to unpremultiplied RGB (alpha kept).
    static func perPixel(_ name: String, _ parameters: [String: FilterValue], tolerance: Double = 2e-5,
                         _ f: @escaping (SIMD3<Double>) -> SIMD3<Double>) throws {
        var values = parameters
        values["image"] = .image(F.sample)
        let out = try F.apply(name, values)
        try F.expectEach(F.sample, F.sample, tolerance: tolerance, { s, _, _, _ in
            let c = s.w > 0 ? SIMD3(s.x / s.w, s.y / s.w, s.z / s.w) : .zero
            return SIMD4(f(c) * s.w, s.w)
        }, of: out)
        // Identity parameters leave the graph unchanged.
        #expect(try F.apply(name, ["image": .image(F.sample)]) == F.sample || name == "colorInvert" || name.hasPrefix("photoEffect")
                || name == "sepiaTone" || name == "colorMonochrome")
    }

    static let luma = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    static var all: [String: FilterReferenceTests.Check] {
        [
            "gammaAdjust": { try perPixel("gammaAdjust", ["power": .number(1.7)]) { c in SIMD3(pow(c.x, 1.7), pow(c.y, 1.7), pow(c.z, 1.7)) } },
            "hueAdjust": {
                try perPixel("hueAdjust", ["angle": .number(0.8)]) { c in
                    // Rodrigues: rotate c about k = (1,1,1)/√3.
                    let k = SIMD3<Double>(repeating: 1 / 3.0.squareRoot()), a = 0.8
                    let cross = SIMD3(k.y * c.z - k.z * c.y, k.z * c.x - k.x * c.z, k.x * c.y - k.y * c.x)
                    return c * cos(a) + cross * sin(a) + k * ((k * c).sum()) * (1 - cos(a))
                }
                let gray = Image(color: .gray).cropped(to: F.box)
                let turned = try F.apply("hueAdjust", ["image": .image(gray), "angle": .number(2)])
                #expect(F.close(F.value(try F.pixels(turned), x: 3, y: 3), F.working(.gray), 1e-5))
            },
            "sepiaTone": {
                try perPixel("sepiaTone", ["intensity": .number(0.7)]) { c in
                    let s = SIMD3((c * SIMD3(0.393, 0.769, 0.189)).sum(), (c * SIMD3(0.349, 0.686, 0.168)).sum(), (c * SIMD3(0.272, 0.534, 0.131)).sum())
                    return c * 0.3 + s * 0.7
                }
            },
            "colorInvert": { try perPixel("colorInvert", [:]) { c in 1 - c } },
            "colorMonochrome": {
                let tint = Color(red: 0.2, green: 0.5, blue: 0.9)
                let t = F.working(tint)
                try perPixel("colorMonochrome", ["color": .color(tint), "intensity": .number(0.8)]) { c in
                    c * 0.2 + SIMD3(t.x, t.y, t.z) * (c * luma).sum() * 0.8
                }
            },
            "vibrance": {
                try perPixel("vibrance", ["amount": .number(0.6)]) { c in
                    let l = (c * luma).sum(), s = min(1, max(0, c.max() - c.min()))
                    return l + (c - l) * (1 + 0.6 * (1 - s))
                }
            },
            "temperatureAndTint": {
                let out = try F.apply("temperatureAndTint", ["image": .image(Image(color: .white).cropped(to: F.box)),
                                                            "neutral": .vector([3200, 0]), "targetNeutral": .vector([6500, 0])])
                let p = F.value(try F.pixels(out), x: 1, y: 1)
                #expect(p.z > p.x, "correcting tungsten light (3200 K) to daylight cools the image")
                #expect(abs((SIMD3(p.x, p.y, p.z) * luma).sum() - 1) < 1e-4, "luma of white is kept")
                #expect(try F.apply("temperatureAndTint", ["image": .image(F.sample)]) == F.sample)
            },
            "toneCurve": {
                let points: [[Double]] = [[0, 0], [0.25, 0.15], [0.5, 0.5], [0.75, 0.85], [1, 1]]
                var values: [String: FilterValue] = [:]
                for (i, p) in points.enumerated() { values["point\(i)"] = .vector(p) }
                let spline = NaturalSpline(x: points.map { $0[0] }, y: points.map { $0[1] })
                try perPixel("toneCurve", values, tolerance: 2e-4) { c in
                    func curve(_ v: Double) -> Double { let o = spline.value(min(max(v, 0), 1).squareRoot()); return o * o }
                    return SIMD3(curve(c.x), curve(c.y), curve(c.z))
                }
                // The spline passes through its points.
                for p in points { #expect(abs(spline.value(p[0]) - p[1]) < 1e-12) }
            },
        ]
    }
}
