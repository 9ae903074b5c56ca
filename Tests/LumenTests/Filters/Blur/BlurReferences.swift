import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Blur/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let blurReferences: [String: Check] = [
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
        "bokehBlur": {
            let (radius, ring, size) = (3.6, 0.5, 0.4)
            let p = try grid(F.sample, F.box.outset(by: 4))
            let out = try F.apply("bokehBlur", ["image": .image(F.sample), "radius": .number(radius), "ringAmount": .number(ring),
                                                "ringSize": .number(size), "softness": .number(0)])
            #expect(out.extent == F.box.outset(by: 3))
            let inner = radius * (1 - size)
            var weights: [(Int, Int, Double)] = []
            for j in -4...4 { for i in -4...4 {
                let d2 = Double(i * i + j * j)
                let w = (d2 <= radius * radius ? 1 + ring : 0) - (d2 <= inner * inner ? ring : 0)
                if w != 0 { weights.append((i, j, w)) }
            } }
            let total = weights.reduce(0) { $0 + $1.2 }
            try F.expectEach(F.sample, F.sample, in: F.box.outset(by: 3), tolerance: 1e-5, { _, _, x, y in
                weights.reduce(SIMD4<Double>.zero) { $0 + p(x + $1.0, y + $1.1) * $1.2 } / total
            }, of: out)
            // With a ring the rim outweighs the middle: one bright pixel becomes a ringed disc.
            let dot = Image(color: .white).cropped(to: Rect(x: 9, y: 6, width: 1, height: 1))
            let disc = try grid(try F.apply("bokehBlur", ["image": .image(dot), "radius": .number(4), "ringAmount": .number(1), "ringSize": .number(0.3), "softness": .number(0)]))
            #expect(disc(13, 6).x > 1.9 * disc(9, 6).x && disc(9, 6).x > 0)
        },
    ]
}

extension FilterReferenceTests {
    static let blurReferences: [String: Check] = [
        "gaussianBlur": {
            let sigma = 1.3
            let blurred = sample.applyingGaussianBlur(sigma: sigma)
            let reach = Int((3 * sigma).rounded(.up))
            #expect(blurred.extent == box.outset(by: Double(reach)))
            let input = try pixels(sample, box.outset(by: Double(reach)))
            var kernel = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let sum = kernel.reduce(0, +)
            kernel = kernel.map { $0 / sum }
            try expectEach(sample, sample, { _, _, x, y in
                var acc = SIMD4<Double>.zero
                for j in -reach...reach {
                    for i in -reach...reach {
                        acc += value(input, x: x + i + reach, y: y + j + reach) * kernel[i + reach] * kernel[j + reach]
                    }
                }
                return acc
            }, of: blurred)
            // A constant stays constant (clamped so no transparent edges are pulled in).
            let flat = Image(color: Color(red: 0.4, green: 0.5, blue: 0.6)).cropped(to: box).clampedToExtent().applyingGaussianBlur(sigma: 3)
            let out = try pixels(flat)
            #expect(close(value(out, x: 0, y: 0), working(Color(red: 0.4, green: 0.5, blue: 0.6))))
        },
    ]
}

extension SampleImageReferences {
    static var blurReferences: [String: FilterReferenceTests.Check] {
        [
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
        ]
    }
}
