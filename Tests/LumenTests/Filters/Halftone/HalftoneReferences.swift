import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Halftone/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let halftoneReferences: [String: Check] = [
        "dotScreen": { try checkHalftone("dotScreen") },
        "lineScreen": { try checkHalftone("lineScreen") },
        "hatchedScreen": { try checkHalftone("hatchedScreen") },
        "circularScreen": { try checkHalftone("circularScreen") },
        "cmykHalftone": {
            // Pure colours print with their own inks only: white paper stays white, black is K.
            for (color, expected) in [(Color.white, SIMD3<Double>(1, 1, 1)), (Color.black, SIMD3<Double>(0, 0, 0))] {
                let flat = Image(color: color).cropped(to: Rect(x: 0, y: 0, width: 30, height: 30))
                let out = try F.pixels(try F.apply("cmykHalftone", ["image": .image(flat), "sharpness": .number(1)]), flat.extent)
                for i in stride(from: 0, to: out.samples.count, by: 4) {
                    #expect(SIMD3(Double(out.samples[i]), Double(out.samples[i + 1]), Double(out.samples[i + 2])) == expected)
                    if SIMD3(Double(out.samples[i]), Double(out.samples[i + 1]), Double(out.samples[i + 2])) != expected { return }
                }
            }
            // Red (M + Y, no C) never shows cyan ink: red stays at full paper level everywhere.
            let red = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 30, height: 30))
            let out = try F.pixels(try F.apply("cmykHalftone", ["image": .image(red)]), red.extent)
            #expect(stride(from: 0, to: out.samples.count, by: 4).allSatisfy { out.samples[$0] == 1 })
        },
    ]
}
