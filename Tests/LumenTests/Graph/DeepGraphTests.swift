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

    /// A recipe 100,000 filters deep, built in code.
    func deepRecipe(_ depth: Int = 100_000, shift: Double = 1) -> Image {
        var image = syntheticImage(width: 8, height: 8)
        for i in 0..<depth {
            image = i % 2 == 0 ? image.applying("colorInvert") : image.transformed(by: AffineTransform(translationX: shift, y: 0))
        }
        return image
    }

    /// Everything else a user does with such a recipe: asks whether it is opaque, compares
    /// and hashes it, describes it, writes it to a file and encodes it to memory.
    @Test func aHundredThousandStepsDeepEndToEnd() throws {
        let a = deepRecipe(), b = deepRecipe(), c = deepRecipe(shift: 2)

        // Inverting keeps alpha and whole-pixel shifts move it: as opaque as the start.
        #expect(a.isOpaque == syntheticImage(width: 8, height: 8).isOpaque)
        #expect(a.node.identity == b.node.identity && a.node.identity.hashValue == b.node.identity.hashValue)
        #expect(a.node.identity != c.node.identity)
        let text = a.node.identity.description
        #expect(text.hasPrefix("colorInvert") || text.hasPrefix("affine"), "\(text.prefix(40))")
        #expect(text.count > 1_000_000)
        let url = Paths.temporaryDirectory().appendingPathComponent("deep.png")
        let context = RenderContext()
        try context.write(a, to: url, format: .png)
        #expect(try Image(contentsOf: url).extent.width == 8)
        let data = try context.encode(a, format: .png)
        #expect(data == (try Data(contentsOf: url)))
        #expect((context.lastReport?.description.count ?? 0) > 0)
    }
}
