import Foundation

extension OutputFormat {
    /// Whether the output keeps values above SDR white: OpenEXR, 32-bit float TIFF, and PNG
    /// with a PQ or HLG transfer.
    var holdsHDR: Bool {
        fileFormat == .exr || (fileFormat == .tiff && depth == 32) || (fileFormat == .png && transfer != .sRGB)
    }
}

/// `--hdr tonemap` (`OutputFormat.HDRPolicy.tonemap`): the output is made from the inputs'
/// HDR renditions rather than their SDR pictures. Every input with a gain map is expanded to
/// its full headroom where it enters the recipe, so every step — colour filters included —
/// works on HDR values; then an output that holds SDR only is tone-mapped from the largest
/// of those headrooms to SDR white with `toneMapHeadroom`'s curve (hue kept, highlights
/// rolled off rather than clipped), and an output that holds HDR (EXR, float TIFF, PQ/HLG
/// PNG) keeps the values. No gain map is written.
enum HDRRendition {
    /// The kernel name of a gain map's expansion (`Image.applyingGainMap`).
    static let expansion = "lumen.gainMap"

    /// `image` as `.tonemap` writes it to `format`; unchanged when no input has a gain map.
    static func toneMapped(_ image: Image, for format: OutputFormat) throws -> Image {
        // The sources with gain maps, and whether the recipe expands them already (an input
        // loaded with `expandToHDR`). A walk without recursion: recipes can be deep.
        var maps: [ObjectIdentifier: GainMap] = [:], expanded = false
        var seen: Set<ObjectIdentifier> = [], pending = [image.node]
        while let node = pending.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            if node.kind == expansion { expanded = true }
            if let source = node.kernel as? any RowSource, source.header.hasGainMap, let map = try source.gainMap() {
                maps[ObjectIdentifier(node)] = map
            }
            pending.append(contentsOf: node.inputs)
        }
        guard let headroom = maps.values.map(\.headroom).max() else { return image }
        var result = image
        if !expanded {
            result = Image(try image.node.rewritten { node in
                guard let map = maps[ObjectIdentifier(node)] else { return node }
                return try map.expand(Image(node)).node
            })
        }
        guard !format.holdsHDR, headroom > 1 else { return result }
        return try result.applyingFilter("toneMapHeadroom", parameters: ["sourceHeadroom": headroom, "targetHeadroom": 1])
    }
}
