import Foundation
import Testing
@testable import Lumen

/// TIFFs as scanners, slide scanners and libvips write them, made by the tools users run
/// (vips tiffsave, tiffcp, Pillow) from the bundled photo, each decoded by Lumen and by
/// libvips (vips copy … .png): the pixels must be the same.
@Suite(.serialized) struct TIFFInTheWildTests {
    static let folder: URL = {
        let folder = Paths.temporaryDirectory()
        let photo = Paths.testdata("photo.jpg").path
        func run(_ arguments: [String]) { _ = try? runReferenceTool(arguments, hint: "scripts/setup installs libvips-tools and libtiff-tools") }
        let at = { (name: String) in folder.appendingPathComponent(name).path }
        run(["vips", "copy", photo, at("plain.tif")])
        run(["vips", "colourspace", photo, at("gray.v"), "b-w"])
        run(["vips", "tiffsave", photo, at("jpeg-tiles.tif"), "--compression", "jpeg", "--tile", "--tile-width", "64", "--tile-height", "64"])
        run(["vips", "tiffsave", photo, at("pyramid.tif"), "--compression", "jpeg", "--tile", "--tile-width", "64", "--tile-height", "64", "--pyramid"])
        run(["vips", "tiffsave", photo, at("pyramid-subifd.tif"), "--compression", "deflate", "--tile", "--tile-width", "64",
             "--tile-height", "64", "--pyramid", "--subifd"])
        run(["tiffcp", "-c", "jpeg", "-r", "16", at("plain.tif"), at("jpeg-strips.tif")])
        run(["tiffcp", "-8", "-c", "lzw", at("plain.tif"), at("bigtiff.tif")])
        run(["tiffcp", "-p", "separate", at("plain.tif"), at("planar.tif")])
        for bits in ["1", "2", "4"] { run(["vips", "tiffsave", at("gray.v"), at("gray\(bits).tif"), "--bitdepth", bits]) }
        run(["vips", "tiffsave", at("gray.v"), at("gray1-tiled-miniswhite.tif"), "--bitdepth", "1", "--miniswhite", "--tile",
             "--tile-width", "64", "--tile-height", "64"])
        run(["vips", "tiffsave", at("gray.v"), at("gray8-miniswhite.tif"), "--miniswhite", "--compression", "lzw"])
        run(["tiffcp", "-p", "separate", "-t", "-w", "64", "-l", "64", at("plain.tif"), at("planar-tiled.tif")])
        // libvips cannot read tiled separate planes: its reference is libtiff's own rewrite as contiguous.
        run(["tiffcp", "-p", "contig", at("planar-tiled.tif"), at("planar-tiled.tif.contig.tif")])
        // 16-bit separate planes, as tifffile (microscopy, scientific Python) writes them; tiffcp cannot.
        run(["python3", "-c", "import tifffile, numpy; from PIL import Image; a = numpy.asarray(Image.open('\(photo)')).astype('uint16') * 257; "
             + "tifffile.imwrite('\(at("planar16.tif"))', a.transpose(2, 0, 1), photometric='rgb', planarconfig='separate', compression='zlib')"])
        run(["python3", "-c", "from PIL import Image; Image.open('\(photo)').quantize(16).save('\(at("palette4.tif"))', bits=4)"])
        run(["python3", "-c", "from PIL import Image; Image.open('\(photo)').convert('P').save('\(at("palette.tif"))')"])
        return folder
    }()

    static let files = ["jpeg-tiles.tif", "pyramid.tif", "pyramid-subifd.tif", "jpeg-strips.tif", "bigtiff.tif", "planar.tif",
                        "gray1.tif", "gray2.tif", "gray4.tif", "palette.tif", "gray1-tiled-miniswhite.tif", "gray8-miniswhite.tif",
                        "planar-tiled.tif", "planar16.tif", "palette4.tif"]

    @Test(arguments: files) func decodesAsLibvipsDoes(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        #expect(FileManager.default.fileExists(atPath: url.path), "\(name) was not made: scripts/setup installs vips and tiffcp")
        let reference = Self.folder.appendingPathComponent(name + ".vips.png")
        let contiguous = Self.folder.appendingPathComponent(name + ".contig.tif")
        let input = FileManager.default.fileExists(atPath: contiguous.path) ? contiguous : url
        _ = try runReferenceTool(["vips", "copy", input.path, reference.path], hint: "vips")
        let ours = try render8(Image(contentsOf: url)), theirs = try render8(Image(contentsOf: reference))
        #expect(ours.width == 640 && ours.height == 400)
        #expect(ours.samples == theirs.samples, "\(name): Lumen's pixels differ from libvips's")
    }

    /// JPEG-compressed YCbCr is read in bands, never whole: the header says what it is and
    /// a window of rows streams through.
    @Test func jpegTilesAndStripsReadInBands() throws {
        for name in ["jpeg-tiles.tif", "jpeg-strips.tif"] {
            let header = try ImageFile.header(at: Self.folder.appendingPathComponent(name))
            #expect(header.details.contains("YCbCr") && header.details.contains("JPEG"), "\(header.details)")
            let decoder = try ImageFile.decoder(for: Self.folder.appendingPathComponent(name))
            var bands = 0, largest = 0
            try decoder.forEachBand(reduction: 1, rows: 0..<400) { band in
                bands += 1
                largest = max(largest, band.rowCount)
            }
            #expect(bands > 1 && largest <= 64, "\(name): \(bands) bands of up to \(largest) rows")
        }
    }

    /// Every kind above streams: bands of strips or tile rows, never the whole page in one
    /// buffer (libtiff's RGBA interface is left for uncompressed YCbCr and odd layouts).
    @Test(arguments: files) func everyKindReadsInBands(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let decoder = try ImageFile.decoder(for: url)
        #expect(!decoder.decodesWhole, "\(name): \(decoder.header.details)")
        var bands = 0
        try decoder.forEachBand(reduction: 1, rows: 0..<400) { _ in bands += 1 }
        #expect(bands > 1, "\(name): one band")
    }

    /// A thumbnail of a pyramid reads the smallest level not below the target, as
    /// vipsthumbnail does: 640×400 to 100 px reads the 160×100 level (a shrink of 6.4
    /// allows 4, not 8), and nothing of the full page.
    @Test(arguments: ["pyramid.tif", "pyramid-subifd.tif"]) func pyramidThumbnailsReadAReducedLevel(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let header = try ImageFile.header(at: url)
        #expect(header.reductions == [2, 4, 8, 16], "\(header.reductions)")  // vips halves down to a tile: 320, 160, 80, 40
        let context = RenderContext()
        let thumbnail = try Thumbnail(width: 100, height: 100).apply(to: Image(contentsOf: url), context: context)
        let bitmap = try render8(thumbnail, context: context)
        #expect(bitmap.width == 100 && bitmap.height == 63)
        #expect(context.lastReport?.decodedRows == 100, "rows decoded: \(String(describing: context.lastReport?.decodedRows))")
        // vipsthumbnail reads the same level: the two thumbnails agree (Lanczos-3 both).
        let reference = Self.folder.appendingPathComponent(name + ".vipsthumbnail.png")
        _ = try runReferenceTool(["vipsthumbnail", url.path, "-s", "100", "-o", reference.path], hint: "vipsthumbnail")
        let theirs = try render8(Image(contentsOf: reference))
        #expect(theirs.width == 100 && theirs.height == 63)
        let difference = zip(bitmap.samples, theirs.samples).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 3, "mean difference from vipsthumbnail's")
    }

    /// Old-style JPEG (compression 6) is refused with its name, not decoded wrong.
    @Test func oldStyleJPEGIsRefusedCleanly() throws {
        var bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("jpeg-strips.tif")))
        // Rewrite IFD0's Compression entry (tag 259) from 7 to 6.
        let little = bytes[0] == 0x49
        func u16(_ at: Int) -> Int { little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2) }
        let ifd = u32(4)
        for i in 0..<u16(ifd) where u16(ifd + 2 + i * 12) == 259 {
            bytes[ifd + 2 + i * 12 + 8 + (little ? 0 : 1)] = 6
        }
        let url = Self.folder.appendingPathComponent("ojpeg.tif")
        try Data(bytes).write(to: url)
        #expect(throws: LumenError.self) { _ = try Image(contentsOf: url) }
        do { _ = try Image(contentsOf: url) } catch {
            #expect("\(error)".contains("ojpeg.tif") && "\(error)".contains("old-style JPEG"), "\(error)")
        }
    }
}
