import Foundation
import Testing
@testable import Lumen

/// References for generators, effects, blurs, geometry and photo effects.
enum MoreReferences {
    typealias F = FilterReferenceTests

    static func gray(_ p: SIMD4<Double>) -> Bool { abs(p.x - p.y) < 1e-5 && abs(p.y - p.z) < 1e-5 }

    /// Direct 2-D mean over `offsets` of the (transparent-outside) sample image.
    static func meanReference(_ output: Image, offsets: [(Int, Int)]) throws {
        let reach = offsets.map { max(abs($0.0), abs($0.1)) }.max() ?? 0
        let input = try F.pixels(F.sample, F.box.outset(by: Double(reach)))
        try F.expectEach(F.sample, F.sample, { _, _, x, y in
            offsets.reduce(SIMD4<Double>.zero) { $0 + F.value(input, x: x + $1.0 + reach, y: y + $1.1 + reach) } / Double(offsets.count)
        }, of: output)
    }

    static var tables: [[String: FilterReferenceTests.Check]] { [references, photoEffects] }

    static var references: [String: FilterReferenceTests.Check] {
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
            "gaussianGradient": {
                let c0 = Color(red: 1, green: 0.5, blue: 0.2), c1 = Color(red: 0, green: 0, blue: 0.4, alpha: 0.5)
                let out = try F.pixels(try F.apply("gaussianGradient", ["center": .vector([9, 6]), "radius": .number(12),
                                                                        "color0": .color(c0), "color1": .color(c1)]))
                for (x, y) in [(9, 6), (12, 8), (0, 0), (18, 12)] {
                    let d2 = pow(Double(x) + 0.5 - 9, 2) + pow(Double(y) + 0.5 - 6, 2)
                    let g = exp(-d2 / (2 * 16))
                    #expect(F.close(F.value(out, x: x, y: y), F.working(c1) + (F.working(c0) - F.working(c1)) * g))
                }
            },
            "hueSaturationValueGradient": {
                let wheel = try F.apply("hueSaturationValueGradient", ["radius": .number(20), "dither": .number(0)])
                #expect(wheel.extent == Rect(x: -20, y: -20, width: 40, height: 40))
                let out = try F.pixels(wheel, Rect(x: -20, y: -20, width: 40, height: 40))
                let centre = F.value(out, x: 20, y: 20), east = F.value(out, x: 38, y: 20), outside = F.value(out, x: 0, y: 0)
                // The sampled pixel's centre is 0.7 px from the wheel's: saturation 0.035, nearly white.
                #expect(centre.x > 0.95 && centre.y > 0.9 && centre.z > 0.85, "white-ish at the centre")
                #expect(east.x > 0.9 && east.y < 0.1 && east.z < 0.1, "red along +x at full saturation")
                #expect(outside == .zero)
            },
            "vignette": {
                #expect(try F.apply("vignette", ["image": .image(F.sample)]) == F.sample, "intensity 0 is the identity")
                let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
                let out = try F.pixels(try F.apply("vignette", ["image": .image(photo), "intensity": .number(1)]), photo.extent)
                let before = try F.pixels(photo, photo.extent)
                #expect(F.value(out, x: 320, y: 200) == F.value(before, x: 320, y: 200))
                #expect(F.value(out, x: 0, y: 0).x < F.value(before, x: 0, y: 0).x * 0.2)
            },
            "boxBlur": {
                try meanReference(try F.apply("boxBlur", ["image": .image(F.sample), "radius": .number(2)]),
                                  offsets: (-2...2).flatMap { j in (-2...2).map { ($0, j) } })
            },
            "discBlur": {
                try meanReference(try F.apply("discBlur", ["image": .image(F.sample), "radius": .number(2.5)]),
                                  offsets: (-2...2).flatMap { j in (-2...2).compactMap { i in Double(i * i + j * j) <= 6.25 ? (i, j) : nil } })
            },
            "motionBlur": {
                try meanReference(try F.apply("motionBlur", ["image": .image(F.sample), "radius": .number(3), "angle": .number(0)]),
                                  offsets: (-3...3).map { ($0, 0) })
            },
            "zoomBlur": {
                #expect(try F.apply("zoomBlur", ["image": .image(F.sample), "amount": .number(0)]) == F.sample)
                let out = try F.pixels(try F.apply("zoomBlur", ["image": .image(F.sample), "center": .vector([9.5, 6.5]), "amount": .number(30)]))
                #expect(F.value(out, x: 9, y: 6) == F.value(try F.pixels(F.sample), x: 9, y: 6), "the centre does not move")
            },
            "maskedVariableBlur": {
                let black = Image(color: .black), white = Image(color: .white)
                let sharp = try F.apply("maskedVariableBlur", ["image": .image(F.sample), "mask": .image(black), "radius": .number(3)])
                try F.expectEach(F.sample, F.sample, { s, _, _, _ in s }, of: sharp)
                let blurred = try F.apply("maskedVariableBlur", ["image": .image(F.sample), "mask": .image(white), "radius": .number(3)])
                let reference = F.sample.clampedToExtent().applyingGaussianBlur(sigma: 3).cropped(to: F.box)
                try F.expectEach(reference, reference, { r, _, _, _ in r }, of: blurred)
            },
            "straighten": {
                #expect(try F.apply("straighten", ["image": .image(F.sample)]) == F.sample)
                let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
                let out = try F.apply("straighten", ["image": .image(photo), "angle": .number(0.1)])
                #expect(out.extent == photo.extent)
                let pixels = try F.pixels(out, photo.extent)
                #expect(F.value(pixels, x: 0, y: 0).w > 0.999 && F.value(pixels, x: 639, y: 399).w > 0.999, "no empty corners")
            },
        ]
    }

    static var photoEffects: [String: FilterReferenceTests.Check] {
        var checks: [String: FilterReferenceTests.Check] = [:]
        func saturation(_ b: Bitmap) -> Double {
            var sum = 0.0
            for y in 0..<b.height { for x in 0..<b.width { let p = F.value(b, x: x, y: y); sum += max(p.x, p.y, p.z) - min(p.x, p.y, p.z) } }
            return sum
        }
        for name in ["photoEffectMono", "photoEffectNoir", "photoEffectTonal"] {
            checks[name] = {
                let out = try F.pixels(try F.apply(name, ["image": .image(F.sample)]))
                for y in 0..<13 { for x in 0..<19 { #expect(gray(F.value(out, x: x, y: y)), "\(name) is black and white") } }
            }
        }
        for (name, more) in [("photoEffectChrome", true), ("photoEffectFade", false), ("photoEffectInstant", false),
                             ("photoEffectProcess", false), ("photoEffectTransfer", true)] {
            checks[name] = {
                let input = try F.pixels(F.sample), out = try F.pixels(try F.apply(name, ["image": .image(F.sample)]))
                #expect(more ? saturation(out) > saturation(input) : saturation(out) < saturation(input), "\(name) saturation")
                for y in 0..<13 { for x in 0..<19 { #expect(abs(F.value(out, x: x, y: y).w - F.value(input, x: x, y: y).w) < 1e-6) } }
            }
        }
        return checks
    }
}

/// Transitions: exactly the image at time 0 and the target at time 1, and the share of
/// the picture that already shows the target grows with time.
enum TransitionReferences {
    typealias F = FilterReferenceTests
    static let names = ["flashTransition", "swipeTransition", "barsSwipeTransition", "copyMachineTransition", "modTransition",
                        "disintegrateWithMaskTransition", "rippleTransition", "pageCurlTransition", "accordionFoldTransition"]

    static var all: [String: FilterReferenceTests.Check] {
        var checks: [String: FilterReferenceTests.Check] = [:]
        for name in names {
            checks[name] = {
                let source = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
                let target = Image(color: Color(red: 0, green: 0, blue: 1)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
                var values: [String: FilterValue] = ["image": .image(source), "targetImage": .image(target),
                                                     "extent": .vector([0, 0, 40, 30]), "center": .vector([20, 15])]
                let descriptor = FilterRegistry.descriptor(named: name)!
                values = values.filter { key, _ in descriptor.parameter(key) != nil }
                if name.hasPrefix("disintegrate") {
                    values["maskImage"] = .image(try F.apply("linearGradient", ["point0": .vector([0, 0]), "point1": .vector([40, 0])]))
                }
                if name == "modTransition" { values["radius"] = .number(6); values["compression"] = .number(10) }
                if name == "swipeTransition" { values["width"] = .number(10) }
                if name == "rippleTransition" { values["width"] = .number(8); values["scale"] = .number(4) }
                if name == "pageCurlTransition" { values["radius"] = .number(4) }
                values["time"] = .number(0)
                #expect(try descriptor.apply(values) == source)
                values["time"] = .number(1)
                #expect(try descriptor.apply(values) == target)
                var previous = -1.0
                // The flash covers the picture until its fade starts (t = 0.85).
                let late = name == "flashTransition" ? 0.97 : 0.9
                for t in [0.1, 0.5, late] {
                    values["time"] = .number(t)
                    let out = try F.pixels(try descriptor.apply(values), Rect(x: 0, y: 0, width: 40, height: 30))
                    var share = 0.0
                    for y in 0..<30 { for x in 0..<40 { let p = F.value(out, x: x, y: y); if p.z > p.x { share += 1 } } }
                    share /= 1200
                    #expect(share >= previous, "\(name): target share \(share) at t = \(t) after \(previous)")
                    previous = share
                }
                #expect(previous > 0.3, "\(name) shows the target by t = \(late)")
            }
        }
        return checks
    }
}
