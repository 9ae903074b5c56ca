import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Reduction/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let reductionReferences: [String: Check] = [
        "colorThresholdOtsu": {
            // A photo: OpenCV's Otsu over the same 256 luma bins picks the threshold.
            let photo = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingLanczosScale(0.1)
            let pixels = try F.pixels(photo, photo.extent)
            let file = Paths.temporaryDirectory().appendingPathComponent("otsu.f32")
            try pixels.samples.withUnsafeBytes { try Data($0).write(to: file) }
            let t = try #require(Int(try runScript("otsu-opencv.py", [file.path, "\(pixels.width)", "\(pixels.height)"],
                                                   hint: "OpenCV is needed: pip install opencv-python-headless (scripts/setup does)")
                .trimmingCharacters(in: .whitespacesAndNewlines)))
            let threshold = Double(t + 1) / 256
            let out = try F.apply("colorThresholdOtsu", ["image": .image(photo)])
            try F.expectEach(photo, photo, in: photo.extent, tolerance: 0, { p, _, _, _ in
                guard p.w > 0 else { return .zero }
                return SIMD4(p.x / p.w >= threshold ? p.w : 0, p.y / p.w >= threshold ? p.w : 0, p.z / p.w >= threshold ? p.w : 0, p.w)
            }, of: out)
            #expect(t > 10 && t < 245, "a photo splits somewhere in the middle: \(t)")
        },
        "histogramDisplayFilter": {
            let histogram = try F.apply("areaHistogram", ["image": .image(F.sample), "extent": .vector([0, 0, 19, 13]), "count": .number(16), "scale": .number(4)])
            let bins = try F.pixels(histogram, histogram.extent)
            let out = try F.apply("histogramDisplayFilter", ["image": .image(histogram), "height": .number(20), "highLimit": .number(0.8), "lowLimit": .number(0.05)])
            #expect(out.extent == Rect(x: 0, y: 0, width: 16, height: 20))
            let drawn = try F.pixels(out, out.extent)
            var lit = 0
            for x in 0..<16 {
                let v = F.value(bins, x: x, y: 0)
                for y in 0..<20 {
                    func on(_ value: Double) -> Double { Double(y) + 0.5 < 20 * min(1, max(0, (value - 0.05) / 0.75)) ? 1 : 0 }
                    let e = SIMD4(on(v.x), on(v.y), on(v.z), 1), a = F.value(drawn, x: x, y: y)
                    lit += Int(e.x + e.y + e.z)
                    #expect(a == e, "(\(x), \(y)) \(a) vs \(e)")
                    if a != e { return }
                }
            }
            #expect(lit > 20)
        },
    ]
}
