import CLCMS
import Foundation
import Testing
@testable import Lumen

/// Colour management against profiles nobody here wrote: every RGB, gray and CMYK profile
/// Debian's packages ship (scripts/fetch-profiles.sh: colord, Ghostscript, Argyll,
/// icc-profiles-free, libvips, RawTherapee, Krita, DisplayCAL, Scribus, HP's sRGB out of
/// ImageMagick's documentation…), embedded by Pillow in JPEG, PNG, TIFF and WebP files and
/// by heif-enc in HEIC files (scripts/profile-cases.py). Each file must decode within ΔE2000 < 1 of Little CMS's own
/// conversion to sRGB (Pillow's lcms2), write to every output format, and keep its profile
/// where the output can hold it.
@Suite(.serialized) struct RealProfileTests {
    struct Case: Decodable {
        let file: String, profile: String, space: String, model: String, description: String
        let width: Int, height: Int
        let expected: [Int]?
        let refusedByLittleCMS: String?
    }

    /// The corpus fetched by scripts/setup (scripts/fetch-profiles.sh), and the cases made from it.
    static let cases: (folder: URL, cases: [Case]) = {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let profiles = ProcessInfo.processInfo.environment["LUMEN_PROFILES"] ?? home + "/.cache/lumen-profiles"
        let folder = Paths.temporaryDirectory()
        guard FileManager.default.fileExists(atPath: profiles + "/.complete"),
              (try? runScript("profile-cases.py", [profiles, folder.path], hint: "needs Pillow")) != nil,
              let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
              let cases = try? JSONDecoder().decode([Case].self, from: data) else { return (folder, []) }
        return (folder, cases)
    }()

    @Test func theCorpusIsThere() {
        // scripts/setup fetches it (Debian packages, ~110 MB); without it every test below would pass on nothing.
        #expect(Self.cases.cases.count > 500, "no profile corpus: run scripts/setup (scripts/fetch-profiles.sh)")
        let profiles = Set(Self.cases.cases.map(\.profile))
        #expect(profiles.contains("imagemagick-6-doc__script.png.icc") && profiles.contains("imagemagick-6-doc__logo.png.icc"),
                "HP's sRGB IEC61966-2.1, both variants")
        for space in ["RGB", "GRAY", "CMYK"] { #expect(Self.cases.cases.contains { $0.space == space }, "\(space)") }
        for ext in ["jpg", "png", "tif", "webp", "heic"] { #expect(Self.cases.cases.contains { $0.file.hasSuffix(ext) }, "\(ext) inputs") }
        #expect(Self.cases.cases.contains { $0.model == "lut" && $0.space == "RGB" })
    }

    /// sRGB bytes as CIE Lab (D50), through Little CMS.
    static func lab(_ rgb: [UInt16]) -> [SIMD3<Double>] {
        var lab = [Double](repeating: 0, count: rgb.count)
        _ = rgb.withUnsafeBytes { CLCMS_to_lab(nil, 0, $0.baseAddress, 16, rgb.count / 3, &lab) }
        return stride(from: 0, to: lab.count, by: 3).map { SIMD3(lab[$0], lab[$0 + 1], lab[$0 + 2]) }
    }

    static func deltaE(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        withUnsafePointer(to: a) { x in withUnsafePointer(to: b) { y in
            CLCMS_delta_e2000(UnsafeRawPointer(x).assumingMemoryBound(to: Double.self), UnsafeRawPointer(y).assumingMemoryBound(to: Double.self))
        } }
    }

    /// Where Little CMS disagrees with itself: a measured laptop profile (v3.4, its black
    /// bluish) whose black-point compensation changed between Little CMS 2.14 (Debian's,
    /// which Lumen and libvips link: black → (0, 0, 7), as Lumen gives) and 2.19 (Pillow's,
    /// the reference: black → (0, 0, 0)). Recorded as a known issue: when the versions
    /// agree, the test says so.
    static let knownDifferences: Set<String> = ["colord-tests__ibm-t61.icc"]

    @Test func everyProfileDecodesAsLittleCMSConvertsIt() throws {
        var worst: [(Double, String)] = []
        var knownWorst: [String: Double] = [:]
        for c in Self.cases.cases {
            let url = Self.cases.folder.appendingPathComponent(c.file)
            let image: Image
            do { image = try Image(contentsOf: url) } catch {
                Issue.record("\(c.file) (\(c.profile), \(c.description)): \(error)")
                continue
            }
            guard let expected = c.expected else { continue }
            let bitmap = try render8(image)
            var ours = [UInt16](), theirs = [UInt16]()
            for row in 0..<c.height {
                for x in 0..<c.width {
                    let p = bitmap.pixel(x: x, row: row)
                    ours += [p.x, p.y, p.z].map { UInt16($0) * 257 }
                    let i = (row * c.width + x) * 3
                    theirs += expected[i..<i + 3].map { UInt16($0) * 257 }
                }
            }
            let distances = zip(Self.lab(ours), Self.lab(theirs)).map(Self.deltaE)
            let maximum = distances.max() ?? 0
            worst.append((maximum, "\(c.file) \(c.profile) (\(c.description), \(c.model))"))
            if Self.knownDifferences.contains(c.profile) {
                knownWorst[c.profile] = max(knownWorst[c.profile] ?? 0, maximum)
            } else {
                #expect(maximum < 1, "\(c.file) \(c.profile) (\(c.description), \(c.space) \(c.model)): ΔE2000 up to \(maximum)")
            }
        }
        for (profile, maximum) in knownWorst.sorted(by: { $0.key < $1.key }) {
            withKnownIssue("\(profile): ΔE2000 up to \(maximum)") { #expect(maximum < 1) }
        }
        let top = worst.sorted { $0.0 > $1.0 }.prefix(3).map { String(format: "%.3f ", $0.0) + $0.1 }
        print("largest ΔE2000: \(top)")
    }

    /// Every input goes to every output format without an error, and an RGB matrix
    /// profile stays embedded where the format holds one (as the sRGB chunk in PNG when it
    /// describes sRGB).
    @Test func everyProfileWritesToEveryFormatAndIsKept() throws {
        let directory = Paths.temporaryDirectory()
        let outputs = ["jpg", "png", "tif", "webp", "heic"]
        // One input file per profile (each in turn a JPEG, PNG, TIFF or WebP), every output.
        var seen = Set<String>()
        for (index, c) in Self.cases.cases.enumerated() where seen.insert(c.profile).inserted {
            let input = Self.cases.folder.appendingPathComponent(c.file)
            let source = try ImageFile.metadata(at: input).iccProfile
            let image = try Image(contentsOf: input)
            for ext in [outputs[index % outputs.count], "png"] {
                let url = directory.appendingPathComponent("\(index).\(ext)")
                do { try RenderContext().write(image, to: url) } catch {
                    Issue.record("\(c.profile) → \(ext): \(error)")
                    continue
                }
                guard c.space == "RGB", c.model == "matrix", let source, let profile = ColorProfile(source) else { continue }
                let kept = try ImageFile.metadata(at: url).iccProfile
                if ext == "png" && profile.matchesSRGB {
                    let chunks = try pngChunkTypes(url)
                    #expect(kept == nil && chunks.contains("sRGB"), "\(c.profile) → png: the sRGB chunk")
                } else {
                    #expect(kept == source, "\(c.profile) (\(c.description)) → \(ext): profile not kept")
                }
            }
        }
        #expect(seen.count > 150)
    }
}
