import Foundation
import Testing
@testable import Lumen

@Suite struct AssetTests {
    static let u = URL(fileURLWithPath: "/a")
    static func v(_ file: String, _ scale: Int?, _ idiom: AssetTraits.Idiom? = nil, _ appearance: AssetTraits.Appearance? = nil) -> AssetVariant {
        AssetVariant(url: u.appendingPathComponent(file), scale: scale, idiom: idiom, appearance: appearance)
    }

    /// (variants, traits) → chosen file and resampling.
    static let table: [([AssetVariant], AssetTraits, String, Double)] = [
        ([v("x.png", 1), v("x@2x.png", 2), v("x@3x.png", 3)], AssetTraits(scale: 2), "x@2x.png", 1),
        ([v("x.png", 1), v("x@3x.png", 3)], AssetTraits(scale: 2), "x@3x.png", 2.0 / 3),
        ([v("x.png", 1), v("x@2x.png", 2)], AssetTraits(scale: 3), "x@2x.png", 1.5),
        ([v("x.png", nil)], AssetTraits(scale: 2), "x.png", 2),
        ([v("x@2x.png", 2), v("x@2x~ipad.png", 2, .pad)], AssetTraits(scale: 2, idiom: .pad), "x@2x~ipad.png", 1),
        ([v("x@2x.png", 2), v("x@2x~ipad.png", 2, .pad)], AssetTraits(scale: 2, idiom: .phone), "x@2x.png", 1),
        ([v("x~ipad.png", 1, .pad), v("x@2x.png", 2)], AssetTraits(scale: 1, idiom: .pad), "x~ipad.png", 1),
        ([v("x@2x~iphone.jpg", 2, .phone), v("x@3x.png", 3)], AssetTraits(scale: 3, idiom: .phone), "x@3x.png", 1),
        ([v("l@2x.png", 2), v("d@2x.png", 2, nil, .dark)], AssetTraits(scale: 2, appearance: .dark), "d@2x.png", 1),
        ([v("l@2x.png", 2), v("d@2x.png", 2, nil, .dark)], AssetTraits(scale: 2, appearance: .light), "l@2x.png", 1),
        ([v("l@2x.png", 2), v("d@3x.png", 3, nil, .dark)], AssetTraits(scale: 2, appearance: .dark), "d@3x.png", 2.0 / 3),
        ([v("l@2x.png", 2, nil, .light), v("any@1x.png", 1)], AssetTraits(scale: 2, appearance: .dark), "any@1x.png", 2),
    ]

    @Test(arguments: 0..<table.count)
    func selectionFollowsTheRules(_ row: Int) throws {
        let (variants, traits, file, resampling) = Self.table[row]
        let choice = try #require(AssetSelector.choose(from: variants, for: traits))
        #expect(choice.variant.url.lastPathComponent == file, "row \(row): \(choice.reason)")
        #expect(abs(choice.resampling - resampling) < 1e-12)
    }

    @Test func nothingFitsGivesNil() {
        #expect(AssetSelector.choose(from: [Self.v("x~ipad.png", 1, .pad)], for: AssetTraits(idiom: .phone)) == nil)
    }

    @Test(arguments: [("logo.png", nil, nil), ("logo@2x.png", 2, nil), ("logo~ipad.png", nil, AssetTraits.Idiom.pad),
                      ("logo@3x~iphone.jpg", 3, .phone), ("logo@2x~ipad.tiff", 2, .pad),
                      ("logo@2x.webp", 2, nil), ("logo.heic", nil, nil)])
    func looseNamesParse(_ file: String, _ scale: Int?, _ idiom: AssetTraits.Idiom?) throws {
        let parsed = try #require(AssetCatalog.parseLooseName(file, name: "logo"))
        #expect(parsed.scale == scale && parsed.idiom == idiom)
    }

    @Test func otherNamesDoNotParse() {
        for file in ["logos.png", "logo@4x.png", "logo.bmp", "logo-dark.png", "other@2x.png"] {
            #expect(AssetCatalog.parseLooseName(file, name: "logo") == nil, "\(file)")
        }
    }

    /// A folder with loose files and a catalog with dark variants, made from testdata.
    static func makeAssets() throws -> URL {
        let root = Paths.temporaryDirectory()
        let fm = FileManager.default
        try fm.copyItem(at: Paths.testdata("logo.png"), to: root.appendingPathComponent("badge@2x.png"))
        try fm.copyItem(at: Paths.codec("rgb8.png"), to: root.appendingPathComponent("badge~ipad.png"))
        let set = root.appendingPathComponent("App.xcassets/Icons/star.imageset")
        try fm.createDirectory(at: set, withIntermediateDirectories: true)
        try fm.copyItem(at: Paths.codec("rgb8.png"), to: set.appendingPathComponent("star.png"))
        try fm.copyItem(at: Paths.codec("rgba8.png"), to: set.appendingPathComponent("star-dark@3x.png"))
        let json = """
        {"images": [{"idiom": "universal", "scale": "1x", "filename": "star.png"},
                    {"idiom": "universal", "scale": "2x"},
                    {"idiom": "universal", "scale": "3x", "filename": "star-dark@3x.png",
                     "appearances": [{"appearance": "luminosity", "value": "dark"}]}],
         "info": {"author": "xcode", "version": 1}}
        """
        try json.write(to: set.appendingPathComponent("Contents.json"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func looseFilesAndCatalogsResolve() throws {
        let catalog = AssetCatalog(directories: [try Self.makeAssets()])
        let badge = try catalog.image(named: "badge", scale: 1)
        #expect(badge.extent.width == 48 && badge.scale == 1, "@2x downsampled by 1/2")
        let pad = try catalog.resolve("badge", traits: AssetTraits(scale: 1, idiom: .pad))
        #expect(pad.choice.variant.url.lastPathComponent == "badge~ipad.png")
        let dark = try catalog.resolve("star", traits: AssetTraits(scale: 3, appearance: .dark))
        #expect(dark.choice.variant.url.lastPathComponent == "star-dark@3x.png" && dark.choice.resampling == 1)
        let light = try catalog.image(named: "star", scale: 2)
        #expect(light.extent.width == 46 && light.scale == 2, "1x upsampled")
    }

    @Test func malformedCatalogsNameTheFile() throws {
        let root = try Self.makeAssets()
        let contents = root.appendingPathComponent("App.xcassets/Icons/star.imageset/Contents.json")
        for (text, expected) in [("{not json", "not valid JSON"),
                                 ("{\"images\": [{\"filename\": \"gone.png\"}]}", "gone.png does not exist"),
                                 ("{\"images\": [], \"colour\": 1}", "unknown key 'colour'"),
                                 ("{\"images\": [{\"filename\": \"star.png\", \"scale\": \"5x\"}]}", "scale must be")] {
            try text.write(to: contents, atomically: true, encoding: .utf8)
            #expect(throws: LumenError.self) { _ = try AssetCatalog(directories: [root]).variants(named: "star") }
            do { _ = try AssetCatalog(directories: [root]).variants(named: "star") } catch let error as LumenError {
                #expect(error.description.contains(contents.path) && error.description.contains(expected), "\(error)")
            }
        }
        do { _ = try AssetCatalog(directories: [root]).resolve("missing", traits: AssetTraits()) } catch let error as LumenError {
            #expect(error.description.contains("asset 'missing': not found: searched \(root.path)"))
        }
    }

    @Test func chainsUseAssets() throws {
        let root = try Self.makeAssets()
        let chain = try FilterChain("logo = asset(\"badge\")\nsourceOver image=logo background=input")
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg"))
        let out = try chain.apply(to: photo, assets: .init(catalog: AssetCatalog(directories: [root]), traits: AssetTraits(scale: 2)))
        #expect(out.extent == photo.extent)
        #expect(throws: LumenError.self) { _ = try chain.apply(to: photo) }
    }
}
