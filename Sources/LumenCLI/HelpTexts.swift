import Lumen

// Help texts that read the codec tables are made once per process (`let`s, not computed
// properties): ArgumentParser makes a command's options more than once while it parses,
// evaluating every help string each time. So a codec registered in process after the first
// parse is named in messages and validation (computed anew), not in `--help`.

/// ".jpg, .png, .tif, …": the extensions of the formats Lumen writes, for messages (made
/// anew each time, so codecs registered in process since are named).
var writableExtensions: String { ImageFileFormat.writable.map { "." + $0.preferredExtension }.joined(separator: ", ") }

/// The same for help texts, made once.
let writableExtensionsHelp = writableExtensions

extension OutputOptions {
    /// "JPEG 85, WebP 80, …": each writable format's default quality.
    static let defaultQualities =
        Codecs.all.filter { $0.capabilities.writes && $0.capabilities.options.contains(.quality) }
            .map { "\($0.displayName) \(Int(($0.capabilities.defaultQuality * 100).rounded()))" }.joined(separator: ", ")
    /// "JPEG 8, PNG 8/16, …": the bit depths each writable format takes.
    static let depthList =
        Codecs.all.filter(\.capabilities.writes).map { "\($0.displayName) \($0.capabilities.depths.map(String.init).joined(separator: "/"))" }
            .joined(separator: ", ")
    /// Which writable formats take each option ("JPEG, WebP or AVIF"), made once.
    static let formatsTaking: [CodecCapabilities.Option: String] =
        Dictionary(uniqueKeysWithValues: CodecCapabilities.Option.allCases.map { ($0, Codecs.formats(with: $0)) })
    /// "jpeg, png, …": the writable formats by name.
    static let writableFormatNames = ImageFileFormat.writable.map(\.rawValue).joined(separator: ", ")
}
