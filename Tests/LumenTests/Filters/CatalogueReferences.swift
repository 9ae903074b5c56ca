import Foundation
import Testing
@testable import Lumen

/// References for the filters of the second catalogue (coreimage-missing.md).
enum CatalogueReferences {
    typealias Check = () throws -> Void
    /// The catalogue's reference tables (FilterReferenceTests joins them and checks that no
    /// filter is named twice).
    static var tables: [[String: Check]] {
        [barcodes, reductions, colors, moreColors, shapes, halftones, edgeChecks, looks, ColorCubeTests.checks, sharpening,
         neighbourhoods] + DistortionTests.tables + [lastFilters, neighbourhoodChecks, enhancementChecks, text]
    }

    static let text: [String: Check] = [
        "textImageGenerator": { try TextTests().shapingMatchesPillowsRaqmLayout("Lumen: image pipelines, fi ffl AV To") },
        "attributedTextImageGenerator": { try TextTests().attributedTextIsTheSameGlyphsInItsColour() },
    ]

    typealias F = FilterReferenceTests
    static let luma = SIMD3<Double>(0.2126, 0.7152, 0.0722)
    static func srgb(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
    static func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func straight(_ c: Color) -> SIMD4<Double> {
        SIMD4(linear(c.red), linear(c.green), linear(c.blue), c.alpha)
    }

    /// `name` against `f` of the unpremultiplied linear pixel (alpha included), premultiplied after.
    static func perPixel(_ name: String, _ parameters: [String: FilterValue], tolerance: Double = 2e-5,
                         _ f: @escaping (SIMD4<Double>) -> SIMD4<Double>) throws {
        var values = parameters
        values["image"] = .image(F.sample)
        let out = try F.apply(name, values)
        try F.expectEach(F.sample, F.sample, tolerance: tolerance, { s, _, _, _ in
            let c = s.w > 0 ? SIMD4(s.x / s.w, s.y / s.w, s.z / s.w, s.w) : .zero
            let o = f(c)
            return SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
        }, of: out)
    }

    /// The sample blurred as the sharpening filters blur it (edges clamped); Gaussian blur
    /// has its own reference.
    static func blurred(_ sigma: Double) -> Image {
        F.sample.clampedToExtent().applyingGaussianBlur(sigma: sigma).cropped(to: F.sample.extent)
    }

    static func checkCombine(_ name: String, _ values: [String: FilterValue], sigma: Double,
                             _ f: @escaping (SIMD4<Double>, SIMD4<Double>) -> SIMD4<Double>) throws {
        var all = values
        all["image"] = .image(F.sample)
        try F.expectEach(F.sample, blurred(sigma), tolerance: 2e-5, { p, g, _, _ in f(p, g) }, of: try F.apply(name, all))
    }

    static let sharpening: [String: Check] = [
        "unsharpMask": {
            try checkCombine("unsharpMask", ["radius": .number(1.5), "intensity": .number(0.8)], sigma: 1.5) { p, g in p + (p - g) * 0.8 }
            // A step edge overshoots on both sides (the point of unsharp masking).
            let step = try F.apply("linearGradient", ["point0": .vector([9, 0]), "point1": .vector([10, 0])]).cropped(to: F.box)
            let out = try F.pixels(try F.apply("unsharpMask", ["image": .image(step), "radius": .number(2), "intensity": .number(1)]))
            let left = F.value(out, x: 7, y: 6).x, right = F.value(out, x: 12, y: 6).x
            #expect((left < 0 && right > 1) || (left > 1 && right < 0), "\(left) \(right)")
        },
        "sharpenLuminance": {
            try checkCombine("sharpenLuminance", ["radius": .number(1.2), "sharpness": .number(0.9)], sigma: 1.2) { p, g in
                let d = 0.9 * (SIMD3(p.x - g.x, p.y - g.y, p.z - g.z) * luma).sum()
                return p + SIMD4(d, d, d, 0)
            }
        },
        "bloom": {
            try checkCombine("bloom", ["radius": .number(2), "intensity": .number(0.7)], sigma: 2) { p, g in p + g * 0.7 - p * g * 0.7 }
        },
        "gloom": {
            try checkCombine("gloom", ["radius": .number(2), "intensity": .number(0.7)], sigma: 2) { p, g in
                let m = SIMD4<Double>(repeating: 0.3) + g * 0.7
                return SIMD4(p.x * m.x, p.y * m.y, p.z * m.z, p.w)
            }
        },
    ]

    /// The sample's pixel at (x, y), transparent outside it (read once into Doubles).
    static let samplePixel: (Int, Int) -> SIMD4<Double> = {
        let bitmap = try! F.pixels(F.sample)
        return { x, y in
            guard x >= 0, y >= 0, x < bitmap.width, y < bitmap.height else { return .zero }
            return F.value(bitmap, x: x, y: y)
        }
    }()

    /// `name` over the sample against `f(x, y)` at every pixel of the box outset by `reach`.
    static func checkNeighbourhood(_ name: String, _ values: [String: FilterValue], reach: Int = 0, reachY: Int? = nil,
                                   tolerance: Double = 2e-5, _ f: (Int, Int) -> SIMD4<Double>) throws {
        var all = values
        all["image"] = .image(F.sample)
        let rect = F.box.insetBy(dx: -Double(reach), dy: -Double(reachY ?? reach))
        let out = try F.pixels(try F.apply(name, all), rect)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let (ix, iy) = (x - reach, y - (reachY ?? reach))
                let expected = f(ix, iy), actual = F.value(out, x: x, y: y)
                guard F.close(actual, expected, tolerance) else {
                    Issue.record("\(name) (\(ix), \(iy)): \(actual) vs \(expected)")
                    return
                }
            }
        }
    }

    static func convolve(_ n: Int, _ m: Int, _ w: [Double], bias: Double, rgbOnly: Bool) -> (Int, Int) -> SIMD4<Double> {
        { x, y in
            var sum = SIMD4<Double>(repeating: bias)
            for j in 0..<m { for i in 0..<n { sum += samplePixel(x - n / 2 + i, y + m / 2 - j) * w[j * n + i] } }
            if rgbOnly { sum.w = samplePixel(x, y).w }
            return sum
        }
    }

    static func extremum(_ x: Int, _ y: Int, _ offsets: [(Int, Int)], largest: Bool) -> SIMD4<Double> {
        var e = SIMD4<Double>(repeating: largest ? -.infinity : .infinity)
        for (i, j) in offsets { e = largest ? pointwiseMax(e, samplePixel(x + i, y + j)) : pointwiseMin(e, samplePixel(x + i, y + j)) }
        return e
    }

    static func disc(_ r: Int) -> [(Int, Int)] { (-r...r).flatMap { j in (-r...r).filter { $0 * $0 + j * j <= r * r }.map { ($0, j) } } }
    static func box(_ w: Int, _ h: Int) -> [(Int, Int)] { (-(h / 2)...(h / 2)).flatMap { j in (-(w / 2)...(w / 2)).map { ($0, j) } } }

    static var neighbourhoods: [String: Check] {
        var checks: [String: Check] = [:]
        for (name, n, m) in [("convolution3X3", 3, 3), ("convolution5X5", 5, 5), ("convolution7X7", 7, 7), ("convolution9Horizontal", 9, 1), ("convolution9Vertical", 1, 9)] {
            for rgbOnly in [false, true] {
                let filter = rgbOnly ? name.replacingOccurrences(of: "convolution", with: "convolutionRGB") : name
                // Asymmetric weights, so a flipped or transposed kernel fails.
                let w = (0..<(n * m)).map { Double(($0 * 7) % 11) / 20 - 0.2 }
                checks[filter] = {
                    try checkNeighbourhood(filter, ["weights": .vector(w), "bias": .number(0.05)], reach: n / 2, reachY: m / 2,
                                           convolve(n, m, w, bias: 0.05, rgbOnly: rgbOnly))
                }
            }
        }
        checks["morphologyMaximum"] = {
            try checkNeighbourhood("morphologyMaximum", ["radius": .number(2.6)], reach: 3) { x, y in extremum(x, y, disc(3), largest: true) }
        }
        checks["morphologyMinimum"] = {
            try checkNeighbourhood("morphologyMinimum", ["radius": .number(2)]) { x, y in extremum(x, y, disc(2), largest: false) }
        }
        checks["morphologyGradient"] = {
            try checkNeighbourhood("morphologyGradient", ["radius": .number(3)]) { x, y in
                extremum(x, y, disc(3), largest: true) - extremum(x, y, disc(3), largest: false)
            }
        }
        checks["morphologyRectangleMaximum"] = {
            try checkNeighbourhood("morphologyRectangleMaximum", ["width": .number(7), "height": .number(4)], reach: 3) { x, y in
                extremum(x, y, box(7, 5), largest: true)  // 4 rounds up to 5
            }
        }
        checks["morphologyRectangleMinimum"] = {
            try checkNeighbourhood("morphologyRectangleMinimum", ["width": .number(3), "height": .number(9)]) { x, y in extremum(x, y, box(3, 9), largest: false) }
        }
        checks["medianFilter"] = {
            try checkNeighbourhood("medianFilter", [:]) { x, y in
                var m = SIMD4<Double>.zero
                for c in 0..<4 { m[c] = box(3, 3).map { samplePixel(x + $0.0, y + $0.1)[c] }.sorted()[4] }
                return m
            }
        }
        return checks
    }

    static func lab(_ c: SIMD3<Double>) -> SIMD3<Double> {
        // sRGB (linear) → XYZ D50 (Bradford-adapted matrix of the ICC sRGB profile) → Lab.
        let m: [[Double]] = [[0.4360747, 0.3850649, 0.1430804], [0.2225045, 0.7168786, 0.0606169], [0.0139322, 0.0971045, 0.7141733]]
        let xyz = m.map { $0[0] * c.x + $0[1] * c.y + $0[2] * c.z }
        let white = [0.9642, 1.0, 0.8249]
        let f = (0..<3).map { i -> Double in let t = xyz[i] / white[i]; return t > 0.008856451679 ? pow(t, 1.0 / 3) : (903.2962963 * t + 16) / 116 }
        return SIMD3(116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))
    }

    static func straight3(_ p: SIMD4<Double>) -> SIMD3<Double> { p.w > 0 ? SIMD3(p.x / p.w, p.y / p.w, p.z / p.w) : .zero }

    static let moreColors: [String: Check] = [
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
        "mix": {
            let out = try F.apply("mix", ["image": .image(F.sample), "backgroundImage": .image(F.other), "amount": .number(0.3)])
            try F.expectEach(F.sample, F.other, { a, b, _, _ in b + (a - b) * 0.3 }, of: out)
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
    ]

    /// Σ coverage (alpha) of `image` over its extent.
    static func coverage(_ image: Image) throws -> Double {
        let b = try F.pixels(image, image.extent)
        return stride(from: 3, to: b.samples.count, by: 4).map { Double(b.samples[$0]) }.reduce(0, +)
    }

    static let shapes: [String: Check] = [
        "roundedRectangle": {
            let image = try F.apply("roundedRectangle", ["extent": .vector([10.5, 20, 80, 50]), "radius": .number(12), "color": .color(.white)])
            let exact = 80.0 * 50 - (4 - Double.pi) * 144
            let area = try coverage(image)
            #expect(Swift.abs(area - exact) < 1, "area \(area) vs \(exact)")
            let b = try F.pixels(image, image.extent)
            func alpha(_ x: Double, _ y: Double) -> Double { F.value(b, x: Int(x - image.extent.minX), y: Int(y - image.extent.minY)).w }
            #expect(alpha(50, 45) == 1 && alpha(11, 21) == 0 && alpha(50, 20.5) == 1)  // inside, cut corner, middle of an edge
        },
        "roundedRectangleStroke": {
            let image = try F.apply("roundedRectangleStroke", ["extent": .vector([10, 20, 80, 50]), "radius": .number(12), "width": .number(4)])
            let perimeter = 2 * (80.0 + 50) - (8 - 2 * Double.pi) * 12
            let area = try coverage(image)
            #expect(Swift.abs(area - perimeter * 4) < perimeter * 4 * 0.01, "\(area) vs \(perimeter * 4)")
        },
        "blurredRectangle": {
            // The closed form against Lumen's Gaussian blur of the crisp rectangle.
            let rect = Rect(x: 20, y: 15, width: 40, height: 30)
            let image = try F.apply("blurredRectangle", ["extent": .vector([20, 15, 40, 30]), "sigma": .number(3), "color": .color(.white)])
            let blurred = Image(color: .white).cropped(to: rect).applyingGaussianBlur(sigma: 3)
            let area = Rect(x: 5, y: 0, width: 70, height: 60)
            let a = try F.pixels(image, area), b = try F.pixels(blurred, area)
            // Exact: the erf closed form in Double at a few pixels.
            func profile(_ p: Double, _ lo: Double, _ hi: Double) -> Double { 0.5 * (erf((p - lo) / (3 * 2.0.squareRoot())) - erf((p - hi) / (3 * 2.0.squareRoot()))) }
            for (x, y) in [(0, 0), (15, 16), (35, 30), (60, 44), (69, 59)] {
                let expected = profile(Double(x) + 5.5, 20, 60) * profile(Double(y) + 0.5, 15, 45)
                #expect(Swift.abs(F.value(a, x: x, y: y).w - expected) < 1e-6, "(\(x), \(y))")
            }
            // Against a blur of the crisp rectangle: the sampled 3σ kernel differs from the
            // continuous integral by up to ~1/(24σ²) ≈ 0.5 % near corners.
            for y in 0..<60 { for x in 0..<70 {
                guard F.close(F.value(a, x: x, y: y), F.value(b, x: x, y: y), 5e-3) else {
                    Issue.record("(\(x), \(y)): \(F.value(a, x: x, y: y)) vs blur \(F.value(b, x: x, y: y))"); return
                }
            } }
        },
        "meshGenerator": {
            let image = try F.apply("meshGenerator", ["mesh": .vector([10, 10, 60, 10, 60, 10, 60, 40]), "width": .number(3), "color": .color(.white)])
            let b = try F.pixels(image, Rect(x: 0, y: 0, width: 70, height: 50))
            #expect(F.value(b, x: 30, y: 10).w == 1 && F.value(b, x: 30, y: 12).w == 0 && F.value(b, x: 60, y: 25).w == 1 && F.value(b, x: 30, y: 25).w == 0)
            // Two segments of length 50 and 30, 3 wide, meeting at a corner: area ≈ 80·3.
            let area = try coverage(image)
            #expect(Swift.abs(area - 80 * 3) < 12, "\(area)")
        },
    ]

    static func screen(_ kind: String, _ x: Double, _ y: Double, c: SIMD2<Double>, angle: Double, width: Double) -> Double {
        let dx = x - c.x, dy = y - c.y
        let u = (dx * cos(angle) + dy * sin(angle)) / width, v = (-dx * sin(angle) + dy * cos(angle)) / width
        switch kind {
        case "dotScreen": return 0.5 + 0.25 * (cos(2 * .pi * u) + cos(2 * .pi * v))
        case "lineScreen": return 0.5 + 0.5 * cos(2 * .pi * v)
        case "hatchedScreen": return min(0.5 + 0.5 * cos(2 * .pi * v), 0.5 + 0.5 * cos(2 * .pi * u))
        default: return 0.5 + 0.5 * cos(2 * .pi * (dx * dx + dy * dy).squareRoot() / width)
        }
    }

    static func checkHalftone(_ name: String) throws {
        var values: [String: FilterValue] = ["image": .image(F.sample), "center": .vector([4, 3]), "width": .number(5), "sharpness": .number(0.6)]
        if name != "circularScreen" { values["angle"] = .number(0.5) }
        try F.expectEach(F.sample, F.sample, tolerance: 5e-5, { p, _, x, y in
            guard p.w > 0 else { return .zero }
            let b = srgb(min(1, max(0, (SIMD3(p.x, p.y, p.z) * luma).sum() / p.w)))
            let s = screen(name, Double(x) + 0.5, Double(y) + 0.5, c: SIMD2(4, 3), angle: name == "circularScreen" ? 0 : 0.5, width: 5)
            let g = linear(b <= 1e-6 ? 0 : b >= 1 - 1e-6 ? 1 : min(1, max(0, (b - s) / 0.4 + 0.5))) * p.w
            return SIMD4(g, g, g, p.w)
        }, of: try F.apply(name, values))
        // A mid grey (encoded 0.5) is half ink for the symmetric screens.
        guard name == "dotScreen" || name == "lineScreen" else { return }
        let grey = Image(color: Color(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: Rect(x: 0, y: 0, width: 60, height: 60))
        let out = try F.pixels(try F.apply(name, ["image": .image(grey), "width": .number(6), "sharpness": .number(1)]), grey.extent)
        let mean = stride(from: 0, to: out.samples.count, by: 4).map { srgb(Double(out.samples[$0])) }.reduce(0, +) / 3600
        #expect(Swift.abs(mean - 0.5) < 0.03, "\(name): mean \(mean)")
    }

    static let halftones: [String: Check] = [
        "dotScreen": { try checkHalftone("dotScreen") },
        "lineScreen": { try checkHalftone("lineScreen") },
        "hatchedScreen": { try checkHalftone("hatchedScreen") },
        "circularScreen": { try checkHalftone("circularScreen") },
        "cmykHalftone": {
            // Pure colours print with their own inks only: white paper stays white, black is K.
            for (color, expected) in [(Color.white, SIMD3<Double>(1, 1, 1)), (Color.black, SIMD3<Double>(0, 0, 0))] {
                let flat = Image(color: color).cropped(to: Rect(x: 0, y: 0, width: 30, height: 30))
                let out = try F.pixels(try F.apply("cmykHalftone", ["image": .image(flat), "sharpness": .number(1)]), flat.extent)
                for i in stride(from: 0, to: out.samples.count, by: 4) {
                    #expect(SIMD3(Double(out.samples[i]), Double(out.samples[i + 1]), Double(out.samples[i + 2])) == expected)
                    if SIMD3(Double(out.samples[i]), Double(out.samples[i + 1]), Double(out.samples[i + 2])) != expected { return }
                }
            }
            // Red (M + Y, no C) never shows cyan ink: red stays at full paper level everywhere.
            let red = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 30, height: 30))
            let out = try F.pixels(try F.apply("cmykHalftone", ["image": .image(red)]), red.extent)
            #expect(stride(from: 0, to: out.samples.count, by: 4).allSatisfy { out.samples[$0] == 1 })
        },
    ]

    static func sobelOf(_ x: Int, _ y: Int) -> (SIMD4<Double>, SIMD4<Double>) {
        let p = samplePixel
        let gx = (p(x + 1, y + 1) + p(x + 1, y) * 2 + p(x + 1, y - 1)) - (p(x - 1, y + 1) + p(x - 1, y) * 2 + p(x - 1, y - 1))
        let gy = (p(x - 1, y + 1) + p(x, y + 1) * 2 + p(x + 1, y + 1)) - (p(x - 1, y - 1) + p(x, y - 1) * 2 + p(x + 1, y - 1))
        return (gx / 4, gy / 4)
    }

    static let edgeChecks: [String: Check] = [
        "edges": {
            try checkNeighbourhood("edges", ["intensity": .number(1.5)]) { x, y in
                let (gx, gy) = sobelOf(x, y), m = (gx * gx + gy * gy).squareRoot() * 1.5
                return SIMD4(m.x, m.y, m.z, samplePixel(x, y).w)
            }
        },
        "sobelGradients": {
            try checkNeighbourhood("sobelGradients", [:]) { x, y in
                let (gx, gy) = sobelOf(x, y), l4 = SIMD4(luma.x, luma.y, luma.z, 0)
                return SIMD4((gx * l4).sum(), (gy * l4).sum(), 0, 1)
            }
        },
        "cannyEdgeDetector": {
            // A bright 40 × 40 square on black: one closed outline, one pixel thick, nothing elsewhere.
            let square = Image(color: .white).cropped(to: Rect(x: 30, y: 30, width: 40, height: 40))
                .composited(over: Image(color: .black).cropped(to: Rect(x: 0, y: 0, width: 100, height: 100)))
            let out = try F.pixels(try F.apply("cannyEdgeDetector", ["image": .image(square)]), Rect(x: 0, y: 0, width: 100, height: 100))
            var count = 0
            for y in 0..<100 { for x in 0..<100 where F.value(out, x: x, y: y).x == 1 {
                count += 1
                let nearEdge = (x >= 27 && x <= 72 && y >= 27 && y <= 72) && !(x >= 33 && x <= 66 && y >= 33 && y <= 66)
                #expect(nearEdge, "an edge at (\(x), \(y)), away from the square's outline")
            } }
            #expect(count >= 4 * 36 && count <= 4 * 44, "\(count) edge pixels for a 40-pixel square")
            // Stricter thresholds find fewer edges.
            let none = try F.pixels(try F.apply("cannyEdgeDetector", ["image": .image(square), "thresholdHigh": .number(5), "thresholdLow": .number(4)]),
                                    Rect(x: 0, y: 0, width: 100, height: 100))
            #expect(stride(from: 0, to: none.samples.count, by: 4).allSatisfy { none.samples[$0] == 0 })
        },
    ]

    /// A flat colour and a hard vertical edge at x = 20, both 40 × 30.
    static let flat = Image(color: Color(red: 0.6, green: 0.4, blue: 0.3)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
    static let step = Image(color: .white).cropped(to: Rect(x: 20, y: 0, width: 20, height: 30))
        .composited(over: Image(color: .black).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30)))

    /// Inked (dark or opaque-ink) pixels of `name` on the step, by column.
    static func inkColumns(_ name: String, _ values: [String: FilterValue] = [:], ink: (SIMD4<Double>) -> Bool) throws -> Set<Int> {
        var all = values
        all["image"] = .image(step)
        let out = try F.pixels(try F.apply(name, all), step.extent)
        var columns = Set<Int>()
        for x in 3..<37 where ink(F.value(out, x: x, y: 15)) { columns.insert(x) }
        return columns
    }

    static let looks: [String: Check] = [
        "lenticularHaloGenerator": {
            let out = try F.apply("lenticularHaloGenerator", ["center": .vector([9, 6]), "haloRadius": .number(5), "haloWidth": .number(4),
                                                              "haloOverlap": .number(0.5), "striationStrength": .number(0.4), "color": .color(.white)])
            try F.expectEach(F.sample, F.sample, tolerance: 2e-5, { _, _, x, y in
                let v = SIMD2(Double(x) + 0.5 - 9, Double(y) + 0.5 - 6), r = (v * v).sum().squareRoot(), theta = atan2(v.y, v.x)
                let s = max(0, 1 + 0.4 * sin(37 * theta) * sin(11 * theta))
                func ring(_ k: Double) -> Double { let t = (r - (5 + k * 0.5 * 2)) / 2; return exp(-t * t) * s }
                let rgb = SIMD3(ring(1), ring(0), ring(-1)), a = min(1, rgb.max())
                return SIMD4(min(rgb.x, a), min(rgb.y, a), min(rgb.z, a), a)
            }, of: out)
        },
        "noiseReduction": {
            // Without sharpening: the luma-weighted 3 × 3 mean, by brute force.
            try checkNeighbourhood("noiseReduction", ["noiseLevel": .number(0.3), "sharpness": .number(0)], tolerance: 3e-5) { x, y in
                let c = samplePixel(x, y), yc = (SIMD3(c.x, c.y, c.z) * luma).sum()
                var sum = SIMD4<Double>.zero, total = 0.0
                for j in -1...1 { for i in -1...1 {
                    let p = samplePixel(x + i, y + j)
                    let w = max(0, 1 - Swift.abs((SIMD3(p.x, p.y, p.z) * luma).sum() - yc) / 0.3)
                    sum += p * w; total += w
                } }
                return total > 0 ? sum / total : c
            }
        },
        "comicEffect": {
            let out = try F.pixels(try F.apply("comicEffect", ["image": .image(flat)]), Rect(x: 5, y: 5, width: 30, height: 20))
            let posterized = try F.pixels(try F.apply("colorPosterize", ["image": .image(flat), "levels": .number(4)]), Rect(x: 5, y: 5, width: 30, height: 20))
            #expect(out == posterized, "a flat area gets no ink")
            // The white half (x ≥ 20) is inked black next to the edge, and only there.
            let inked = try inkColumns("comicEffect") { $0.x < 0.5 }.filter { $0 >= 20 }
            #expect(inked.contains(20) && inked.allSatisfy { $0 <= 23 }, "ink on the white side: \(inked.sorted())")
        },
        "edgeWork": {
            let out = try F.pixels(try F.apply("edgeWork", ["image": .image(flat)]), Rect(x: 8, y: 8, width: 24, height: 14))
            #expect(stride(from: 0, to: out.samples.count, by: 4).allSatisfy { out.samples[$0] == 1 }, "white where nothing changes")
            let black = try inkColumns("edgeWork", ["radius": .number(1)]) { $0.x < 0.05 }
            #expect(!black.isEmpty && black.allSatisfy { (15...24).contains($0) }, "\(black.sorted())")
        },
        "lineOverlay": {
            let out = try F.pixels(try F.apply("lineOverlay", ["image": .image(flat)]), Rect(x: 5, y: 5, width: 30, height: 20))
            #expect(stride(from: 3, to: out.samples.count, by: 4).allSatisfy { out.samples[$0] == 0 }, "transparent where nothing changes")
            let lines = try inkColumns("lineOverlay") { $0.w > 0.9 && $0.x == 0 }
            #expect(!lines.isEmpty && lines.allSatisfy { (17...22).contains($0) }, "\(lines.sorted())")
        },
        "spotLight": {
            let position = SIMD3<Double>(30, 20, 25), target = SIMD3<Double>(5, 5, 0)
            let direction = (target - position) / ((target - position) * (target - position)).sum().squareRoot()
            let light = Color(red: 1, green: 0.8, blue: 0.6), l = straight(light)
            let out = try F.apply("spotLight", ["image": .image(F.sample), "lightPosition": .vector([30, 20, 25]), "lightPointsAt": .vector([5, 5, 0]),
                                                "brightness": .number(2), "concentration": .number(0.5), "color": .color(light)])
            try F.expectEach(F.sample, F.sample, tolerance: 3e-5, { p, _, x, y in
                var v = position - SIMD3(Double(x) + 0.5, Double(y) + 0.5, 0)
                v /= (v * v).sum().squareRoot()
                let k = 2 * pow(max(0, -(v * direction).sum()), 2) * max(0, v.z)
                return SIMD4(p.x * k * l.x, p.y * k * l.y, p.z * k * l.z, p.w)
            }, of: out)
        },
    ]

    static let colors: [String: Check] = [
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
    ]

    /// Reductions against numpy over the same pixels (ReductionTests).
    static let reductions: [String: Check] = F.join([Dictionary(uniqueKeysWithValues: ReductionTests.names.map { name in
        (name, { try ReductionTests.check(name) })
    }), ["kMeans": { try ReductionTests().kMeansFindsTheColoursAndTheirShares() },
         "palettize": { try ReductionTests().palettesTakeTheNearestColourAndItsCentroid() },
         "paletteCentroid": { try ReductionTests().palettesTakeTheNearestColourAndItsCentroid() }]])

    // MARK: Barcodes — pixels against the zint command-line tool's own module dump

    static let barcodes: [String: Check] = [
        "qrCode": { try checkAgainstZint("qrCode", ["message": .string("Lumen QR"), "correctionLevel": .string("Q")],
                                         zint: ["-b", "58", "--secure=3"], message: "Lumen QR", rowHeight: 1, quietX: 1, quietY: 1) },
        "aztecCode": { try checkAgainstZint("aztecCode", ["message": .string("Lumen Aztec"), "correctionLevel": .number(36)],
                                            zint: ["-b", "92", "--secure=3"], message: "Lumen Aztec", rowHeight: 1, quietX: 1, quietY: 1) },
        "pdf417Barcode": { try checkAgainstZint("pdf417Barcode", ["message": .string("Lumen PDF417"), "correctionLevel": .number(3), "dataColumns": .number(4)],
                                                zint: ["-b", "55", "--secure=3", "--cols=4"], message: "Lumen PDF417", rowHeight: 3, quietX: 2, quietY: 2) },
        "code128Barcode": { try checkAgainstZint("code128Barcode", ["message": .string("Lumen-128"), "quietSpace": .number(3), "barcodeHeight": .number(5)],
                                                 zint: ["-b", "20"], message: "Lumen-128", rowHeight: 5, quietX: 3, quietY: 3) },
    ]

    /// The filter's pixels equal `zint --dump` (hex rows, most significant bit first),
    /// each row `rowHeight` pixels tall, inside white quiet zones.
    static func checkAgainstZint(_ filter: String, _ values: [String: FilterValue], zint arguments: [String], message: String,
                                 rowHeight: Int, quietX: Int, quietY: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zint", "--dump"] + arguments + ["-d", message]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let rows = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "zint (Debian package zint) is needed")
        let modules: [[Bool]] = rows.map { row in
            row.split(separator: " ").flatMap { byte -> [Bool] in
                // Two hex digits per 8 modules; a last single digit holds 4.
                let value = UInt8(byte, radix: 16) ?? 0, bits = byte.count * 4
                return (0..<bits).map { value & (1 << (bits - 1 - $0)) != 0 }
            }
        }
        let image = try FilterRegistry.descriptor(named: filter)!.apply(values)
        let bitmap = try render8(image)
        #expect(bitmap.height == modules.count * rowHeight + 2 * quietY)
        let width = bitmap.width - 2 * quietX
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let r = row - quietY, m = x - quietX
                let dark = r >= 0 && r < modules.count * rowHeight && m >= 0 && m < width && modules[r / rowHeight][m]
                let value = bitmap.pixel(x: x, row: row)
                guard value == (dark ? SIMD4<Float>(0, 0, 0, 255) : SIMD4<Float>(255, 255, 255, 255)) else {
                    Issue.record("\(filter): pixel (\(x), \(row)) is \(value), zint's module is \(dark ? "dark" : "light")")
                    return
                }
            }
        }
    }
}
