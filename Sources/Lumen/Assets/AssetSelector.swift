/// Chooses the variant of an asset for some traits. A pure function of its inputs,
/// tested with tables.
///
/// Variants of the other idiom, or of the other explicit appearance, are never chosen.
/// Among the rest, in order of importance:
/// 1. appearance: the requested one over "any";
/// 2. scale: the exact scale; else the nearest larger (downsampled with Lanczos); else
///    the nearest smaller (upsampled). A variant without a scale counts as 1x;
/// 3. idiom: the requested device over universal.
public enum AssetSelector {
    /// The variant an asset lookup picked, how much it must be resampled, and why.
    public struct Choice: Sendable, Equatable {
        /// The file chosen.
        public var variant: AssetVariant
        /// The factor the chosen pixels are resampled by (1 for an exact match).
        public var resampling: Double
        /// Why this variant won, in words.
        public var reason: String
    }

    /// The best variant for `traits` by the rules above, or nil when none is eligible.
    public static func choose(from variants: [AssetVariant], for traits: AssetTraits) -> Choice? {
        let eligible = variants.filter {
            ($0.idiom == nil || $0.idiom == traits.idiom) && ($0.appearance == nil || $0.appearance == traits.appearance)
        }
        func rank(_ v: AssetVariant) -> (Int, Int, Int, Int) {
            let scale = v.scale ?? 1
            let appearance = v.appearance == traits.appearance ? 0 : 1
            let tier = scale == traits.scale ? 0 : scale > traits.scale ? 1 : 2
            let distance = abs(scale - traits.scale)
            let idiom = v.idiom == traits.idiom ? 0 : 1
            return (appearance, tier, distance, idiom)
        }
        guard let best = eligible.min(by: { rank($0) < rank($1) }) else { return nil }
        let scale = best.scale ?? 1
        let resampling = Double(traits.scale) / Double(scale)
        var reason = scale == traits.scale ? "exact scale \(scale)x"
            : scale > traits.scale ? "no \(traits.scale)x variant; nearest larger is \(scale)x, downsampled by \(format(resampling)) with Lanczos"
            : "no \(traits.scale)x or larger variant; nearest smaller is \(scale)x, upsampled by \(format(resampling))"
        reason += best.idiom == nil ? ", universal" : ", \(best.idiom!.rawValue)-specific"
        if traits.appearance == .dark { reason += best.appearance == .dark ? ", dark appearance" : ", no dark variant (any appearance)" }
        return Choice(variant: best, resampling: resampling, reason: reason)
    }
}
