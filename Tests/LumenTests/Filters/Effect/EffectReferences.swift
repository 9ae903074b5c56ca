import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Effect/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension FilterReferenceTests {
    static let effectReferences: [String: Check] = [
        "vignetteEffect": {
            let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
            let out = try photo.applyingFilter("vignetteEffect", parameters: ["inputCenter": [320.0, 200.0], "inputRadius": 100.0, "inputIntensity": 0.8])
            let rect = Rect(x: 0, y: 200, width: 640, height: 1)
            let before = try pixels(photo, rect), after = try pixels(out, rect)
            var previousRatio = 1.0
            for x in stride(from: 320, to: 0, by: -10) {
                let a = value(after, x: x, y: 0), b = value(before, x: x, y: 0)
                let ratio = (a.x + a.y + a.z) / max(b.x + b.y + b.z, 1e-9)
                if abs(Double(x) + 0.5 - 320) <= 100 { #expect(a == b, "inside the radius the image is unchanged") }
                #expect(ratio <= previousRatio + 1e-6, "darkening is monotonic outward")
                previousRatio = ratio
            }
            #expect(previousRatio < 0.25)
        },
    ]
}

extension SampleImageReferences {
    static var effectReferences: [String: FilterReferenceTests.Check] {
        [
            "vignette": {
                #expect(try F.apply("vignette", ["image": .image(F.sample)]) == F.sample, "intensity 0 is the identity")
                let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
                let out = try F.pixels(try F.apply("vignette", ["image": .image(photo), "intensity": .number(1)]), photo.extent)
                let before = try F.pixels(photo, photo.extent)
                #expect(F.value(out, x: 320, y: 200) == F.value(before, x: 320, y: 200))
                #expect(F.value(out, x: 0, y: 0).x < F.value(before, x: 0, y: 0).x * 0.2)
            },
        ]
    }
}
