import Foundation
import Testing
@testable import Lumen

/// The taps a resample reads, against the kernel written out here: every output's weights,
/// laid over the input, are the kernel's at each input pixel's distance, normalised, clamped
/// to the edges; and the starts never go backwards, as the regions of interest assume (they
/// take the first and the last output's). Covers enlargements by whole odd factors, where a
/// cubic with B = 0 is 0 at ±1 and ±2 and an output on a pixel centre weighs one pixel.
@Suite struct ResamplingTapsTests {
    static let kernels: [ResamplingKernel] = [.lanczos3, .cubic(b: 0, c: 0.75), .cubic(b: 0, c: 0.5), .cubic(b: 1.0 / 3, c: 1.0 / 3)]
    static let sizes = [(10, 30), (10, 50), (7, 14), (16, 64), (30, 10), (40, 20), (37, 100), (100, 37), (9, 9)]

    @Test(arguments: kernels) func weightsAreTheKernelsAndStartsAscend(kernel: ResamplingKernel) {
        for (input, output) in Self.sizes {
            let taps = ResamplingTaps(kernel: kernel, inputCount: input, outputCount: output)
            let ratio = Double(input) / Double(output), stretch = max(1, ratio)
            for o in 0..<output {
                if o > 0 { #expect(taps.starts[o] >= taps.starts[o - 1], "\(kernel) \(input)→\(output): start \(o) went back") }
                let centre = (Double(o) + 0.5) * ratio
                // The kernel at every input position it reaches, before clamping.
                let reach = Int((kernel.radius * stretch).rounded(.up)) + 2
                var expected: [Int: Double] = [:], total = 0.0
                for i in (Int(centre) - reach)...(Int(centre) + reach) {
                    let w = kernel.weight((Double(i) + 0.5 - centre) / stretch)
                    expected[i, default: 0] += w
                    total += w
                }
                var got: [Int: Double] = [:]
                for k in 0..<taps.taps { got[taps.starts[o] + k, default: 0] += Double(taps.weights[o * taps.taps + k]) }
                for i in Set(expected.keys).union(got.keys) {
                    let e = (expected[i] ?? 0) / total, g = got[i] ?? 0
                    guard abs(e - g) <= 1e-6 else {
                        Issue.record("\(kernel) \(input)→\(output), output \(o), input \(i): \(g), not \(e)")
                        return
                    }
                }
            }
        }
    }

    /// A 3× bicubic enlargement (B = 0, C = 0.75, bicubicScale's defaults) gives the same
    /// pixels whatever the tiles.
    @Test func oddWholeEnlargementsAreTileInvariant() throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg")).cropped(to: Rect(x: 300, y: 200, width: 40, height: 30))
        let placed = photo.transformed(by: AffineTransform(translationX: -300, y: -200))
        try expectTileInvariant(try placed.applyingFilter("bicubicScale", parameters: ["scale": 3.0]))
        try expectTileInvariant(try placed.applyingFilter("bicubicScale", parameters: ["scale": 5.0]))
    }
}
