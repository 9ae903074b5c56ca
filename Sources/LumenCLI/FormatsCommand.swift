import ArgumentParser
import LumenPlatform
import Lumen

/// `lumen formats`: what each codec reads and writes, from the codecs' own declarations
/// (`CodecCapabilities`), so this table cannot drift from what the code does.
struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the image formats, what Lumen reads and writes in each, and their encoder options.").underLumen()

    @Flag(help: "One JSON object per format instead of the table.") var json = false
    @Flag(help: "Only the format names, one per line.") var names = false

    func run() throws {
        let codecs = Codecs.all
        if names {
            print(codecs.map(\.format.rawValue).joined(separator: "\n"))
            return
        }
        if json {
            let objects = codecs.map { codec -> [String: Any] in
                let c = codec.capabilities
                return ["format": codec.format.rawValue, "name": codec.displayName, "extensions": codec.extensions,
                        "reads": c.reads, "writes": c.writes, "depths": c.depths, "alpha": c.alpha, "animation": c.animation,
                        "shrinkOnLoad": c.shrinkOnLoad, "pyramids": c.pyramids, "embeddedThumbnails": c.embeddedThumbnails,
                        "metadata": c.metadata.map(\.rawValue).sorted(), "options": c.options.sorted().map(\.rawValue),
                        "defaultQuality": c.defaultQuality]
            }
            let data = try jsonData(objects)
            print(String(decoding: data, as: UTF8.self))
            return
        }
        var rows = [["format", "extensions", "read", "write", "depths", "alpha", "frames", "shrink-on-load", "metadata written", "options"]]
        for codec in codecs {
            let c = codec.capabilities
            let shrink = (c.shrinkOnLoad.map { "1/\($0)" } + (c.pyramids ? ["pyramid levels"] : []) + (c.embeddedThumbnails ? ["preview"] : []))
            rows.append([codec.displayName, codec.extensions.map { "." + $0 }.joined(separator: " "), c.reads ? "yes" : "no",
                         c.writes ? "yes" : "no", c.writes ? c.depths.map(String.init).joined(separator: "/") : "-",
                         c.writes ? (c.alpha ? "yes" : "no") : "-", c.animation ? "yes" : "no",
                         shrink.isEmpty ? "-" : shrink.joined(separator: ", "),
                         c.metadata.isEmpty ? "-" : c.metadata.map(\.rawValue).sorted().joined(separator: ","),
                         c.options.isEmpty ? "-" : c.options.sorted().map(\.rawValue).joined(separator: ",")])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            print(row.enumerated().map { $1.padded(to: widths[$0]) }.joined(separator: "  ")
                .trimmingSpaces())
        }
    }
}
