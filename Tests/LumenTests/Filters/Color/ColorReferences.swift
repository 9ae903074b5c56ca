import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Color/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let colorReferences: [String: Check] = [
        "labDeltaE": {
            let out = try F.apply("labDeltaE", ["image": .image(F.sample), "image2": .image(F.other)])
            try F.expectEach(F.sample, F.other, tolerance: 2e-3, { a, b, _, _ in
                let l1 = lab(straight3(a)), l2 = lab(straight3(b))
                let c1 = (l1.y * l1.y + l1.z * l1.z).squareRoot(), c2 = (l2.y * l2.y + l2.z * l2.z).squareRoot()
                let dH2 = max(0, pow(l1.y - l2.y, 2) + pow(l1.z - l2.z, 2) - pow(c1 - c2, 2))
                let e = (pow(l1.x - l2.x, 2) + pow((c1 - c2) / (1 + 0.045 * c1), 2) + dH2 / pow(1 + 0.015 * c1, 2)).squareRoot()
                return SIMD4(e, e, e, 1)
            }, of: out)
        },
        "colorAbsoluteDifference": {
            let out = try F.apply("colorAbsoluteDifference", ["image": .image(F.sample), "image2": .image(F.other)])
            try F.expectEach(F.sample, F.other, { a, b, _, _ in
                let d = straight3(a) - straight3(b), alpha = a.w * b.w
                return SIMD4(Swift.abs(d.x) * alpha, Swift.abs(d.y) * alpha, Swift.abs(d.z) * alpha, alpha)
            }, of: out)
        },
        "convertRGBtoLab": {
            // ICC's values for sRGB white and red in D50 Lab.
            let red = try F.pixels(try F.apply("convertRGBtoLab", ["image": .image(Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: F.box))]))
            let v = F.value(red, x: 2, y: 2)
            #expect(Swift.abs(v.x - 54.29) < 0.05 && Swift.abs(v.y - 80.80) < 0.1 && Swift.abs(v.z - 69.89) < 0.1, "\(v)")
            try perPixel("convertRGBtoLab", ["normalize": .number(1)], tolerance: 1e-4) { c in
                let l = lab(SIMD3(c.x, c.y, c.z))
                return SIMD4(l.x / 100, l.y / 128, l.z / 128, c.w)
            }
        },
        "convertLabToRGB": {
            let there = try F.apply("convertRGBtoLab", ["image": .image(F.sample)])
            let back = try F.apply("convertLabToRGB", ["image": .image(there)])
            try F.expectEach(F.sample, F.sample, tolerance: 2e-4, { s, _, _, _ in s }, of: back)
        },
        "thermal": {
            let stops: [SIMD3<Double>] = [SIMD3(0, 0, 0), SIMD3(0.02, 0.02, 0.5), SIMD3(0.35, 0.02, 0.45), SIMD3(0.9, 0.05, 0.05),
                                          SIMD3(1, 0.4, 0), SIMD3(1, 0.9, 0.05), SIMD3(1, 1, 1)]
            try perPixel("thermal", [:]) { c in
                let t = min(1, max(0, (SIMD3(c.x, c.y, c.z) * luma).sum())) * 6, k = min(Int(t), 5)
                let o = stops[k] + (stops[k + 1] - stops[k]) * (t - Double(k))
                return SIMD4(o.x, o.y, o.z, c.w)
            }
        },
        "xRay": {
            let stops: [SIMD3<Double>] = [SIMD3(0.02, 0.03, 0.08), SIMD3(0.55, 0.75, 0.9), SIMD3(0.95, 1, 1)]
            try perPixel("xRay", [:]) { c in
                let t = (1 - min(1, max(0, (SIMD3(c.x, c.y, c.z) * luma).sum()))) * 2, k = min(Int(t), 1)
                let o = stops[k] + (stops[k + 1] - stops[k]) * (t - Double(k))
                return SIMD4(o.x, o.y, o.z, c.w)
            }
        },
        "whitePointAdjust": {
            let white = Color(red: 0.9, green: 0.8, blue: 0.6)
            let w = straight(white)
            try perPixel("whitePointAdjust", ["color": .color(white)]) { c in SIMD4(c.x / w.x, c.y / w.y, c.z / w.z, c.w) }
        },
        "dither": {
            // Noise of ±intensity/2 in encoded values, centred on the input, fixed per position.
            let flat = Image(color: Color(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: Rect(x: 0, y: 0, width: 64, height: 64))
            let out = try F.pixels(try F.apply("dither", ["image": .image(flat), "intensity": .number(0.2)]), flat.extent)
            var sum = 0.0, n = 0.0
            for y in 0..<64 { for x in 0..<64 {
                let e = srgb(F.value(out, x: x, y: y).x)
                #expect(Swift.abs(e - 0.5) <= 0.1 + 1e-6)
                sum += e; n += 1
            } }
            #expect(Swift.abs(sum / n - 0.5) < 0.01, "mean \(sum / n)")
        },
        "depthToDisparity": { try perPixel("depthToDisparity", [:]) { c in SIMD4(c.x == 0 ? 0 : 1 / c.x, c.y == 0 ? 0 : 1 / c.y, c.z == 0 ? 0 : 1 / c.z, c.w) } },
        "disparityToDepth": { try perPixel("disparityToDepth", [:], tolerance: 1e-4) { c in SIMD4(c.x == 0 ? 0 : 1 / c.x, c.y == 0 ? 0 : 1 / c.y, c.z == 0 ? 0 : 1 / c.z, c.w) } },
        "colorMap": {
            // A gradient 11 pixels wide from blue to yellow: luma picks a column.
            let gradient = try F.apply("linearGradient", ["point0": .vector([0.5, 0]), "point1": .vector([10.5, 0]),
                                                          "color0": .color(Color(red: 0, green: 0, blue: 1)), "color1": .color(Color(red: 1, green: 1, blue: 0))])
                .cropped(to: Rect(x: 0, y: 0, width: 11, height: 3))
            let g0 = straight(Color(red: 0, green: 0, blue: 1)), g1 = straight(Color(red: 1, green: 1, blue: 0))
            try perPixel("colorMap", ["gradientImage": .image(gradient)], tolerance: 5e-5) { c in
                let t = min(1, max(0, (SIMD3(c.x, c.y, c.z) * luma).sum()))
                let o = g0 + (g1 - g0) * t
                return SIMD4(o.x, o.y, o.z, c.w)
            }
        },
        "colorCurves": {
            let samples: [Float] = [0, 0.1, 0.2, 0.3, 0.5, 0.4, 0.9, 0.8, 0.6, 1, 1, 1]
            let data = samples.withUnsafeBytes { Data($0) }
            try perPixel("colorCurves", ["curvesData": .data(data), "curvesDomain": .vector([0, 1]), "colorSpace": .string("linearSRGB")]) { c in
                func curve(_ v: Double, _ ch: Int) -> Double {
                    let u = min(3, max(0, v * 3)), k = min(Int(u), 2), f = u - Double(k)
                    return Double(samples[k * 3 + ch]) + (Double(samples[(k + 1) * 3 + ch]) - Double(samples[k * 3 + ch])) * f
                }
                return SIMD4(curve(c.x, 0), curve(c.y, 1), curve(c.z, 2), c.w)
            }
        },
        "falseColor": {
            let c0 = Color(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.8), c1 = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
            try perPixel("falseColor", ["color0": .color(c0), "color1": .color(c1)]) { c in
                let t = min(1, max(0, (SIMD3(c.x, c.y, c.z) * luma).sum()))
                let m = straight(c0) + (straight(c1) - straight(c0)) * t
                return SIMD4(m.x, m.y, m.z, c.w * m.w)
            }
        },
        "maskToAlpha": {
            let out = try F.apply("maskToAlpha", ["image": .image(F.sample)])
            try F.expectEach(F.sample, F.sample, { s, _, _, _ in SIMD4(repeating: (SIMD3(s.x, s.y, s.z) * luma).sum()) }, of: out)
        },
        "linearToSRGBToneCurve": {
            try perPixel("linearToSRGBToneCurve", [:]) { c in SIMD4(srgb(c.x), srgb(c.y), srgb(c.z), c.w) }
        },
        "sRGBToneCurveToLinear": {
            try perPixel("sRGBToneCurveToLinear", [:]) { c in SIMD4(linear(c.x), linear(c.y), linear(c.z), c.w) }
            // The two curves undo each other.
            let there = try F.apply("linearToSRGBToneCurve", ["image": .image(F.sample)])
            let back = try F.apply("sRGBToneCurveToLinear", ["image": .image(there)])
            try F.expectEach(F.sample, F.sample, tolerance: 1e-5, { s, _, _, _ in s }, of: back)
        },
        "minimumComponent": { try perPixel("minimumComponent", [:]) { c in let m = min(c.x, c.y, c.z); return SIMD4(m, m, m, c.w) } },
        "maximumComponent": { try perPixel("maximumComponent", [:]) { c in let m = max(c.x, c.y, c.z); return SIMD4(m, m, m, c.w) } },
        "colorClamp": {
            try perPixel("colorClamp", ["minComponents": .vector([0.1, 0.2, 0, 0.3]), "maxComponents": .vector([0.5, 0.6, 0.4, 0.9])]) { c in
                SIMD4(min(max(c.x, 0.1), 0.5), min(max(c.y, 0.2), 0.6), min(max(c.z, 0), 0.4), min(max(c.w, 0.3), 0.9))
            }
        },
        "colorPosterize": {
            try perPixel("colorPosterize", ["levels": .number(4)], tolerance: 1e-5) { c in
                func q(_ v: Double) -> Double { linear((min(1, max(0, srgb(max(0, v)))) * 3).rounded() / 3) }
                return SIMD4(q(c.x), q(c.y), q(c.z), c.w)
            }
        },
        "colorThreshold": {
            try perPixel("colorThreshold", ["threshold": .number(0.3)]) { c in SIMD4(c.x > 0.3 ? 1 : 0, c.y > 0.3 ? 1 : 0, c.z > 0.3 ? 1 : 0, c.w) }
        },
        "colorCrossPolynomial": {
            let r: [Double] = [0.5, 0.1, 0, 0.2, 0, 0, 0.3, 0, 0, 0.05], g: [Double] = [0, 0.9, 0, 0, 0.1, 0, 0, 0.2, 0, 0]
            let b: [Double] = [0, 0, 0.7, 0, 0, 0.3, 0, 0, 0.1, 0.02]
            try perPixel("colorCrossPolynomial", ["redCoefficients": .vector(r), "greenCoefficients": .vector(g), "blueCoefficients": .vector(b)]) { c in
                let t = [c.x, c.y, c.z, c.x * c.x, c.y * c.y, c.z * c.z, c.x * c.y, c.y * c.z, c.z * c.x, 1]
                func dot(_ k: [Double]) -> Double { zip(k, t).map(*).reduce(0, +) }
                return SIMD4(dot(r), dot(g), dot(b), c.w)
            }
        },
        "colorPolynomial": {
            let r = [0.1, 0.8, 0.1, 0.0], g = [0, 1, -0.2, 0.1], b = [0.05, 0.5, 0.3, 0.1], a = [0, 0.9, 0, 0.05]
            try perPixel("colorPolynomial", ["redCoefficients": .vector(r), "greenCoefficients": .vector(g), "blueCoefficients": .vector(b),
                                             "alphaCoefficients": .vector(a)]) { c in
                func p(_ k: [Double], _ v: Double) -> Double { k[0] + k[1] * v + k[2] * v * v + k[3] * v * v * v }
                return SIMD4(p(r, c.x), p(g, c.y), p(b, c.z), p(a, c.w))
            }
        },
        "spotColor": {
            let centers = [Color(red: 0.5, green: 0.3, blue: 0.3), Color(red: 0.3, green: 0.35, blue: 0.7), Color(red: 0.9, green: 0.9, blue: 0.9)]
            let replacements = [Color(red: 0, green: 1, blue: 0), Color(red: 1, green: 1, blue: 0), Color(red: 0.2, green: 0.1, blue: 0.6)]
            let closeness = [0.3, 0.25, 0.4], contrast = [0.5, 0.9, 0.2]
            var values: [String: FilterValue] = [:]
            for i in 0..<3 {
                values["centerColor\(i + 1)"] = .color(centers[i]); values["replacementColor\(i + 1)"] = .color(replacements[i])
                values["closeness\(i + 1)"] = .number(closeness[i]); values["contrast\(i + 1)"] = .number(contrast[i])
            }
            var touched = 0
            try perPixel("spotColor", values, tolerance: 2e-5) { c in
                var rgb = SIMD3(c.x, c.y, c.z)
                for i in 0..<3 {
                    let e = SIMD3(srgb(rgb.x), srgb(rgb.y), srgb(rgb.z)), k = SIMD3(centers[i].red, centers[i].green, centers[i].blue)
                    let d = ((e - k) * (e - k)).sum().squareRoot(), low = closeness[i] * contrast[i], high = closeness[i]
                    let t = min(1, max(0, (d - low) / (high - low))), w = d >= high ? 0 : d <= low ? 1 : 1 - t * t * (3 - 2 * t)
                    let r = straight(replacements[i])
                    if w > 0 { touched += 1 }
                    rgb += (SIMD3(r.x, r.y, r.z) - rgb) * w
                }
                return SIMD4(rgb.x, rgb.y, rgb.z, c.w)
            }
            #expect(touched > 20, "the ranges should replace part of the sample: \(touched)")
        },
        "toneMapHeadroom": {
            // The sample brightened to a peak of 4, mapped to a headroom of 2.
            let bright = try F.apply("exposureAdjust", ["image": .image(F.sample), "ev": .number(2)])
            let out = try F.apply("toneMapHeadroom", ["image": .image(bright), "sourceHeadroom": .number(4), "targetHeadroom": .number(2)])
            func f(_ m: Double) -> Double { let w = 2.0, x = m / 2; return 2 * x * (1 + x / (w * w)) / (1 + x) }
            try F.expectEach(bright, bright, tolerance: 1e-5, { p, _, _, _ in
                let m = max(p.x, p.y, p.z)  // premultiplied: the ratio is the same for the straight colour's max
                guard m > 0 else { return p }
                let straightMax = m / p.w, k = f(straightMax) / straightMax
                return SIMD4(p.x * k, p.y * k, p.z * k, p.w)
            }, of: out)
            // The source's peak lands on the target's, and nothing changes when the target is larger.
            let four = try F.apply("exposureAdjust", ["image": .image(Image(color: Color(red: 1, green: 0.5, blue: 0.2)).cropped(to: F.box)), "ev": .number(2)])
            let peak = try F.pixels(try F.apply("toneMapHeadroom", ["image": .image(four), "sourceHeadroom": .number(4), "targetHeadroom": .number(2)]))
            #expect(abs(F.value(peak, x: 0, y: 0).x - 2) < 1e-5)
            let same = try F.apply("toneMapHeadroom", ["image": .image(bright), "sourceHeadroom": .number(2), "targetHeadroom": .number(3)])
            #expect(same == bright)
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

extension FilterReferenceTests {
    static let colorReferences: [String: Check] = [
        "colorMatrix": {
            let (r, g, b, a, bias): (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>) =
                ([0.5, 0.2, 0.1, 0], [0.1, 0.9, 0, 0], [0, 0.3, 0.6, 0.1], [0, 0, 0, 0.8], [0.05, 0, -0.02, 0.1])
            let out = try apply("colorMatrix", ["image": .image(sample), "rVector": .vector(list(r)), "gVector": .vector(list(g)),
                                                "bVector": .vector(list(b)), "aVector": .vector(list(a)), "biasVector": .vector(list(bias))])
            try expectEach(sample, sample, { s, _, _, _ in
                let c = s.w > 0 ? SIMD4(s.x / s.w, s.y / s.w, s.z / s.w, s.w) : .zero
                let m = SIMD4((c * r).sum(), (c * g).sum(), (c * b).sum(), (c * a).sum()) + bias
                return SIMD4(m.x * m.w, m.y * m.w, m.z * m.w, m.w)
            }, of: out)
        },
        "colorControls": {
            let out = try apply("colorControls", ["image": .image(sample), "saturation": .number(0.4), "brightness": .number(0.1), "contrast": .number(1.3)])
            try expectEach(sample, sample, { s, _, _, _ in
                var c = s.w > 0 ? SIMD3(s.x / s.w, s.y / s.w, s.z / s.w) : .zero
                let luma = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
                c = SIMD3(repeating: luma) + (c - SIMD3(repeating: luma)) * 0.4
                // Brightness and contrast on sRGB-encoded values (pivot: perceptual mid-grey).
                func encode(_ v: Double) -> Double { v < 0 ? -encode(-v) : v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
                func decode(_ v: Double) -> Double { v < 0 ? -decode(-v) : v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
                c = SIMD3(encode(c.x), encode(c.y), encode(c.z))
                c += 0.1
                c = (c - 0.5) * 1.3 + 0.5
                c = SIMD3(decode(c.x), decode(c.y), decode(c.z))
                return SIMD4(c * s.w, s.w)
            }, of: out)
            let same = try apply("colorControls", ["image": .image(sample)])
            #expect(same == sample, "identity values leave the graph unchanged")
        },
        "exposureAdjust": {
            let out = try apply("exposureAdjust", ["image": .image(sample), "ev": .number(-1.5)])
            try expectEach(sample, sample, { s, _, _, _ in SIMD4(s.x * pow(2, -1.5), s.y * pow(2, -1.5), s.z * pow(2, -1.5), s.w) }, of: out)
        },
    ]
}
