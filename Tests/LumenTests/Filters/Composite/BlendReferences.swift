import Foundation
import Testing
@testable import Lumen

/// Scalar references for the compositing filters: the PDF blend formulas and the
/// Porter–Duff operators, written per channel in Double.
enum BlendReferences {
    typealias F = FilterReferenceTests

    static func separable(_ f: @escaping (Double, Double) -> Double) -> (SIMD3<Double>, SIMD3<Double>) -> SIMD3<Double> {
        { b, s in SIMD3(f(b.x, s.x), f(b.y, s.y), f(b.z, s.z)) }
    }

    static func lum(_ c: SIMD3<Double>) -> Double { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }
    static func clip(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let l = lum(c), n = c.min(), x = c.max()
        var r = c
        if n < 0 { r = l + (r - l) * (l / (l - n)) }
        if x > 1 { r = l + (r - l) * ((1 - l) / (x - l)) }
        return r
    }
    static func setLum(_ c: SIMD3<Double>, _ l: Double) -> SIMD3<Double> { clip(c + (l - lum(c))) }
    static func setSat(_ c: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
        var v = [c.x, c.y, c.z]
        let o = [0, 1, 2].sorted { v[$0] < v[$1] }
        if v[o[2]] > v[o[0]] { v[o[1]] = (v[o[1]] - v[o[0]]) * s / (v[o[2]] - v[o[0]]); v[o[2]] = s } else { v[o[1]] = 0; v[o[2]] = 0 }
        v[o[0]] = 0
        return SIMD3(v[0], v[1], v[2])
    }
    static func sat(_ c: SIMD3<Double>) -> Double { c.max() - c.min() }

    static let blends: [String: (SIMD3<Double>, SIMD3<Double>) -> SIMD3<Double>] = [
        "multiplyBlendMode": separable { b, s in b * s },
        "screenBlendMode": separable { b, s in b + s - b * s },
        "overlayBlendMode": separable { b, s in b <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s) },
        "darkenBlendMode": separable { b, s in min(b, s) },
        "lightenBlendMode": separable { b, s in max(b, s) },
        "colorDodgeBlendMode": separable { b, s in b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) },
        "colorBurnBlendMode": separable { b, s in b == 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) },
        "hardLightBlendMode": separable { b, s in s <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s) },
        "softLightBlendMode": separable { b, s in
            s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * ((b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()) - b)
        },
        "differenceBlendMode": separable { b, s in abs(b - s) },
        "exclusionBlendMode": separable { b, s in b + s - 2 * b * s },
        "subtractBlendMode": separable { b, s in max(0, b - s) },
        "divideBlendMode": separable { b, s in s <= 0 ? (b > 0 ? 1 : 0) : min(1, b / s) },
        "linearBurnBlendMode": separable { b, s in max(0, b + s - 1) },
        "linearDodgeBlendMode": separable { b, s in min(1, b + s) },
        "pinLightBlendMode": separable { b, s in s <= 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1) },
        "vividLightBlendMode": separable { b, s in
            s <= 0.5 ? (b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / (2 * s))) : (b <= 0 ? 0 : s >= 1 ? 1 : min(1, b / (2 - 2 * s)))
        },
        "linearLightBlendMode": separable { b, s in min(1, max(0, b + 2 * s - 1)) },
        "hueBlendMode": { b, s in setLum(setSat(s, sat(b)), lum(b)) },
        "saturationBlendMode": { b, s in setLum(setSat(b, sat(s)), lum(b)) },
        "colorBlendMode": { b, s in setLum(s, lum(b)) },
        "luminosityBlendMode": { b, s in setLum(b, lum(s)) },
    ]

    static let porterDuff: [String: (SIMD4<Double>, SIMD4<Double>) -> SIMD4<Double>] = [
        "sourceIn": { s, d in s * d.w },
        "sourceOut": { s, d in s * (1 - d.w) },
        "sourceAtop": { s, d in s * d.w + d * (1 - s.w) },
        "additionCompositing": { s, d in s + d },
        "multiplyCompositing": { s, d in s * d },
        "maximumCompositing": { s, d in SIMD4(max(s.x, d.x), max(s.y, d.y), max(s.z, d.z), max(s.w, d.w)) },
        "minimumCompositing": { s, d in SIMD4(min(s.x, d.x), min(s.y, d.y), min(s.z, d.z), min(s.w, d.w)) },
    ]

    static var all: [String: FilterReferenceTests.Check] {
        var checks: [String: FilterReferenceTests.Check] = [:]
        for (name, blend) in blends {
            checks[name] = {
                let out = try F.apply(name, ["image": .image(F.sample), "backgroundImage": .image(F.other)])
                try F.expectEach(F.sample, F.other, tolerance: 2e-5, { s, d, _, _ in
                    func unpremultiplied(_ p: SIMD4<Double>) -> SIMD3<Double> {
                        p.w > 0 ? SIMD3(min(max(p.x / p.w, 0), 1), min(max(p.y / p.w, 0), 1), min(max(p.z / p.w, 0), 1)) : .zero
                    }
                    let mixed = blend(unpremultiplied(d), unpremultiplied(s))
                    let rgb = SIMD3(s.x, s.y, s.z) * (1 - d.w) + SIMD3(d.x, d.y, d.z) * (1 - s.w) + mixed * (s.w * d.w)
                    return SIMD4(rgb, s.w + d.w - s.w * d.w)
                }, of: out)
            }
        }
        for (name, combine) in porterDuff {
            checks[name] = {
                let out = try F.apply(name, ["image": .image(F.sample), "backgroundImage": .image(F.other)])
                try F.expectEach(F.sample, F.other, in: out.extent.intersection(F.box), { s, d, _, _ in combine(s, d) }, of: out)
            }
        }
        return checks
    }
}
