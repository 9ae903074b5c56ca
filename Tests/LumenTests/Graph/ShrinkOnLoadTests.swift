import Foundation
import Testing
@testable import Lumen

/// Shrink-on-load averages blocks of decoded pixels before the Lanczos resampler; the
/// blocks must sit where the resampler assumes them (from the bottom edge, the working
/// space's origin), or the picture moves by up to a block.
struct ShrinkOnLoadTests {
    /// A vertical ramp, linear in light, 400×353 (353 = 14 blocks of 25 and a part): its
    /// thumbnail by 1/25 must be the same ramp, row for row, away from the edges.
    @Test func blocksLineUpWithTheResampler() throws {
        let height = 353
        let url = Paths.temporaryDirectory().appendingPathComponent("ramp.png")
        // 16-bit, so the ramp's codes are fine enough; written by Pillow (rows from the top, the top darkest).
        _ = try runReferenceTool(["python3", "-c", """
            import numpy as np; from PIL import Image
            light = (np.arange(\(height)) + 0.5) / \(height)
            code = np.where(light <= 0.0031308, light * 12.92, 1.055 * light ** (1 / 2.4) - 0.055)
            Image.fromarray(np.repeat((code * 65535).round().astype(np.uint16)[:, None], 400, axis=1)).save('\(url.path)')
            """], hint: "Pillow")
        let scale = 1.0 / 25
        let image = try Image(contentsOf: url).applyingFilter("lanczosScaleTransform", parameters: ["inputScale": scale])
        let plan = try RenderContext().plan(for: image)
        #expect(plan.description.contains("1/12"), "the source is block-shrunk: \(plan.description)")
        let bitmap = try RenderContext().render(image, format: .rgbaFloat)
        for row in 2..<(bitmap.height - 2) {
            // The resampler maps the output's rows over the input's (353 rows onto 14).
            let light = (Double(row) + 0.5) / Double(bitmap.height)
            let got = Double(bitmap.pixel(x: bitmap.width / 2, row: row).x)
            #expect(abs(got - light) < 0.004, "row \(row): \(got), the ramp is \(light) there")
        }
    }

    /// `shrinkOnLoadMargin` 1 lets a JPEG decode at a DCT scale that the default margin (2,
    /// vipsthumbnail's) keeps for the resampler: the 640×400 photo made 192 pixels wide
    /// decodes at 320×200, and the thumbnail stays close to the full decode's.
    @Test func aMarginOfOneDecodesJPEGsAtTheSmallerScale() throws {
        let image = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingFilter("lanczosScaleTransform", parameters: ["inputScale": 0.3])
        var options = RenderContext.Options()
        options.shrinkOnLoadMargin = 1
        let standard = RenderContext(), quick = RenderContext(options)
        let full = try standard.render(image, format: .rgba8), reduced = try quick.render(image, format: .rgba8)
        #expect(standard.lastReport?.decodedRows == 400)
        #expect(quick.lastReport?.decodedRows == 200)
        #expect(full.width == reduced.width && full.height == reduced.height)
        let psnr = RAWTests.psnr(full, reduced)
        #expect(psnr > 38, "\(psnr) dB from the full-size decode's thumbnail")
        // Below 1 counts as 1; a margin never widens the format's (a pyramid's stays 1).
        options.shrinkOnLoadMargin = 0.25
        let low = RenderContext(options)
        _ = try low.render(image, format: .rgba8)
        #expect(low.lastReport?.decodedRows == 200)
        options.shrinkOnLoadMargin = 4
        let wide = RenderContext(options)
        _ = try wide.render(image, format: .rgba8)
        #expect(wide.lastReport?.decodedRows == 400)
    }
}
