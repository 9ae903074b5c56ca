import LumenPlatform

/// Finds named images in folders the way UIKit does: loose files (`name.png`,
/// `name@2x.png`, `name~ipad.png`, `name@3x~iphone.jpg`…) and asset catalogs
/// (`*.xcassets/…/name.imageset/Contents.json`), then picks the variant for the
/// requested traits (`AssetSelector`). The image knows its scale (points = pixels / scale).
public final class AssetCatalog: Sendable {
    /// The folders searched, in order: the first that has a name wins.
    public let directories: [URL]
    /// The file extensions taken as images (every format Lumen reads).
    public static let imageExtensions = ImageFileFormat.all.flatMap { Codecs.codec(for: $0)?.extensions ?? [] }

    /// A catalog over `directories` (nothing is read until a look-up).
    public init(directories: [URL]) {
        self.directories = directories
    }

    /// What a look-up found and chose.
    public struct Resolution: Sendable {
        /// The name looked up.
        public var name: String
        /// The traits it was looked up for.
        public var traits: AssetTraits
        /// Every file found for the name.
        public var variants: [AssetVariant]
        /// The variant chosen, with its resampling factor and the reason.
        public var choice: AssetSelector.Choice
    }

    /// The variants of `name` in every directory, loose files and catalogs.
    public func variants(named name: String) throws -> [AssetVariant] {
        var found: [AssetVariant] = []
        for directory in directories {
            found += try looseVariants(named: name, in: directory)
            for imageSet in imageSets(named: name, under: directory) {
                found += try AssetImageSet(url: imageSet).variants
            }
        }
        return found
    }

    /// Looks `name` up for `traits`; throws naming what was searched when nothing fits.
    public func resolve(_ name: String, traits: AssetTraits) throws -> Resolution {
        let all = try variants(named: name)
        guard let choice = AssetSelector.choose(from: all, for: traits) else {
            let searched = directories.map(\.path).joined(separator: ", ")
            let reason = all.isEmpty
                ? "not found: searched \(searched) for \(name).{\(Self.imageExtensions.joined(separator: ","))} with @2x/@3x and ~ipad/~iphone, and \(name).imageset in *.xcassets"
                : "no variant for \(traits.idiom.rawValue) (\(all.map(\.description).joined(separator: "; ")))"
            throw LumenError.asset(name: name, reason: reason)
        }
        return Resolution(name: name, traits: traits, variants: all, choice: choice)
    }

    /// The chosen variant as an image at the requested scale (resampled with Lanczos when
    /// no exact variant exists). `image.scale` is the requested scale.
    public func image(named name: String, scale: Int = 1, idiom: AssetTraits.Idiom = .phone,
                      appearance: AssetTraits.Appearance = .light) throws -> Image {
        let resolution = try resolve(name, traits: AssetTraits(scale: scale, idiom: idiom, appearance: appearance))
        var image = try Image(contentsOf: resolution.choice.variant.url)
        if resolution.choice.resampling != 1 { image = try image.applyingLanczosScale(resolution.choice.resampling) }
        image.scale = Double(scale)
        return image
    }

    private func looseVariants(named name: String, in directory: URL) throws -> [AssetVariant] {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw LumenError.asset(name: name, reason: "cannot read the asset folder \(directory.path)")
        }
        return files.sorted().compactMap { file in Self.parseLooseName(file, name: name).map {
            AssetVariant(url: directory.appendingPathComponent(file), scale: $0.scale, idiom: $0.idiom)
        } }
    }

    /// Parses `name[@Nx][~ipad|~iphone].ext`; nil when the file is not a variant of `name`.
    static func parseLooseName(_ file: String, name: String) -> (scale: Int?, idiom: AssetTraits.Idiom?)? {
        let ext = file.filenameExtension.lowercased()
        guard imageExtensions.contains(ext) else { return nil }
        var stem = Substring(ext.isEmpty ? file : String(file.dropLast(ext.count + 1)))
        guard stem.hasPrefix(name) else { return nil }
        stem = stem.dropFirst(name.count)
        var idiom: AssetTraits.Idiom?
        if stem.hasSuffix("~ipad") { idiom = .pad; stem = stem.dropLast(5) }
        else if stem.hasSuffix("~iphone") { idiom = .phone; stem = stem.dropLast(7) }
        var scale: Int?
        if stem.hasPrefix("@"), stem.hasSuffix("x"), let s = Int(stem.dropFirst().dropLast()), (1...3).contains(s) {
            scale = s
            stem = ""
        }
        return stem.isEmpty ? (scale, idiom) : nil
    }

    private func imageSets(named name: String, under directory: URL) -> [URL] {
        var sets: [URL] = []
        for path in filesUnder(directory.path) where path.split(separator: "/").last == "\(name).imageset" {
            let url = directory.appendingPathComponent(path)
            if url.pathComponents.contains(where: { $0.hasSuffix(".xcassets") }) { sets.append(url) }
        }
        return sets.sorted { $0.path < $1.path }
    }
}
