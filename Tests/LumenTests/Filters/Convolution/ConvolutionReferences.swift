import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Convolution/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let convolutionReferences: [String: Check] = [
        "gaborGradients": {
            let p = try grid(F.sample, F.box.outset(by: 2))
            var gx = [[Double]](repeating: [Double](repeating: 0, count: 5), count: 5)
            var k = 0.0
            for j in -2...2 { for i in -2...2 {
                let w = exp(-Double(i * i + j * j) / (2 * 1.44)) * sin(2 * .pi / 5 * Double(i))
                gx[j + 2][i + 2] = w; k += Double(i) * w
            } }
            func strongest(_ v: SIMD4<Double>) -> Double { [v.y, v.z].reduce(v.x) { abs($1) > abs($0) ? $1 : $0 } }
            try F.expectEach(F.sample, F.sample, tolerance: 1e-5, { _, _, x, y in
                var sx = SIMD4<Double>.zero, sy = SIMD4<Double>.zero
                for j in -2...2 { for i in -2...2 {
                    sx += gx[j + 2][i + 2] / k * p(x + i, y + j)
                    sy += gx[i + 2][j + 2] / k * p(x + i, y + j)  // the vertical filter is the horizontal one turned
                } }
                return SIMD4(strongest(sx), strongest(sy), 0, 1)
            }, of: try F.apply("gaborGradients", ["image": .image(F.sample)]))
            // A ramp rising by 1 per pixel has gradient 1.
            let ramp = ColorKernel("ramp") { px in SIMD4(px.coordinate.x, 0, 0, 1) }.apply(extent: Rect(x: 0, y: 0, width: 30, height: 30), arguments: [])
            let g = try grid(try F.apply("gaborGradients", ["image": .image(ramp)]), Rect(x: 0, y: 0, width: 30, height: 30))
            #expect(abs(g(15, 15).x - 1) < 1e-5 && abs(g(15, 15).y) < 1e-5, "\(g(15, 15))")
        },
    ]
}
