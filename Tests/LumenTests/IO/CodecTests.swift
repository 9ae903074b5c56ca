import Foundation
import Testing
@testable import Lumen

/// Decoded pixels against Pillow's decode of the same files (testdata/codecs/*.pam).
@Suite struct CodecTests {
    @Test(arguments: ["rgb8.png", "rgba8.png", "gray8.png", "graya8.png", "gray1.png", "gray2.png", "gray4.png",
                      "palette8.png", "palette2.png", "interlaced.png", "rgb-none.tif", "rgba.tif", "gray.tif",
                      "palette.tif", "rgb-tiled.tif"])
    func losslessFilesMatchPillow(_ name: String) throws {
        let image = try Image(contentsOf: Paths.codec(name))
        let reference = try PAM(contentsOf: Paths.codec("\(name).pam"))
        #expect(image.extent == Rect(x: 0, y: 0, width: Double(reference.width), height: Double(reference.height)))
        let bitmap = try render8(image)
        // Fully transparent pixels lose their color in premultiplied space; compare alpha only there.
        var worst = 0
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x: x, row: row)
                let alpha = reference.sample(x: x, row: row, channel: 3)
                for c in 0..<4 where alpha > 0 || c == 3 { worst = max(worst, abs(Int(p[c]) - reference.sample(x: x, row: row, channel: c))) }
            }
        }
        #expect(worst == 0, "\(name): max difference \(worst)")
    }

    @Test(arguments: ["baseline.jpg", "progressive.jpg", "gray.jpg"])
    func jpegMatchesPillow(_ name: String) throws {
        let bitmap = try render8(try Image(contentsOf: Paths.codec(name)))
        let reference = try PAM(contentsOf: Paths.codec("\(name).pam"))
        // Both use libjpeg-turbo's accurate integer IDCT; builds may differ by a code.
        #expect(maxDifference(bitmap, reference) <= 1)
    }

    @Test func cmykJpegDecodesToTheRGBItWasMadeFrom() throws {
        let bitmap = try render8(try Image(contentsOf: Paths.codec("cmyk.jpg")))
        let reference = try PAM(contentsOf: Paths.codec("rgb8.png.pam"))
        #expect(maxDifference(bitmap, reference, channels: 3) <= 12)  // lossy CMYK JPEG at q95
    }

    @Test(arguments: ["rgb-lzw.tif", "rgb-deflate.tif", "rgb-packbits.tif"])
    func tiffCompressionsDecodeLosslessly(_ name: String) throws {
        let bitmap = try render8(try Image(contentsOf: Paths.codec(name)))
        #expect(maxDifference(bitmap, try PAM(contentsOf: Paths.codec("rgb8.png.pam"))) == 0)
    }

    @Test func jpegCompressedTiffDecodes() throws {
        let bitmap = try render8(try Image(contentsOf: Paths.codec("rgb-jpeg.tif")))
        #expect(maxDifference(bitmap, try PAM(contentsOf: Paths.codec("rgb8.png.pam")), channels: 3) <= 24)
    }

    @Test(arguments: [("gray16.png", 1), ("rgb16.png", 3), ("rgba16.png", 4), ("gray16.tif", 1), ("rgb16.tif", 3)])
    func sixteenBitKeepsSixteenBits(_ name: String, _ channels: Int) throws {
        let raster = try ImageFile.decode(at: Paths.codec(name))
        #expect(raster.depth == 16)
        #expect(raster.channels == channels)
        for row in 0..<raster.height {
            for x in 0..<raster.width {
                for c in 0..<channels {
                    #expect(raster.sample(x: x, row: row, channel: c) == (x * 2851 + row * 977 + c * 12345) % 65536)
                }
            }
        }
    }

    @Test func headerIsReadWithoutPixels() throws {
        let header = try ImageFile.header(at: Paths.codec("progressive.jpg"))
        #expect(header.format == .jpeg && header.width == 23 && header.height == 17 && header.details.contains("progressive"))
        let png = try ImageFile.header(at: Paths.codec("palette8.png"))
        #expect(png.hasAlpha && png.details.contains("palette") && png.details.contains("tRNS"))
    }

    @Test(arguments: [2, 4, 8])
    func jpegDecodesAtReducedDCTScale(_ reduction: Int) throws {
        let full = try ImageFile.decode(at: Paths.codec("baseline.jpg"))
        let reduced = try ImageFile.decode(at: Paths.codec("baseline.jpg"), reduction: reduction)
        #expect(reduced.width == (full.width + reduction - 1) / reduction)
        #expect(reduced.height == (full.height + reduction - 1) / reduction)
    }

    @Test(arguments: ["png", "jpg"], 1...8)
    func exifOrientationIsAppliedOnLoad(_ ext: String, _ orientation: Int) throws {
        let url = Paths.codec("orient-\(orientation).\(ext)")
        #expect(try ImageFile.header(at: url).orientation == orientation)
        let upright = try render8(try Image(contentsOf: Paths.codec("orient-upright.png")))
        let loaded = try render8(try Image(contentsOf: url))
        #expect(loaded.width == 5 && loaded.height == 3)
        let worst = zip(loaded.samples, upright.samples).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= (ext == "png" ? 0 : 3), "orientation \(orientation): max difference \(worst)")
        if orientation >= 5 {
            let raw = try Image(contentsOf: url, options: .init(appliesOrientation: false))
            #expect(raw.extent.width == 3 && raw.extent.height == 5)
        }
    }
}

/// Embedded ICC profiles convert pixels to sRGB on decode (Little CMS).
@Suite struct ColorProfileTests {
    @Test func aSwappedRedAndGreenProfileSwapsThem() throws {
        let header = try ImageFile.header(at: Paths.codec("icc-swapped.png"))
        #expect(header.hasICCProfile && header.iccDescription?.isEmpty == false)
        let bitmap = try render8(try Image(contentsOf: Paths.codec("icc-swapped.png")))
        let stored = try PAM(contentsOf: Paths.codec("rgb8.png.pam"))
        var worst = 0
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x: x, row: row)
                worst = max(worst, abs(Int(p.x) - stored.sample(x: x, row: row, channel: 1)), abs(Int(p.y) - stored.sample(x: x, row: row, channel: 0)),
                            abs(Int(p.z) - stored.sample(x: x, row: row, channel: 2)))
            }
        }
        #expect(worst <= 2, "red and green exchanged (max difference \(worst))")
    }

    @Test func adobeRGBMatchesPillowsConversion() throws {
        let header = try ImageFile.header(at: Paths.codec("icc-adobergb.tif"))
        #expect(header.iccDescription?.contains("Adobe") == true || header.iccDescription?.contains("RGB") == true)
        let bitmap = try render8(try Image(contentsOf: Paths.codec("icc-adobergb.tif")))
        let reference = try PAM(contentsOf: Paths.codec("icc-adobergb.tif.pam"))
        #expect(maxDifference(bitmap, reference, channels: 3) <= 2)
        // Without the profile the colors would be noticeably different.
        let untagged = try render8(try Image(contentsOf: Paths.codec("rgb8.png")))
        #expect(maxDifference(untagged, reference, channels: 3) > 10)
    }
}
