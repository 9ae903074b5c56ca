import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Generator/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let generatorReferences: [String: Check] = [
        "textImageGenerator": { try TextTests().shapingMatchesPillowsRaqmLayout("Lumen: image pipelines, fi ffl AV To") },
        "attributedTextImageGenerator": { try TextTests().attributedTextIsTheSameGlyphsInItsColour() },
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
        "qrCode": { try checkAgainstZint("qrCode", ["message": .string("Lumen QR"), "correctionLevel": .string("Q")],
                                         zint: ["-b", "58", "--secure=3"], message: "Lumen QR", rowHeight: 1, quietX: 1, quietY: 1) },
        "aztecCode": { try checkAgainstZint("aztecCode", ["message": .string("Lumen Aztec"), "correctionLevel": .number(36)],
                                            zint: ["-b", "92", "--secure=3"], message: "Lumen Aztec", rowHeight: 1, quietX: 1, quietY: 1) },
        "pdf417Barcode": { try checkAgainstZint("pdf417Barcode", ["message": .string("Lumen PDF417"), "correctionLevel": .number(3), "dataColumns": .number(4)],
                                                zint: ["-b", "55", "--secure=3", "--cols=4"], message: "Lumen PDF417", rowHeight: 3, quietX: 2, quietY: 2) },
        "code128Barcode": { try checkAgainstZint("code128Barcode", ["message": .string("Lumen-128"), "quietSpace": .number(3), "barcodeHeight": .number(5)],
                                                 zint: ["-b", "20"], message: "Lumen-128", rowHeight: 5, quietX: 3, quietY: 3) },
    ]
}

extension FilterReferenceTests {
    static let generatorReferences: [String: Check] = [
        "constantColor": {
            let c = Color(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.5)
            let out = try pixels(try apply("constantColor", ["color": .color(c)]))
            #expect(close(value(out, x: 4, y: 7), working(c)))
        },
        "checkerboard": {
            let out = try pixels(try apply("checkerboard", ["center": .vector([2, 3]), "width": .number(4)]))
            // Pixel centres (x+0.5, y+0.5) relative to the centre decide the cell.
            for (x, y) in [(2, 3), (6, 3), (2, 7), (6, 7), (0, 0), (10, 12)] {
                let cell = Int(floor((Double(x) + 0.5 - 2) / 4)) + Int(floor((Double(y) + 0.5 - 3) / 4))
                #expect(close(value(out, x: x, y: y), working(cell % 2 == 0 ? .white : .black)))
            }
        },
    ]
}

extension SampleImageReferences {
    static var generatorReferences: [String: FilterReferenceTests.Check] {
        [
            "stripes": {
                let out = try F.pixels(try F.apply("stripes", ["center": .vector([3, 0]), "width": .number(4)]))
                for x in 0..<19 {
                    let stripe = Int(floor((Double(x) + 0.5 - 3) / 4))
                    #expect(F.close(F.value(out, x: x, y: 5), F.working(stripe % 2 == 0 ? .white : .black)))
                    #expect(F.value(out, x: x, y: 0) == F.value(out, x: x, y: 12), "constant along y")
                }
            },
            "random": {
                let noise = try F.apply("random", [:])
                let a = try F.pixels(noise, Rect(x: -40, y: 7, width: 64, height: 64)), b = try F.pixels(noise, Rect(x: -40, y: 7, width: 64, height: 64))
                #expect(a == b, "the same noise every render")
                let mean = a.samples.reduce(0) { $0 + Double($1) } / Double(a.samples.count)
                #expect(abs(mean - 0.5) < 0.02 && a.samples.allSatisfy { $0 >= 0 && $0 < 1 })
                #expect(a.pixel(x: 3, row: 3).x != a.pixel(x: 3, row: 3).y)
            },
            "starShine": {
                let c = Color(red: 1, green: 0.8, blue: 0.6)
                let out = try F.pixels(try F.apply("starShine", ["center": .vector([9.5, 6.5]), "radius": .number(3)]))
                #expect(F.close(F.value(out, x: 9, y: 6), F.working(c), 1e-4), "full color at the centre")
                let far = try F.pixels(try F.apply("starShine", ["center": .vector([500, 500]), "radius": .number(3)]))
                #expect(F.value(far, x: 0, y: 0).w < 1e-3)
            },
            "sunbeams": {
                let out = try F.pixels(try F.apply("sunbeams", ["center": .vector([9.5, 6.5]), "sunRadius": .number(4)]))
                #expect(F.close(F.value(out, x: 9, y: 6), F.working(Color(red: 1, green: 0.5, blue: 0))))
                let far = try F.pixels(try F.apply("sunbeams", ["center": .vector([500, 500]), "sunRadius": .number(4)]))
                #expect(F.value(far, x: 0, y: 0) == .zero, "nothing beyond maxStriationRadius")
            },
        ]
    }
}
