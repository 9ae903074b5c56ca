import Foundation
import Testing
@testable import Lumen

/// References for the last filters of coreimage-missing.md: each against a scalar
/// formula written here in Double, or an independent tool (OpenCV's Otsu).
extension CatalogueReferences {
    static let lastFilters: [String: Check] = [
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
        "colorThresholdOtsu": {
            // A photo: OpenCV's Otsu over the same 256 luma bins picks the threshold.
            let photo = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingLanczosScale(0.1)
            let pixels = try F.pixels(photo, photo.extent)
            let file = Paths.temporaryDirectory().appendingPathComponent("otsu.f32")
            try pixels.samples.withUnsafeBytes { try Data($0).write(to: file) }
            let t = try #require(Int(try runScript("otsu-opencv.py", [file.path, "\(pixels.width)", "\(pixels.height)"],
                                                   hint: "OpenCV is needed: pip install opencv-python-headless (scripts/setup does)")
                .trimmingCharacters(in: .whitespacesAndNewlines)))
            let threshold = Double(t + 1) / 256
            let out = try F.apply("colorThresholdOtsu", ["image": .image(photo)])
            try F.expectEach(photo, photo, in: photo.extent, tolerance: 0, { p, _, _, _ in
                guard p.w > 0 else { return .zero }
                return SIMD4(p.x / p.w >= threshold ? p.w : 0, p.y / p.w >= threshold ? p.w : 0, p.z / p.w >= threshold ? p.w : 0, p.w)
            }, of: out)
            #expect(t > 10 && t < 245, "a photo splits somewhere in the middle: \(t)")
        },
        "histogramDisplayFilter": {
            let histogram = try F.apply("areaHistogram", ["image": .image(F.sample), "extent": .vector([0, 0, 19, 13]), "count": .number(16), "scale": .number(4)])
            let bins = try F.pixels(histogram, histogram.extent)
            let out = try F.apply("histogramDisplayFilter", ["image": .image(histogram), "height": .number(20), "highLimit": .number(0.8), "lowLimit": .number(0.05)])
            #expect(out.extent == Rect(x: 0, y: 0, width: 16, height: 20))
            let drawn = try F.pixels(out, out.extent)
            var lit = 0
            for x in 0..<16 {
                let v = F.value(bins, x: x, y: 0)
                for y in 0..<20 {
                    func on(_ value: Double) -> Double { Double(y) + 0.5 < 20 * min(1, max(0, (value - 0.05) / 0.75)) ? 1 : 0 }
                    let e = SIMD4(on(v.x), on(v.y), on(v.z), 1), a = F.value(drawn, x: x, y: y)
                    lit += Int(e.x + e.y + e.z)
                    #expect(a == e, "(\(x), \(y)) \(a) vs \(e)")
                    if a != e { return }
                }
            }
            #expect(lit > 20)
        },
    ]
}
