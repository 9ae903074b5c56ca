import LumenPlatform

/// One `name.imageset` folder of an asset catalog, read from its Contents.json.
/// Malformed files (bad JSON, unknown keys, missing image files) are errors naming the file.
struct AssetImageSet {
    let variants: [AssetVariant]

    private static let slotKeys: Set<String> = ["filename", "idiom", "scale", "appearances", "width-class", "height-class",
                                                "display-gamut", "language-direction", "subtype", "memory",
                                                "graphics-feature-set", "screen-width", "locale"]
    private static let topKeys: Set<String> = ["images", "info", "properties"]

    init(url: URL) throws {
        let contents = url.appendingPathComponent("Contents.json")
        let name = url.deletingPathExtension().lastPathComponent
        func fail(_ reason: String) -> LumenError { .asset(name: name, reason: "\(contents.path): \(reason)") }
        guard let data = try? Data(contentsOf: contents) else { throw fail("missing Contents.json") }
        guard let root = JSONValue.parse(data)?.anyValue as? [String: Any] else { throw fail("not valid JSON") }
        if let unknown = root.keys.sorted().first(where: { !Self.topKeys.contains($0) }) { throw fail("unknown key '\(unknown)'") }
        guard let images = root["images"] as? [[String: Any]] else { throw fail("'images' must be an array of objects") }
        var variants: [AssetVariant] = []
        for (index, slot) in images.enumerated() {
            if let unknown = slot.keys.sorted().first(where: { !Self.slotKeys.contains($0) }) {
                throw fail("images[\(index)]: unknown key '\(unknown)'")
            }
            guard let filename = slot["filename"] as? String else { continue }  // an empty slot
            let file = url.appendingPathComponent(filename)
            guard FileManager.default.fileExists(atPath: file.path) else { throw fail("images[\(index)]: \(filename) does not exist") }
            var scale: Int?
            if let text = slot["scale"] {
                guard let s = text as? String, s.hasSuffix("x"), let n = Int(s.dropLast()), (1...3).contains(n) else {
                    throw fail("images[\(index)]: scale must be \"1x\", \"2x\" or \"3x\"")
                }
                scale = n
            }
            let idiomText = slot["idiom"] as? String ?? "universal"
            let idiom: AssetTraits.Idiom?
            switch idiomText {
            case "universal": idiom = nil
            case "iphone": idiom = .phone
            case "ipad": idiom = .pad
            case "mac", "tv", "watch", "car", "vision", "ios-marketing", "watch-marketing": continue  // other devices
            default: throw fail("images[\(index)]: unknown idiom '\(idiomText)'")
            }
            var appearance: AssetTraits.Appearance?
            if let appearances = slot["appearances"] {
                guard let list = appearances as? [[String: String]] else { throw fail("images[\(index)]: 'appearances' must be an array of objects") }
                for entry in list where entry["appearance"] == "luminosity" {
                    guard let value = entry["value"].flatMap(AssetTraits.Appearance.init(rawValue:)) else {
                        throw fail("images[\(index)]: luminosity must be \"light\" or \"dark\"")
                    }
                    appearance = value
                }
                if list.contains(where: { $0["appearance"] == "contrast" }) { continue }  // high-contrast slots are not chosen
            }
            variants.append(AssetVariant(url: file, scale: scale, idiom: idiom, appearance: appearance))
        }
        self.variants = variants
    }
}
