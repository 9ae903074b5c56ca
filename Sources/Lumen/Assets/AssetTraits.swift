/// The traits an asset is looked up with (UIKit's trait collection, reduced to what
/// image variants are chosen by).
public struct AssetTraits: Sendable, Equatable {
    /// The device family an asset variant is for (`~iphone`, `~ipad`).
    public enum Idiom: String, Sendable, CaseIterable {
        /// iPhone (`~iphone`, and what universal variants default to).
        case phone
        /// iPad (`~ipad`).
        case pad
    }
    /// The appearance an asset variant is for (dark variants of `.xcassets`).
    public enum Appearance: String, Sendable, CaseIterable {
        /// The light (default) appearance.
        case light
        /// The dark appearance (`"appearances": [{"appearance": "luminosity", "value": "dark"}]` in `Contents.json`).
        case dark
    }

    /// Display scale: 1, 2 or 3 pixels per point.
    public var scale: Int
    /// The device family (phone or pad).
    public var idiom: Idiom
    /// Light or dark.
    public var appearance: Appearance

    /// Traits for a display (1x phone in light appearance by default).
    public init(scale: Int = 1, idiom: Idiom = .phone, appearance: Appearance = .light) {
        self.scale = scale
        self.idiom = idiom
        self.appearance = appearance
    }
}

/// One file that can stand for a named asset, with the traits it was made for
/// (nil means "any": a universal idiom, no appearance, a single-scale slot).
public struct AssetVariant: Sendable, Equatable, CustomStringConvertible {
    /// The image file.
    public var url: URL
    /// The scale it was made for (`@2x` → 2), nil when the name has none.
    public var scale: Int?
    /// The device family (`~ipad`), nil for universal.
    public var idiom: AssetTraits.Idiom?
    /// The appearance (dark variants of `.xcassets`), nil for any.
    public var appearance: AssetTraits.Appearance?

    /// A variant file with the traits its name or `Contents.json` gave.
    public init(url: URL, scale: Int? = nil, idiom: AssetTraits.Idiom? = nil, appearance: AssetTraits.Appearance? = nil) {
        self.url = url
        self.scale = scale
        self.idiom = idiom
        self.appearance = appearance
    }

    /// The file name and its traits, as `lumen asset --explain` lists them.
    public var description: String {
        "\(url.lastPathComponent) (scale \(scale.map { "\($0)x" } ?? "1x"), \(idiom?.rawValue ?? "universal"), \(appearance?.rawValue ?? "any appearance"))"
    }
}

import LumenPlatform
