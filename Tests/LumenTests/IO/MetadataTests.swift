import Foundation
import Testing
@testable import Lumen

/// EXIF, XMP, IPTC, ICC and resolution carried from input to output, read back by
/// exiftool (installed by scripts/setup) on every format that can hold them.
@Suite struct MetadataTests {
    static let tagged = Paths.testdata("formats/tagged.jpg")

    /// exiftool's view of a file: tag name → value (numbers as numbers with -n).
    static func exiftool(_ url: URL) throws -> [String: Any]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else { return nil }
        let data = Data(try runToEnd("/usr/bin/exiftool", ["-j", "-n", "-G0", url.path]).stdout.utf8)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first
    }

    @Test func theDecoderReadsEveryBlock() throws {
        let metadata = try ImageFile.metadata(at: Self.tagged)
        #expect(metadata.blockNames == ["icc", "exif", "xmp", "iptc", "resolution"])
        #expect(metadata.resolution?.x == 300 && metadata.resolution?.y == 300)
        #expect(String(decoding: metadata.xmp ?? Data(), as: UTF8.self).contains("Fallen leaf"))
        #expect(String(decoding: metadata.iptc ?? Data(), as: UTF8.self).contains("autumn"))
        #expect(metadata.exif.map { $0.withUnsafeBytes { exifOrientation(in: $0.bindMemory(to: UInt8.self)) } } == 6)
    }

    /// What each format can carry (TIFF keeps no EXIF, as in libvips; IPTC lives only in
    /// JPEG and TIFF; WebP and HEIF have no resolution field).
    @Test(arguments: [("jpg", true, true, true), ("png", true, false, true), ("tif", false, true, true),
                      ("webp", true, false, false), ("heic", true, false, false), ("avif", true, false, false)])
    func everyFormatKeepsWhatItCanCarry(_ ext: String, _ exif: Bool, _ iptc: Bool, _ resolution: Bool) throws {
        let url = Paths.temporaryDirectory().appendingPathComponent("out.\(ext)")
        try RenderContext().write(try Image(contentsOf: Self.tagged), to: url)
        // Lumen's own reading of its output.
        let kept = try ImageFile.metadata(at: url)
        if ext == "png" {
            // The sRGB profile becomes PNG's sRGB chunk, without iCCP (libpng reads one of the two).
            let colourChunks = try pngChunkTypes(url).filter { ["sRGB", "iCCP"].contains($0) }
            #expect(kept.iccProfile == nil && colourChunks == ["sRGB"])
        } else {
            #expect(kept.iccProfile == (try ImageFile.metadata(at: Self.tagged)).iccProfile, "\(ext): ICC")
        }
        #expect((kept.exif != nil) == exif && (kept.iptc != nil) == iptc && (kept.resolution != nil) == resolution, "\(ext)")
        #expect(String(decoding: kept.xmp ?? Data(), as: UTF8.self).contains("Fallen leaf"), "\(ext): XMP")
        // exiftool's reading.
        guard let tags = try Self.exiftool(url) else { return }
        #expect(tags["XMP:Title"] as? String == "Fallen leaf", "\(ext)")
        if ext == "png" {
            #expect(tags["PNG:SRGBRendering"] != nil, "png: sRGB chunk")
        } else {
            #expect(tags["ICC_Profile:ProfileDescription"] as? String == "sRGB built-in", "\(ext)")
        }
        if exif {
            #expect(tags["EXIF:Artist"] as? String == "Ada Lovelace", "\(ext)")
            // The pixels were turned upright: the tag says so, and the size follows the output.
            #expect(tags["EXIF:Orientation"] as? Int == 1, "\(ext)")
            #expect(tags["EXIF:ExifImageWidth"] as? Int == 96 && tags["EXIF:ExifImageHeight"] as? Int == 64, "\(ext)")
        }
        if iptc { #expect(tags["IPTC:Keywords"] as? String == "autumn" && tags["IPTC:City"] as? String == "Paris", "\(ext)") }
        if resolution {
            let x = (tags["EXIF:XResolution"] ?? tags["JFIF:XResolution"] ?? tags["PNG:PixelsPerUnitX"]) as? Double
            #expect(x != nil, "\(ext): resolution")
        }
    }

    @Test func stripDropsEverythingAndKeepICCKeepsOnlyTheProfile() throws {
        let directory = Paths.temporaryDirectory()
        let image = try Image(contentsOf: Self.tagged)
        for ext in ["jpg", "png", "webp"] {
            var strip = OutputFormat(path: "x.\(ext)")!
            strip.metadata = .strip
            let stripped = directory.appendingPathComponent("strip.\(ext)")
            try RenderContext().write(image, to: stripped, format: strip)
            #expect(try ImageFile.metadata(at: stripped).blockNames.isEmpty, "\(ext)")
            var icc = strip
            icc.metadata = .iccOnly
            let profiled = directory.appendingPathComponent("icc.\(ext)")
            try RenderContext().write(image, to: profiled, format: icc)
            // PNG says sRGB with its sRGB chunk, and keeps nothing else.
            let expected: [String] = ext == "png" ? [] : ["icc"]
            #expect(try ImageFile.metadata(at: profiled).blockNames == expected, "\(ext)")
            if ext == "png" {
                let chunks = try pngChunkTypes(profiled)
                #expect(chunks == ["IHDR", "sRGB", "IDAT", "IEND"])
            }
            if let tags = try Self.exiftool(stripped) { #expect(tags["EXIF:Artist"] == nil && tags["XMP:Title"] == nil) }
        }
    }

    @Test func storedPixelsKeepTheirOrientationTag() throws {
        let url = Paths.temporaryDirectory().appendingPathComponent("stored.jpg")
        try RenderContext().write(try Image(contentsOf: Self.tagged, options: .init(appliesOrientation: false)), to: url)
        let header = try ImageFile.header(at: url)
        #expect(header.orientation == 6 && header.width == 64 && header.height == 96)
    }

    @Test func theExifEditorChangesOnlyWhatItIsAskedTo() throws {
        let exif = try #require(try ImageFile.metadata(at: Self.tagged).exif)
        var editor = try #require(ExifEditor(exif))
        editor.set(0x0112, to: 3)
        editor.set(0xA002, to: 1234, exifIFD: true)
        editor.set(0x9999, to: 7)  // absent: stays absent
        #expect(editor.data.count == exif.count)
        #expect(editor.data.withUnsafeBytes { exifOrientation(in: $0.bindMemory(to: UInt8.self)) } == 3)
        let changed = zip(exif, editor.data).filter { $0 != $1 }.count
        #expect(changed >= 1 && changed <= 4)
        #expect(ExifEditor(Data("not exif".utf8)) == nil)
    }

    /// A TIFF keeps its camera data in IFD0 and Exif/GPS sub-IFDs, not in one block; Lumen
    /// gathers them into one so they reach JPEG, PNG, WebP and HEIC outputs. The TIFF is
    /// tagged by exiftool (orientation 6, camera, exposure, GPS, EXIF pixel size) and every
    /// output is read back by exiftool: the tags are there, the orientation is 1 (the pixels
    /// were turned) and the EXIF size is the output's.
    @Test(arguments: ["jpg", "png", "webp", "heic"])
    func aTIFFsExifReachesOtherFormats(_ ext: String) throws {
        let directory = Paths.temporaryDirectory()
        let tiff = directory.appendingPathComponent("camera.tif")
        try RenderContext().write(try Image(contentsOf: Paths.testdata("photo.jpg")), to: tiff)
        #expect(try ImageFile.metadata(at: tiff).exif == nil, "a TIFF without camera tags has no EXIF block")
        _ = try runReferenceTool(["exiftool", "-q", "-overwrite_original", "-Make=LumenCam", "-Model=Test 1",
                                  "-Orientation#=6", "-DateTimeOriginal=2024:05:06 07:08:09", "-FNumber=2.8",
                                  "-ExposureTime=0.004", "-ISO=200", "-ExifImageWidth=640", "-ExifImageHeight=400",
                                  "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E",
                                  tiff.path], hint: "exiftool (Debian libimage-exiftool-perl)")
        let exif = try #require(try ImageFile.metadata(at: tiff).exif)
        #expect(exif.withUnsafeBytes { exifOrientation(in: $0.bindMemory(to: UInt8.self)) } == 6)
        let output = directory.appendingPathComponent("out.\(ext)")
        #expect(try CommandLineTests.lumen(["convert", tiff.path, "-o", output.path]).status == 0)
        let tags = try #require(try Self.exiftool(output))
        #expect(tags["EXIF:Make"] as? String == "LumenCam" && tags["EXIF:Model"] as? String == "Test 1", "\(ext)")
        #expect(tags["EXIF:DateTimeOriginal"] as? String == "2024:05:06 07:08:09", "\(ext)")
        #expect(tags["EXIF:FNumber"] as? Double == 2.8 && tags["EXIF:ISO"] as? Int == 200, "\(ext)")
        #expect(abs((tags["EXIF:ExposureTime"] as? Double ?? 0) - 0.004) < 1e-9, "\(ext)")
        #expect(abs((tags["EXIF:GPSLatitude"] as? Double ?? 0) - 48.8566) < 1e-4 && tags["EXIF:GPSLatitudeRef"] as? String == "N", "\(ext)")
        #expect(tags["EXIF:Orientation"] as? Int == 1, "\(ext): the pixels were turned")
        #expect(tags["EXIF:ExifImageWidth"] as? Int == 400 && tags["EXIF:ExifImageHeight"] as? Int == 640, "\(ext)")
        #expect(try ImageFile.header(at: output).width == 400)
    }

    /// Damaged TIFF structures give no EXIF block rather than a trap: offsets past the end,
    /// an IFD pointing at itself, absurd counts.
    @Test func aMalformedTIFFGivesNoExifBlock() throws {
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        tiff += [2, 0]  // IFD0: two entries
        tiff += [0x0F, 0x01, 2, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0x40, 0, 0, 0]  // Make: 2³¹ characters
        tiff += [0x69, 0x87, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0]  // the Exif IFD is IFD0 itself
        tiff += [0, 0, 0, 0]
        #expect(TIFFExif.block(fromTIFF: Data(tiff)) == nil)
        #expect(TIFFExif.block(fromTIFF: Data(tiff.prefix(12))) == nil)
        #expect(TIFFExif.block(fromTIFF: Data([0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xFF])) == nil)
    }

    @Test func theCommandLineKeepsStripsAndShowsMetadata() throws {
        let directory = Paths.temporaryDirectory()
        let kept = directory.appendingPathComponent("kept.webp").path, stripped = directory.appendingPathComponent("stripped.jpg").path
        #expect(try CommandLineTests.lumen(["apply", "-e", "exposureAdjust ev=0.3", Self.tagged.path, "-o", kept]).status == 0)
        #expect(try ImageFile.metadata(at: URL(fileURLWithPath: kept)).blockNames == ["icc", "exif", "xmp"])
        #expect(try CommandLineTests.lumen(["convert", "--strip", Self.tagged.path, "-o", stripped]).status == 0)
        #expect(try ImageFile.metadata(at: URL(fileURLWithPath: stripped)).blockNames.isEmpty)
        let info = try CommandLineTests.lumen(["info", "--json", Self.tagged.path])
        #expect(info.stdout.contains("\"exifOrientation\" : 6") && info.stdout.contains("\"iptc\""))
        let refused = try CommandLineTests.lumen(["convert", "--strip", "--keep", "icc", Self.tagged.path, "-o", stripped])
        #expect(refused.status == 2)
    }
}
