import Foundation
import Testing
@testable import Lumen

/// HDR PNG: the working space written as 16-bit PQ or HLG with a cICP chunk (PNG's third
/// edition), values above SDR white kept. OpenCV and numpy read the files back
/// (scripts/hdr-png-reference.py, their own PQ and HLG formulas); Lumen reads them too.
@Suite struct HDRPNGTests {
    /// The Ultra HDR test picture expanded: linear values up to about 4, opaque RGB.
    static func hdrPicture() throws -> Image {
        try Image(contentsOf: GainMapTests.file, options: .init(expandToHDR: true))
    }

    static func readBack(_ url: URL) throws -> (chunks: [String], cicp: [Int], shape: [Int], linear: [Double]) {
        let output = try runScript("hdr-png-reference.py", [url.path], hint: "pip install opencv-python-headless numpy")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return (json["chunks"] as? [String] ?? [], json["cicp"] as? [Int] ?? [], json["shape"] as? [Int] ?? [], json["linear"] as? [Double] ?? [])
    }

    @Test(arguments: [OutputFormat.Transfer.pq, .hlg])
    func theWorkingSpaceIsWrittenAndReadBack(_ transfer: OutputFormat.Transfer) throws {
        let picture = try Self.hdrPicture().cropped(to: Rect(x: 0, y: 0, width: 64, height: 48))
        let url = Paths.temporaryDirectory().appendingPathComponent("hdr-\(transfer.rawValue).png")
        var format = OutputFormat.png(depth: 16)
        format.transfer = transfer
        try RenderContext().write(picture, to: url, format: format)
        let (chunks, cicp, shape, linear) = try Self.readBack(url)
        #expect(cicp == [1, transfer == .pq ? 16 : 18, 0, 1])
        #expect(!chunks.contains("sRGB") && !chunks.contains("iCCP") && chunks.firstIndex(of: "cICP")! < chunks.firstIndex(of: "IDAT")!, "\(chunks)")
        let working = try RenderContext().render(picture, format: .rgbaFloat)
        let channels = shape.count == 3 ? shape[2] : 1
        #expect(shape[0] == 48 && shape[1] == 64 && channels >= 3)
        // HLG holds up to 3.77 × SDR white; PQ up to 49 ×. 16-bit codes: well under 0.1 %.
        let ceiling: Float = transfer == .pq ? 49 : 3.77
        var worst = 0.0, brightest = 0.0
        for row in 0..<48 {
            for x in 0..<64 {
                let p = working.pixel(x: x, row: row)
                for c in 0..<3 {
                    let want = Double(min(p[c], ceiling)), got = linear[(row * 64 + x) * channels + c]
                    worst = max(worst, abs(got - want) / max(want, 0.01))
                    brightest = max(brightest, got)
                }
            }
        }
        #expect(worst < 0.002, "largest relative difference \(worst)")
        #expect(brightest > 3.5, "values above SDR white kept: \(brightest)")
        // Lumen reads its own file back to the same light.
        let header = try ImageFile.header(at: url)
        #expect(header.details.contains(transfer == .pq ? "PQ (cICP)" : "HLG (cICP)"))
        let again = try RenderContext().render(try Image(contentsOf: url), format: .rgbaFloat)
        var roundTrip: Float = 0
        for i in stride(from: 0, to: again.samples.count, by: 4) {
            for c in 0..<3 {
                let want = min(working.samples[i + c], ceiling)
                roundTrip = max(roundTrip, abs(again.samples[i + c] - want) / max(want, 0.01))
            }
        }
        #expect(roundTrip < 0.002, "round trip \(roundTrip)")
    }

    @Test func onlySixteenBitPNGTakesAnHDRTransfer() throws {
        var jpeg = OutputFormat.jpeg
        jpeg.transfer = .pq
        #expect(throws: LumenError.self) { _ = try RenderContext().encode(try Self.hdrPicture(), format: jpeg) }
        var eight = OutputFormat.png
        eight.transfer = .hlg
        #expect(throws: LumenError.self) { _ = try RenderContext().encode(try Self.hdrPicture(), format: eight) }
    }
}
