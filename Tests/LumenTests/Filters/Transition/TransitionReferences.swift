import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Transition/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let transitionReferences: [String: Check] = [
        "pageCurlWithShadowTransition": {
            let source = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
            let target = Image(color: Color(red: 0, green: 0.5, blue: 1)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
            var values: [String: FilterValue] = ["image": .image(source), "targetImage": .image(target), "time": .number(0.5),
                                                 "extent": .vector([0, 0, 40, 30]), "radius": .number(3), "shadowAmount": .number(0)]
            // Without a shadow it is pageCurlTransition.
            let plain = try F.apply("pageCurlTransition", ["image": .image(source), "targetImage": .image(target), "time": .number(0.5),
                                                           "extent": .vector([0, 0, 40, 30]), "radius": .number(3)])
            try F.expectEach(plain, plain, in: Rect(x: 0, y: 0, width: 40, height: 30), tolerance: 0, { p, _, _, _ in p },
                             of: try F.apply("pageCurlWithShadowTransition", values))
            // Behind the curl the target is darkened by amount·(1 − smoothstep(πr, πr + size·r, −u)), inside the shadow extent.
            values["shadowAmount"] = .number(0.6); values["shadowSize"] = .number(2); values["shadowExtent"] = .vector([0, 0, 40, 20])
            let out = try grid(try F.apply("pageCurlWithShadowTransition", values), Rect(x: 0, y: 0, width: 40, height: 30))
            let t = try grid(target, Rect(x: 0, y: 0, width: 40, height: 30))
            let near = -1.0, far = 40 + Double.pi * 3 + 1, line = near + (far - near) * 0.5
            var shaded = 0
            for y in 0..<30 { for x in 0..<40 {
                let u = Double(x) + 0.5 - line
                guard u <= -.pi * 3 else { continue }
                var dark = 0.0
                if y < 20 {
                    let e = min(1, max(0, (-u - .pi * 3) / 6)); dark = 0.6 * (1 - e * e * (3 - 2 * e))
                }
                let e = t(x, y), expected = SIMD4(e.x * (1 - dark), e.y * (1 - dark), e.z * (1 - dark), e.w)
                #expect(F.close(out(x, y), expected, 1e-5), "(\(x), \(y)) \(out(x, y)) vs \(expected)")
                if dark > 0.01 { shaded += 1 }
            } }
            #expect(shaded > 20)
        },
    ]
}

extension FilterReferenceTests {
    static let transitionReferences: [String: Check] = [
        "dissolveTransition": {
            for t in [0.0, 0.3, 1.0] {
                let out = try apply("dissolveTransition", ["image": .image(sample), "targetImage": .image(other), "time": .number(t)])
                try expectEach(sample, other, { s, d, _, _ in s + (d - s) * t }, of: out)
            }
            #expect(try apply("dissolveTransition", ["image": .image(sample), "targetImage": .image(other), "time": .number(0)]) == sample)
            #expect(try apply("dissolveTransition", ["image": .image(sample), "targetImage": .image(other), "time": .number(1)]) == other)
        },
    ]
}
