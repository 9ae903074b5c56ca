import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Sharpen/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let sharpenReferences: [String: Check] = [
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
    ]
}
