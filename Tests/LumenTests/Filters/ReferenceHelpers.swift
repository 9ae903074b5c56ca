import Foundation
import Testing
@testable import Lumen

/// What the reference checks share: colour math in Double, per-pixel and neighbourhood
/// checks over the sample image, and the computed tables (convolutions, reductions).
enum ReferenceHelpers {
    typealias Check = () throws -> Void

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
                let w = (0..<(n * m)).map { (i: Int) -> Double in Double((i * 7) % 11) / 20 - 0.2 }
                checks[filter] = {
                    try checkNeighbourhood(filter, ["weights": .vector(w), "bias": .number(0.05)], reach: n / 2, reachY: m / 2,
                                           convolve(n, m, w, bias: 0.05, rgbOnly: rgbOnly))
                }
            }
        }
        checks["morphologyMaximum"] = {
            try checkNeighbourhood("morphologyMaximum", ["radius": .number(2.6)], reach: 3) { x, y in extremum(x, y, disc(3), largest: true) }
            // Past Morphology.directReach (16 rows each side): van Herk's scans.
            try checkNeighbourhood("morphologyMaximum", ["radius": .number(17)], reach: 17) { x, y in extremum(x, y, disc(17), largest: true) }
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
            // Past Morphology.directReach (64 pixels each side): van Herk's scans.
            try checkNeighbourhood("morphologyRectangleMaximum", ["width": .number(131), "height": .number(3)], reach: 65) { x, y in
                extremum(x, y, box(131, 3), largest: true)
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

    /// Σ coverage (alpha) of `image` over its extent.
    static func coverage(_ image: Image) throws -> Double {
        let b = try F.pixels(image, image.extent)
        return stride(from: 3, to: b.samples.count, by: 4).map { Double(b.samples[$0]) }.reduce(0, +)
    }

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

    static func sobelOf(_ x: Int, _ y: Int) -> (SIMD4<Double>, SIMD4<Double>) {
        let p = samplePixel, two: Double = 2, four: Double = 4
        let right: SIMD4<Double> = p(x + 1, y + 1) + p(x + 1, y) * two + p(x + 1, y - 1)
        let left: SIMD4<Double> = p(x - 1, y + 1) + p(x - 1, y) * two + p(x - 1, y - 1)
        let above: SIMD4<Double> = p(x - 1, y + 1) + p(x, y + 1) * two + p(x + 1, y + 1)
        let below: SIMD4<Double> = p(x - 1, y - 1) + p(x, y - 1) * two + p(x + 1, y - 1)
        return ((right - left) / four, (above - below) / four)
    }

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

    /// Reductions against numpy over the same pixels (ReductionTests).
    static let reductions: [String: Check] = F.join([Dictionary(uniqueKeysWithValues: ReductionTests.names.map { name in
        (name, { try ReductionTests.check(name) })
    }), ["kMeans": { try ReductionTests().kMeansFindsTheColoursAndTheirShares() },
         "palettize": { try ReductionTests().palettesTakeTheNearestColourAndItsCentroid() },
         "paletteCentroid": { try ReductionTests().palettesTakeTheNearestColourAndItsCentroid() }]])

    // MARK: Barcodes — pixels against the zint command-line tool's own module dump

    /// The filter's pixels equal `zint --dump` (hex rows, most significant bit first),
    /// each row `rowHeight` pixels tall, inside white quiet zones.
    static func checkAgainstZint(_ filter: String, _ values: [String: FilterValue], zint arguments: [String], message: String,
                                 rowHeight: Int, quietX: Int, quietY: Int) throws {
        let finished = try runToEnd("/usr/bin/env", ["zint", "--dump"] + arguments + ["-d", message])
        let rows = finished.stdout.split(separator: "\n")
        #expect(finished.status == 0, "zint (Debian package zint) is needed")
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

/// References for the last neighbourhood filters: each against a direct (brute-force)
/// computation in Double here, independent of the fast algorithm the filter uses.
extension ReferenceHelpers {
    /// Pixels of `image` over `rect` as a function of (x, y), clear outside.
    static func grid(_ image: Image, _ rect: Rect = F.box) throws -> (Int, Int) -> SIMD4<Double> {
        let b = try F.pixels(image, rect)
        let x0 = Int(rect.minX), y0 = Int(rect.minY), w = Int(rect.width), h = Int(rect.height)
        return { x, y in x < x0 || y < y0 || x >= x0 + w || y >= y0 + h ? .zero : F.value(b, x: x - x0, y: y - y0) }
    }

    /// Bilinear sampling at a position (pixel centres at k + ½), clear outside, as Core Image samples.
    static func bilinear(_ p: (Int, Int) -> SIMD4<Double>, _ at: SIMD2<Double>) -> SIMD4<Double> {
        let u = at.x - 0.5, v = at.y - 0.5, x = Int(u.rounded(.down)), y = Int(v.rounded(.down))
        let fx = u - Double(x), fy = v - Double(y)
        let top = p(x, y + 1) * (1 - fx) + p(x + 1, y + 1) * fx, bottom = p(x, y) * (1 - fx) + p(x + 1, y) * fx
        return bottom * (1 - fy) + top * fy
    }

    static func luma(_ p: SIMD4<Double>) -> Double { 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z }

    /// Red dots on black: the mask of the distance tests (19 × 13, opaque).
    static let redDots: Image = ColorKernel("redDots") { p in
        let x = Int(p.coordinate.x), y = Int(p.coordinate.y)
        return (x == 3 && y == 4) || (x == 15 && y == 9) || (x >= 9 && x <= 10 && y == 1) ? SIMD4(1, 0, 0, 1) : SIMD4(0, 0, 0.3, 1)
    }.apply(extent: F.box, arguments: [])

}

extension ReferenceHelpers {
    /// CIE L*a*b* (D50) of linear sRGB, written from the ICC's D50 sRGB matrix.
    static func labD50(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let m: [SIMD3<Double>] = [SIMD3(0.4360747, 0.3850649, 0.1430804), SIMD3(0.2225045, 0.7168786, 0.0606169), SIMD3(0.0139322, 0.0971045, 0.7141733)]
        let xyz = SIMD3((m[0] * c).sum() / 0.9642, (m[1] * c).sum(), (m[2] * c).sum() / 0.8249)
        func f(_ t: Double) -> Double { t > pow(6.0 / 29, 3) ? cbrt(t) : t / (3 * pow(6.0 / 29, 2)) + 4.0 / 29 }
        return SIMD3(116 * f(xyz.y) - 16, 500 * (f(xyz.x) - f(xyz.y)), 200 * (f(xyz.y) - f(xyz.z)))
    }

}
