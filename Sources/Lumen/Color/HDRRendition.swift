import LumenPlatform

extension OutputFormat {
    /// Whether the output keeps values above SDR white: OpenEXR, 32-bit float TIFF, and PNG
    /// with a PQ or HLG transfer.
    var holdsHDR: Bool {
        fileFormat == .exr || (fileFormat == .tiff && depth == 32) || (fileFormat == .png && transfer != .sRGB)
    }
}

/// `--hdr tonemap` (`OutputFormat.HDRPolicy.tonemap`): the output is made from the inputs'
/// HDR renditions rather than their SDR pictures. Every input with a gain map is expanded to
/// its full headroom where it enters the recipe (once: an input loaded with `expandToHDR`
/// is not raised again), so every step — colour filters included — works on HDR values;
/// then an output that holds SDR only is tone-mapped from the largest of the inputs' peaks
/// to SDR white with `toneMapHeadroom`'s curve (hue kept, highlights rolled off rather than
/// clipped), and an output that holds HDR (EXR, float TIFF, PQ/HLG PNG) keeps the values.
/// No gain map is written. An input whose map cannot be read enters as its SDR picture,
/// with a warning.
enum HDRRendition {
    /// The kernel name of a gain map's expansion (`Image.applyingGainMap`).
    static let expansion = "lumen.gainMap"

    /// `image` as `.tonemap` writes it to `format`; unchanged when no input has a gain map.
    static func toneMapped(_ image: Image, for format: OutputFormat) throws -> Image {
        // The sources with gain maps (a walk without recursion: recipes can be deep).
        var maps: [ObjectIdentifier: GainMap] = [:]
        var seen: Set<ObjectIdentifier> = [], pending = [image.node]
        while let node = pending.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            if let source = node.kernel as? any RowSource, source.header.hasGainMap {
                do {
                    if let map = try source.gainMap() { maps[ObjectIdentifier(node)] = map }
                } catch LumenError.cancelled {
                    throw LumenError.cancelled
                } catch {
                    try DecodeWarnings.report(file: source.sourceName, "its HDR gain map cannot be read (\(error)); it enters as its SDR picture")
                }
            }
            pending.append(contentsOf: node.inputs)
        }
        guard !maps.isEmpty else { return image }
        // The peak of the full rendition: the largest boost, or the capacity if larger.
        let headroom = maps.values.map { exp2(max($0.capacityMaximum, $0.maximum.max())) }.max() ?? 1
        let rendition = try image.node.rewritten { node, original in
            // An expansion already made when the input was loaded: its input is expanded now.
            if original.kind == expansion, let input = original.inputs.first, maps[ObjectIdentifier(input)] != nil {
                return node.inputs[0]
            }
            guard let map = maps[ObjectIdentifier(original)] else { return node }
            return try map.expand(Image(node)).node
        }
        guard !format.holdsHDR, headroom > 1 else { return Image(rendition) }
        return try Image(rendition).applyingFilter("toneMapHeadroom", parameters: ["sourceHeadroom": headroom, "targetHeadroom": 1])
    }
}
