import Foundation
import Testing
@testable import Lumen

/// `--hdr tonemap`: outputs made from the inputs' HDR renditions (gain maps applied before
/// any step), tone-mapped to SDR by toneMapHeadroom's curve unless the output holds HDR.
/// The reference is the expanded HDR picture put through the curve as its documentation
/// writes it, computed here in Double.
@Suite struct HDRToneMapTests {
    static let file = GainMapTests.file

    /// toneMapHeadroom's documented curve, from `source` to SDR white: the colour scaled by
    /// f(m)/m, m = max(r, g, b), f(m) = g(m), g(x) = x(1 + x/W²)/(1 + x), W = source.
    static func toneMapped(_ p: SIMD4<Float>, source: Double) -> SIMD3<Double> {
        let rgb = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z)), m = rgb.max()
        guard m > 0 else { return rgb }
        return rgb * (m * (1 + m / (source * source)) / (1 + m)) / m
    }

    static func format(_ base: OutputFormat) -> OutputFormat {
        var format = base
        format.hdr = .tonemap
        return format
    }

    @Test func anSDROutputIsTheHDRRenditionToneMapped() throws {
        let hdr = try RenderContext().render(try Image(contentsOf: Self.file, options: .init(expandToHDR: true)), format: .rgbaFloat)
        let mapped = try RenderContext().render(try HDRRendition.toneMapped(try Image(contentsOf: Self.file), for: Self.format(.png())),
                                                format: .rgbaFloat)
        var largest = 0.0, highlights = 0
        for row in 0..<hdr.height {
            for x in 0..<hdr.width {
                let want = Self.toneMapped(hdr.pixel(x: x, row: row), source: 4), got = mapped.pixel(x: x, row: row)
                for c in 0..<3 { largest = max(largest, abs(Double(got[c]) - want[c])) }
                if hdr.pixel(x: x, row: row).x > 1.5 { highlights += 1 }
            }
        }
        #expect(largest < 1e-4, "largest difference \(largest)")
        #expect(highlights > 100)
        // Written to a file: the same pixels (16-bit PNG, within its steps), highlights rolled
        // off where the SDR picture clips: the SDR red at x = 32 is 1 (the formula's HDR 2.02),
        // the tone-mapped red g(2.02) = 0.76.
        let out = Paths.temporaryDirectory().appendingPathComponent("tonemapped.png")
        try RenderContext().write(try Image(contentsOf: Self.file), to: out, format: Self.format(.png(depth: 16)))
        let written = try RenderContext().render(try Image(contentsOf: out), format: .rgbaFloat)
        let sdr = try RenderContext().render(try Image(contentsOf: Self.file), format: .rgbaFloat)
        let red = Double(written.pixel(x: 32, row: 24).x)
        #expect(abs(red - Self.toneMapped(hdr.pixel(x: 32, row: 24), source: 4).x) < 0.002 && abs(red - 0.76) < 0.03, "\(red)")
        #expect(sdr.pixel(x: 32, row: 24).x > 0.99)
    }

    @Test func colourStepsWorkOnTheHDRValues() throws {
        // −1 EV on the HDR rendition halves the HDR red of 2.02 to 1.01 before the curve; on the SDR
        // picture it would halve the clipped 1.
        let darker = try Image(contentsOf: Self.file).applyingFilter("exposureAdjust", parameters: ["ev": -1])
        let mapped = try RenderContext().render(try HDRRendition.toneMapped(darker, for: Self.format(.jpeg())), format: .rgbaFloat)
        let hdr = try RenderContext().render(try Image(contentsOf: Self.file, options: .init(expandToHDR: true)), format: .rgbaFloat)
        let want = Self.toneMapped(hdr.pixel(x: 32, row: 24) * SIMD4(0.5, 0.5, 0.5, 1), source: 4)
        #expect(abs(Double(mapped.pixel(x: 32, row: 24).x) - want.x) < 1e-4 && abs(want.x - 0.5) > 0.02)
    }

    @Test func hdrOutputsKeepTheValuesAndExpandedInputsAreNotExpandedTwice() throws {
        let exr = try HDRRendition.toneMapped(try Image(contentsOf: Self.file), for: Self.format(OutputFormat(fileFormat: .exr)))
        let expanded = try Image(contentsOf: Self.file, options: .init(expandToHDR: true))
        let a = try RenderContext().render(exr, format: .rgbaFloat), b = try RenderContext().render(expanded, format: .rgbaFloat)
        #expect(a.samples == b.samples && (b.samples.max() ?? 0) > 3.5)
        // An input loaded expanded is tone-mapped once, not raised again.
        let once = try RenderContext().render(try HDRRendition.toneMapped(expanded, for: Self.format(.png())), format: .rgbaFloat)
        let fromSDR = try RenderContext().render(try HDRRendition.toneMapped(try Image(contentsOf: Self.file), for: Self.format(.png())), format: .rgbaFloat)
        #expect(once.samples == fromSDR.samples)
        // Two inputs, one loaded expanded and one not: each is raised once.
        let sdrInput = try Image(contentsOf: Self.file)
        let mixed = try RenderContext().render(try HDRRendition.toneMapped(expanded.composited(over: sdrInput), for: Self.format(.png())), format: .rgbaFloat)
        let plain = try RenderContext().render(try HDRRendition.toneMapped(sdrInput.composited(over: try Image(contentsOf: Self.file)), for: Self.format(.png())),
                                               format: .rgbaFloat)
        #expect(mixed.samples == plain.samples && mixed.samples == fromSDR.samples)
        // The expansion keeps the picture opaque: no alpha channel in the output.
        #expect(try HDRRendition.toneMapped(sdrInput, for: Self.format(.png())).isOpaque)
        // Without a gain map nothing changes.
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        #expect(try HDRRendition.toneMapped(photo, for: Self.format(.png())).node === photo.node)
    }

    @Test func theCommandLineTakesIt() throws {
        let out = Paths.temporaryDirectory().appendingPathComponent("cli-tonemapped.jpg")
        let result = try CommandLineTests.lumen(["convert", Self.file.path, "-o", out.path, "--hdr", "tonemap"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(GainMap.read(fromJPEG: try Data(contentsOf: out)) == nil)
        let bad = try CommandLineTests.lumen(["convert", Self.file.path, "-o", out.path, "--hdr", "bright"])
        #expect(bad.status != 0 && bad.stderr.contains("keep, drop or tonemap"))
    }
}
