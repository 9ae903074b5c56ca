import Foundation
import Testing
@testable import Lumen

/// motionBlur at any angle against its definition, evaluated per pixel in Double: the mean
/// of 2n+1 bilinear samples one pixel apart on the line (the renderer folds them into one
/// sparse kernel, and axis-aligned lines into running sums).
@Suite struct MotionBlurTests {
    typealias H = ReferenceHelpers

    static func bilinear(_ u: Double, _ v: Double) -> SIMD4<Double> {
        let x0 = u.rounded(.down), y0 = v.rounded(.down), fx = u - x0, fy = v - y0, ix = Int(x0), iy = Int(y0)
        let top = H.samplePixel(ix, iy) * (1 - fx) + H.samplePixel(ix + 1, iy) * fx
        let bottom = H.samplePixel(ix, iy + 1) * (1 - fx) + H.samplePixel(ix + 1, iy + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    @Test(arguments: [0, 0.5, 1.2, Double.pi / 2, 2.5, -0.3, Double.pi, 3 * Double.pi / 4])
    func matchesTheMeanOfItsSamples(angle: Double) throws {
        for radius in [1.5, 4.0, 7.2] {
            let n = Int(radius.rounded(.up)), (c, s) = (cos(angle), sin(angle))
            try H.checkNeighbourhood("motionBlur", ["radius": .number(radius), "angle": .number(angle)], reach: n + 1) { x, y in
                var sum = SIMD4<Double>.zero
                for k in -n...n { sum += Self.bilinear(Double(x) + Double(k) * c, Double(y) + Double(k) * s) }
                return sum / Double(2 * n + 1)
            }
        }
    }

    /// The groups a kernel keeps after its first tile are no part of what it is: a kernel
    /// that has rendered equals, hashes and lists like a new one with the same values.
    @Test func whatAKernelKeepsIsNoPartOfItsIdentity() throws {
        let used = MotionBlurKernel(radius: 6, angle: 0.3), fresh = MotionBlurKernel(radius: 6, angle: 0.3)
        _ = try RenderContext().render(used.apply(to: [ReferenceHelpers.F.sample]), in: Rect(x: 0, y: 0, width: 32, height: 32))
        #expect(NodeIdentity(kernel: used, inputs: []) == NodeIdentity(kernel: fresh, inputs: []))
        #expect(used.hashValue == fresh.hashValue)
        #expect(KernelDescription.values(of: used) == "radius: 6.0, angle: 0.3")
        #expect(MotionBlurKernel(radius: 6, angle: 0.4) != fresh)
    }
}
