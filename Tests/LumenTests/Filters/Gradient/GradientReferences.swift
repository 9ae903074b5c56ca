import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Gradient/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension FilterReferenceTests {
    static let gradientReferences: [String: Check] = [
        "linearGradient": { try checkLinear(smooth: false) },
        "smoothLinearGradient": { try checkLinear(smooth: true) },
        "radialGradient": {
            let out = try pixels(other)
            let c0 = working(Color(red: 0.2, green: 0.9, blue: 0.4, alpha: 0.8)), c1 = working(Color(red: 0.9, green: 0.1, blue: 0.5, alpha: 0.5))
            for (x, y) in [(9, 6), (12, 6), (3, 10), (18, 0)] {
                let d = ((Double(x) + 0.5 - 9) * (Double(x) + 0.5 - 9) + (Double(y) + 0.5 - 6) * (Double(y) + 0.5 - 6)).squareRoot()
                let t = min(max((d - 1) / 8, 0), 1)
                #expect(close(value(out, x: x, y: y), c0 + (c1 - c0) * t))
            }
        },
    ]
}

extension SampleImageReferences {
    static var gradientReferences: [String: FilterReferenceTests.Check] {
        [
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
        ]
    }
}
