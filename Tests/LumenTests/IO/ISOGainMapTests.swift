import Foundation
import Testing
@testable import Lumen

/// ISO 21496-1 gain maps in HEIF, on a file nobody here made: pillow-heif's test image
/// aux_YCbCr.heic (BSD-3-Clause; scripts/fetch-real-inputs.sh), a Samsung phone's HDR photo
/// (2024): a 4000×1848 grid picture, a 1000×462 gain map as its auxiliary image of type
/// urn:com:samsung:photo:2024:aux:hdrgainmap, a `tmap` item with the standard's metadata, and
/// the map's own hdrgm XMP, which says the same in another form.
@Suite struct ISOGainMapTests {
    static let file = URL(fileURLWithPath: FileManager.default.homeDirectoryForCurrentUser.path
                          + "/.cache/lumen-real-inputs/pypi-pillow-heif/aux_YCbCr.heic")

    static func samsung() throws -> Data {
        #expect(FileManager.default.fileExists(atPath: file.path), "no real-input corpus: run scripts/setup")
        return try Data(contentsOf: file)
    }

    @Test func theMetadataIsReadAsTheMapsXMPSaysIt() throws {
        let data = try Self.samsung()
        let map = try #require(try GainMap.read(from: data, name: Self.file.path))
        // The tmap item: headrooms 0 and 2.3 stops, minimum 0, maximum 2.3, gamma 1, no offsets.
        #expect(abs(map.capacityMaximum - 2.3) < 1e-6 && map.capacityMinimum == 0 && !map.baseIsHDR)
        #expect(map.minimum == .zero && abs(map.maximum.x - 2.3) < 1e-6 && map.gamma == SIMD3(repeating: 1) && map.offsetSDR == .zero)
        // Samsung also wrote the map's parameters as hdrgm XMP (the item the map's cdsc points to).
        let bytes = [UInt8](data)
        let table = try HEIFBoxes.ItemTable(bytes)
        let xmpItem = try #require(table.references.first { $0.type == "cdsc" && $0.to == [37] }?.from)
        let xmp = String(decoding: try #require(try table.data(of: xmpItem)), as: UTF8.self)
        let said = try #require(GainMap.parameters(xmp))
        #expect(said["GainMapMax"] == [2.3] && said["HDRCapacityMax"] == [2.3] && said["Gamma"] == [1], "\(said)")
        #expect(try ImageFile.header(at: Self.file).details.contains("HDR gain map (ISO 21496-1, headroom 4.92)"))
    }

    /// The map's samples are what pillow-heif's libheif 1.23 decodes, and expanding a part of
    /// the picture raises each pixel by 2^(2.3 · code / 255) of the map there.
    @Test func theMapIsDecodedAndAppliedAsTheStandardSays() throws {
        let data = try Self.samsung()
        let map = try #require(try GainMap.read(from: data, name: Self.file.path))
        guard case let .codes(samples, width, height, channels) = map.encoded else { Issue.record("not an ISO map"); return }
        #expect(width == 1000 && height == 462 && channels == 1)
        let reference = try #require(try HEICGainMapWriteTests.auxiliaryImages(Self.file)["urn:com:samsung:photo:2024:aux:hdrgainmap"]?.first)
        #expect(reference.samples == [UInt8](samples))
        // 64×64 pixels at (2000, 900) from the top, where the map is smooth: luminance ratios.
        let rect = Rect(x: 2000, y: 1848 - 900 - 64, width: 64, height: 64)
        let hdr = try RenderContext().render(try Image(contentsOf: Self.file, options: .init(expandToHDR: true)).cropped(to: rect), format: .rgbaFloat)
        let sdr = try RenderContext().render(try Image(contentsOf: Self.file).cropped(to: rect), format: .rgbaFloat)
        var errors: [Double] = []
        for row in 0..<64 {
            for x in 0..<64 {
                let h = hdr.pixel(x: x, row: row), s = sdr.pixel(x: x, row: row)
                guard s.y > 0.02 else { continue }
                let code = Double(reference.samples[((900 + row) / 4) * 1000 + (2000 + x) / 4])
                errors.append(abs(Double(h.y / s.y) / exp2(2.3 * code / 255) - 1))
            }
        }
        errors.sort()
        #expect(errors.count > 2000)
        // Measured: median 0.04 %, 95th percentile 0.26 % (the map is interpolated where this
        // reads its nearest sample); a maximum of 2 stops instead of 2.3 would be 8 % off.
        let median = errors[errors.count / 2], p95 = errors[errors.count * 95 / 100]
        #expect(median < 0.005 && p95 < 0.02, "median \(median), 95th percentile \(p95)")
    }

    /// Damage to the boxes the reader walks, and to the metadata, is refused or read, never a trap.
    @Test func damagedBoxesAndMetadataAreRefusedCleanly() throws {
        var bytes = [UInt8](try Self.samsung())
        let meta = try #require(try HEIFBoxes.boxes(bytes, 0..<bytes.count).first { $0.type == "meta" })
        var refused = 0
        for at in meta.start..<meta.end {
            let kept = bytes[at]
            for value: UInt8 in [0x00, 0xFF, kept ^ 0x10] where value != kept {
                bytes[at] = value
                do { _ = try ISOGainMap.find(bytes) } catch is HEIFBoxes.Malformed { refused += 1 }
            }
            bytes[at] = kept
        }
        #expect(refused > 100, "only \(refused) damaged files refused")
        for cut in stride(from: 0, to: meta.end + 64, by: 37) { _ = try? ISOGainMap.find(Array(bytes.prefix(cut))) }
        let payload = try #require(try ISOGainMap.find(bytes)).metadata
        let encoded = GainMap.Encoded.codes(samples: Data(), width: 0, height: 0, channels: 1)
        #expect(ISOGainMap.parameters(payload, encoded: encoded) != nil)
        for cut in 0..<payload.count { #expect(ISOGainMap.parameters(Array(payload.prefix(cut)), encoded: encoded) == nil) }
        for at in payload.indices {
            var damaged = payload
            damaged[at] ^= 0xFF
            _ = ISOGainMap.parameters(damaged, encoded: encoded)
        }
    }

    // MARK: - libavif's files (testdata/hdr/libavif, BSD-2-Clause): an AVIF whose map is a
    // hidden item only the tmap points to, made by avifenc from Photoshop's gain-map JPEG.

    static let avif = Paths.testdata("hdr/libavif/seine_sdr_gainmap_srgb.avif")
    static let photoshop = Paths.testdata("hdr/libavif/seine_sdr_gainmap_srgb.jpg")

    /// Two programs' encodings of one photo's gain map — Photoshop's hdrgm XMP in a JPEG,
    /// avifenc's ISO 21496-1 metadata in an AVIF — read to the same parameters and expanded
    /// to the same HDR picture.
    @Test func anAVIFsMapGivesTheHDRPictureOfTheJPEGItWasMadeFrom() throws {
        let avif = try #require(try GainMap.read(contentsOf: Self.avif))
        let jpeg = try #require(try GainMap.read(contentsOf: Self.photoshop))
        #expect(try ImageFile.header(at: Self.avif).details.contains("HDR gain map (ISO 21496-1, headroom 2.46)"))
        for (a, b) in [(avif.minimum, jpeg.minimum), (avif.maximum, jpeg.maximum), (avif.gamma, jpeg.gamma),
                       (avif.offsetSDR, jpeg.offsetSDR), (avif.offsetHDR, jpeg.offsetHDR)] {
            #expect(max((a - b).max(), (b - a).max()) < 1e-4, "\(a) vs \(b)")
        }
        #expect(abs(avif.capacityMaximum - jpeg.capacityMaximum) < 1e-4 && !avif.baseIsHDR)
        guard case let .codes(_, width, height, _) = avif.encoded else { Issue.record("not an ISO map"); return }
        #expect(width >= 1 && width <= 400 && height <= 300)
        let a = try HEICGainMapWriteTests.hdr(Self.avif), b = try HEICGainMapWriteTests.hdr(Self.photoshop)
        #expect(a.width == 400 && b.width == 400 && (a.samples.max() ?? 0) > 1.5)
        let errors = UltraHDRWriteTests().relativeErrors(b, a)
        // Measured: median 0.44 %, 95th percentile 3.2 % — AV1 at quality 90 against the JPEG,
        // for the picture and the map; the SDR pictures alone: median 0, 95th percentile 3.0 %.
        #expect(errors.median < 0.01 && errors.p95 < 0.06, "median \(errors.median), 95th percentile \(errors.p95)")
        // Written from the AVIF as HEIC and as JPEG, the map goes along (Apple's form, Ultra HDR).
        let heic = try RenderContext().encode(try Image(contentsOf: Self.avif).applyingLanczosScale(0.5), format: .heic())
        #expect(try GainMap.read(from: heic) != nil)
        let jpg = try RenderContext().encode(try Image(contentsOf: Self.avif).applyingLanczosScale(0.5), format: .jpeg())
        #expect(GainMap.read(fromJPEG: jpg) != nil)
    }

    /// What libavif's decoder ignores, Lumen ignores: a tmap version it does not know, a file
    /// whose ftyp lacks the tmap brand, a gamma of zero.
    @Test func mapsTheStandardSaysToIgnoreAreIgnored() throws {
        // The tmap is found, and its version 99 is what makes it unread.
        let unsupported = [UInt8](try Data(contentsOf: Paths.testdata("hdr/libavif/unsupported_gainmap_version.avif")))
        let item = try #require(try ISOGainMap.find(unsupported))
        #expect(item.metadata.first == 99 && ISOGainMap.parameters(item.metadata, encoded: .codes(samples: Data(), width: 0, height: 0, channels: 1)) == nil)
        #expect(try GainMap.read(from: Data(unsupported)) == nil)
        let bytes = try Data(contentsOf: Self.avif)
        let brand = try #require(bytes.prefix(64).range(of: Data("tmap".utf8)))
        var unbranded = bytes
        unbranded.replaceSubrange(brand, with: Data("xxxx".utf8))
        #expect(try GainMap.read(from: unbranded) == nil)
        let found = try #require(try ISOGainMap.find([UInt8](bytes)))
        var payload = found.metadata
        payload.replaceSubrange(38..<42, with: [0, 0, 0, 0])  // the first channel's gamma numerator
        #expect(ISOGainMap.parameters(payload, encoded: .codes(samples: Data(), width: 0, height: 0, channels: 3)) == nil)
        #expect(ISOGainMap.parameters(found.metadata, encoded: .codes(samples: Data(), width: 0, height: 0, channels: 3)) != nil)
    }

    /// The standard's layout, field by field, on payloads written here: which headroom and
    /// which offset is which when the base is SDR and when it is HDR, and the flags that
    /// change the layout refused.
    @Test func theMetadatasFieldsLandWhereTheStandardPutsThem() throws {
        func payload(flags: UInt8, base: Int, alternate: Int, baseOffset: Int, alternateOffset: Int) -> [UInt8] {
            func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
            return [0, 0, 0, 0, 0, flags] + u32(base) + u32(1) + u32(alternate) + u32(1)
                + u32(-1) + u32(2) + u32(3) + u32(1) + u32(2) + u32(1) + u32(baseOffset) + u32(100) + u32(alternateOffset) + u32(100)
        }
        let none = GainMap.Encoded.codes(samples: Data(), width: 0, height: 0, channels: 1)
        let up = try #require(ISOGainMap.parameters(payload(flags: 0, base: 0, alternate: 3, baseOffset: 1, alternateOffset: 3), encoded: none))
        #expect(up.minimum == SIMD3(repeating: -0.5) && up.maximum == SIMD3(repeating: 3) && up.gamma == SIMD3(repeating: 2))
        #expect(up.offsetSDR == SIMD3(repeating: 0.01) && up.offsetHDR == SIMD3(repeating: 0.03))
        #expect(up.capacityMinimum == 0 && up.capacityMaximum == 3 && !up.baseIsHDR)
        let down = try #require(ISOGainMap.parameters(payload(flags: 0, base: 3, alternate: 0, baseOffset: 1, alternateOffset: 3), encoded: none))
        #expect(down.baseIsHDR && down.offsetSDR == SIMD3(repeating: 0.03) && down.offsetHDR == SIMD3(repeating: 0.01))
        #expect(ISOGainMap.parameters(payload(flags: 0x08, base: 0, alternate: 3, baseOffset: 1, alternateOffset: 3), encoded: none) == nil)
        #expect(ISOGainMap.parameters(payload(flags: 0x04, base: 0, alternate: 3, baseOffset: 1, alternateOffset: 3), encoded: none) == nil)
    }
}
