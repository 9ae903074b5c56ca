import Foundation
import Testing
@testable import Lumen

/// Gaussian blurs from σ = 4 take the pyramid (`Image.applyingGaussianBlur`): averaged
/// blocks, a smaller blur, the Catmull–Rom cubic back up. Checked against the exact
/// separable convolution.
@Suite struct LargeBlurTests {
    /// Away from the edges (a photo's inside, 3σ in), the pyramid's σ 8 — a 2×2 box, σ′ ≈ 4,
    /// Catmull–Rom back up — is as close to the exact convolution as Lumen's 8-bit output
    /// can tell: most samples equal, none more than a code apart.
    @Test func aPhotosInsideIsWithinACodeOfTheExactBlur() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        let sigma = 8.0
        let fast = photo.applyingGaussianBlur(sigma: sigma)
        #expect(try RenderContext().plan(for: fast).optimized.contains { $0.kind == "boxShrink" })
        let w = gaussianWeights(sigma: sigma)
        let exact = Convolve1D(horizontal: true, weights: w).apply(to: [Convolve1D(horizontal: false, weights: w).apply(to: [photo])])
        let inside = photo.extent.insetBy(dx: 30, dy: 30)
        let a = try RenderContext().render(fast, in: inside), b = try RenderContext().render(exact, in: inside)
        let differences = zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }
        let mse = Double(differences.map { $0 * $0 }.reduce(0, +)) / Double(differences.count)
        let psnr = 10 * log10(255 * 255 / mse)
        #expect(differences.max() ?? 0 <= 1, "a sample \(differences.max() ?? 0) codes from the exact blur")
        #expect(psnr >= 66, "PSNR \(psnr) dB against the exact blur (Lanczos-3 enlarging gave 61.1 here)")
    }

    /// At the threshold, σ 4 (a 2×2 box, σ′ ≈ 2): still within a code of the exact
    /// convolution inside the photo (64.5 dB measured); just below it, the exact convolution.
    @Test func theSmallestPyramidIsWithinACodeOfTheExactBlur() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        #expect(try !RenderContext().plan(for: photo.applyingGaussianBlur(sigma: 3.99)).optimized.contains { $0.kind == "boxShrink" })
        let fast = photo.applyingGaussianBlur(sigma: 4)
        #expect(try RenderContext().plan(for: fast).optimized.contains { $0.kind == "boxShrink" })
        let w = gaussianWeights(sigma: 4)
        let exact = Convolve1D(horizontal: true, weights: w).apply(to: [Convolve1D(horizontal: false, weights: w).apply(to: [photo])])
        let inside = photo.extent.insetBy(dx: 30, dy: 30)
        let a = try RenderContext().render(fast, in: inside), b = try RenderContext().render(exact, in: inside)
        let differences = zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }
        let mse = Double(differences.map { $0 * $0 }.reduce(0, +)) / Double(differences.count)
        #expect(differences.max() ?? 0 <= 1, "a sample \(differences.max() ?? 0) codes from the exact blur")
        #expect(10 * log10(255 * 255 / mse) >= 62)
        #expect(fast.extent == photo.extent.outset(by: 12))
    }

    @Test func largeRadiiUseThePyramidAndMatchTheExactBlur() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg")).cropped(to: Rect(x: 200, y: 100, width: 48, height: 32))
        let sigma = 12.0
        let fast = photo.applyingGaussianBlur(sigma: sigma)
        #expect(fast.extent == photo.extent.outset(by: 36))
        #expect(try RenderContext().plan(for: fast).optimized.contains { $0.kind == "boxShrink" })
        let w = gaussianWeights(sigma: sigma)
        let vertical = Convolve1D(horizontal: false, weights: w).apply(to: [photo])
        let exact = Convolve1D(horizontal: true, weights: w).apply(to: [vertical])
        let a = try RenderContext().render(fast, in: fast.extent), b = try RenderContext().render(exact, in: fast.extent)
        let mse = zip(a.samples, b.samples).map { Double($0 - $1) * Double($0 - $1) }.reduce(0, +) / Double(a.samples.count)
        let psnr = 10 * log10(255 * 255 / mse)
        #expect(psnr >= 45, "PSNR \(psnr) dB against the exact blur")
        try expectTileInvariant(fast)
    }
}
