import Testing
@testable import Lumen

/// Which nodes a render keeps whole in the cache because an earlier render on the same
/// cache used them: intermediates, so a later, different render reads them instead of
/// computing them again; never the output itself, which a repeated render would only copy.
@Suite struct IntermediateKeepingTests {
    func plan(_ image: Image, _ cache: RenderCache) -> RenderPlan {
        let rect = PixelRect(covering: image.extent)
        let root = GraphOptimizer.optimize(image.node, outputRect: rect, optimizations: true)
        return RenderPlan(root: root, outputRect: rect, cache: cache)
    }

    /// The same dilation rendered twice: the second render computes it again tile by tile
    /// rather than into a kept copy that it would then copy out, and so does a crop of it
    /// moved to the origin (a thumbnail's box); an inversion of it, asked for after it,
    /// keeps the dilation it reads (computed once, read by both renders).
    @Test func aRepeatedRenderKeepsItsIntermediatesButNotItsOutput() throws {
        let dilated = try syntheticImage(width: 60, height: 40).applyingFilter("morphologyMaximum", parameters: ["radius": 3])
        let cache = RenderCache()
        func keptDilations(_ plan: RenderPlan) -> Int {
            plan.order.filter { $0.kernel is Morphology && plan.materialized.contains(ObjectIdentifier($0)) }.count
        }
        let first = plan(dilated, cache), second = plan(dilated, cache)
        #expect(second.root.kernel is Morphology)
        #expect(keptDilations(first) == 0 && keptDilations(second) == 0, "the output was kept")
        let boxed = dilated.cropped(to: Rect(x: 10, y: 5, width: 30, height: 20)).transformed(by: AffineTransform(translationX: -10, y: -5))
        #expect(keptDilations(plan(boxed, cache)) == 0 && keptDilations(plan(boxed, cache)) == 0, "the cropped output was kept")
        #expect(keptDilations(plan(dilated.applying("colorInvert"), cache)) == 1)
        // On a fresh cache the inversion's dilation has not been seen: nothing to keep.
        #expect(keptDilations(plan(dilated.applying("colorInvert"), RenderCache())) == 0)
    }

    /// Whatever is kept, the pixels are the same: a render repeated on one context, and the
    /// inversion of it that reads its kept dilation, against each rendered on a fresh context.
    @Test func keptOrNotThePixelsAreTheSame() throws {
        let dilated = try syntheticImage(width: 60, height: 40).applyingFilter("morphologyMaximum", parameters: ["radius": 3])
        let context = RenderContext()
        let frame = Rect(x: 0, y: 0, width: 60, height: 40)
        for image in [dilated, dilated, dilated.applying("colorInvert"), dilated.applying("colorInvert")] {
            let shared = try context.render(image, in: frame, format: .rgbaFloat)
            let fresh = try RenderContext().render(image, in: frame, format: .rgbaFloat)
            #expect(shared.samples == fresh.samples)
        }
    }
}
