import Foundation
import Testing
@testable import Lumen

/// References over the sample image that need their own helpers (2-D means, grayness),
/// and the photo effects, computed from their names.
enum SampleImageReferences {
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
