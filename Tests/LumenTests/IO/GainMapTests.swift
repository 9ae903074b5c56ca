import Foundation
import Testing
@testable import Lumen

/// Ultra HDR: testdata/hdr/ultrahdr.jpg is built from Android's public format description by
/// scripts/make-ultrahdr.py (exiftool reads its MPF index and hdrgm tags), from an HDR
/// picture given by a formula; expanding its gain map gives that picture back.
@Suite struct GainMapTests {
    static let file = Paths.testdata("hdr/ultrahdr.jpg")

    /// The formula of scripts/make-ultrahdr.py: linear sRGB at (x, y).
    static func hdr(x: Int, y: Int) -> SIMD3<Double> { SIMD3(0.02 + Double(x) / 16, 0.02 + Double(y) / 12, 0.3) }

    @Test func theGainMapIsFoundAndItsParametersRead() throws {
        let map = try #require(GainMap.read(fromJPEG: try Data(contentsOf: Self.file)))
        #expect(map.minimum == SIMD3(repeating: 0) && map.maximum == SIMD3(repeating: 2) && map.gamma == SIMD3(repeating: 1))
        #expect(map.offsetSDR == SIMD3(repeating: 1.0 / 64) && map.capacityMaximum == 2 && map.headroom == 4 && !map.baseIsHDR)
        #expect(try ImageFile.header(at: Self.file).details.contains("HDR gain map (headroom 4)"))
        #expect(GainMap.read(fromJPEG: try Data(contentsOf: Paths.testdata("photo.jpg"))) == nil)
    }

    @Test func expandingGivesTheHDRPictureBack() throws {
        let sdr = try RenderContext().render(try Image(contentsOf: Self.file), format: .rgbaFloat)
        let hdr = try RenderContext().render(try Image(contentsOf: Self.file, options: .init(expandToHDR: true)), format: .rgbaFloat)
        #expect(hdr.width == 64 && hdr.height == 48)
        var sdrMax: Float = 0, hdrMax: Float = 0, errors: [Double] = []
        for row in 0..<48 {
            for x in 0..<64 {
                let want = Self.hdr(x: x, y: row)
                let got = hdr.pixel(x: x, row: row)
                sdrMax = max(sdrMax, sdr.pixel(x: x, row: row).x, sdr.pixel(x: x, row: row).y)
                hdrMax = max(hdrMax, got.x, got.y)
                // The map is one gray channel (the largest gain), so only the channel that set it is exact;
                // the formula's red and green each reach 4 where they set the gain.
                let c = want.x >= want.y ? 0 : 1
                errors.append(abs(Double(got[c]) - want[c]) / want[c])
            }
        }
        errors.sort()
        #expect(sdrMax <= 1.0001 && hdrMax > 3.5, "SDR peak \(sdrMax), HDR peak \(hdrMax)")
        // JPEG at quality 98, a half-size map upsampled: measured median 0.26 %, 95th percentile 1.4 %, largest 4 %.
        let median = errors[errors.count / 2], p95 = errors[errors.count * 95 / 100]
        #expect(median < 0.006 && p95 < 0.03, "relative error: median \(median), 95th percentile \(p95)")
    }

    @Test func filesWithoutAGainMapLoadAsTheyAre() throws {
        let plain = try render8(try Image(contentsOf: Paths.testdata("photo.jpg"), options: .init(expandToHDR: true)))
        #expect(plain == (try render8(try Image(contentsOf: Paths.testdata("photo.jpg")))))
    }
}
