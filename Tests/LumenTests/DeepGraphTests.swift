import Foundation
import Testing
@testable import Lumen

/// Graphs built in Swift are not bounded by the chain language's limits: a recipe
/// 100,000 filters deep must render or fail with an error, never overflow a stack
/// (in optimizing, planning, rendering, reporting or releasing it): the walks over a graph
/// are loops, and a node kept every `RenderPlan.keepEveryLevels` levels bounds the render's.
@Suite struct DeepGraphTests {
    @Test func aHundredThousandStepsDeep() throws {
        var image = syntheticImage(width: 8, height: 8)
        for i in 0..<100_000 {
            image = i % 2 == 0 ? image.applying("colorInvert") : image.transformed(by: AffineTransform(translationX: 1, y: 0))
        }
        let bitmap = try RenderContext().render(image, format: .rgbaFloat)
        // 50,000 inversions (an even number) and 50,000 one-pixel shifts: the picture moved.
        let start = syntheticImage(width: 8, height: 8)
        let expected = try RenderContext().render(start.transformed(by: AffineTransform(translationX: 50_000, y: 0)), in: image.extent,
                                                  format: .rgbaFloat)
        let worst = zip(bitmap.samples, expected.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(bitmap.width == 8 && worst < 1e-3, "largest difference \(worst)")
    }
}
