import LumenPlatform

extension FilterDescriptor {
    /// ISO/IEC 15438 PDF417 from Lumen's own encoder (`PDF417`): each module one pixel
    /// wide, each row 3 pixels tall (ISO's minimum row height), a 2-module quiet zone
    /// (ISO's minimum), as Core Image draws it. Zero means "not given" for every size key,
    /// as Core Image's unset (nil) values do: columns and rows are then chosen as Core
    /// Image chooses them, for the width/height nearest `preferredAspectRatio` (3 when
    /// not given) within minWidth…maxWidth and minHeight…maxHeight (pixels, quiet zone
    /// included). `compactionMode` forces one compaction for the whole message
    /// (1 numeric, 2 text, 3 byte) as Core Image does; a message that mode cannot hold is
    /// an error here rather than a wrong symbol.
    static let pdf417Barcode = FilterDescriptor(
        name: "pdf417Barcode", coreImageName: "CIPDF417BarcodeGenerator", category: .generator,
        summary: "A PDF417 barcode for a message.",
        details: "ISO/IEC 15438; modules 1 px wide, rows 3 px tall, 2-module quiet zone; 0 = automatic for sizes; layout nearest the aspect ratio, as Core Image.",
        parameters: [
            .barcodeMessage,
            .number("correctionLevel", .integer, default: -1, min: -1, max: 8,
                    "Error correction level 0…8 (2^(level+1) codewords); −1 the level ISO recommends for the length."),
            .number("dataColumns", .integer, default: 0, min: 0, max: 30, "Data columns 1…30; 0 automatic."),
            .number("rows", .integer, default: 0, min: 0, max: 90, "Rows 3…90 (1 and 2 mean 3); 0 automatic."),
            // Apple types compactStyle and alwaysSpecifyCompaction as Float, so they are
            // integers 0/1 here, and CIFilterBuiltins declares them as Apple does.
            .number("compactStyle", .integer, default: 0, min: 0, max: 1, "1 compact (truncated) PDF417, without the right row indicators."),
            .number("minWidth", .distance, default: 0, min: 0, max: 10_000, "Smallest acceptable width in pixels; 0 any."),
            .number("maxWidth", .distance, default: 0, min: 0, max: 10_000, "Largest acceptable width in pixels; 0 any."),
            .number("minHeight", .distance, default: 0, min: 0, max: 10_000, "Smallest acceptable height in pixels; 0 any."),
            .number("maxHeight", .distance, default: 0, min: 0, max: 10_000, "Largest acceptable height in pixels; 0 any."),
            .number("preferredAspectRatio", default: 0, min: 0, max: 100, "Width / height to aim for; 0 Core Image's 3."),
            .number("compactionMode", .integer, default: 0, min: 0, max: 3,
                    "0 automatic (numeric for 13+ digits, text for 5+ text characters, bytes otherwise: ISO/IEC 15438 Annex N), 1 numeric, 2 text, 3 byte for the whole message."),
            .number("alwaysSpecifyCompaction", .integer, default: 0, min: 0, max: 1,
                    "1 writes the compaction latch even where it is redundant (text, the mode a symbol starts in, first)."),
        ]
    ) { args in
        let message = args.data("message")
        guard !message.isEmpty else { return .empty }
        guard message.count <= 1 << 16 else {
            throw LumenError.invalidValue(filter: "pdf417Barcode", key: "message", reason: "\(message.count) bytes is more than any PDF417 symbol holds")
        }
        // Each key's range is checked by the descriptor, so these conversions are safe.
        func integer(_ key: String) -> Int { Int(args.number(key).rounded()) }
        let layout = PDF417.Layout(
            columns: integer("dataColumns"), rows: integer("rows"),
            minWidth: args.number("minWidth"), maxWidth: args.number("maxWidth"),
            minHeight: args.number("minHeight"), maxHeight: args.number("maxHeight"),
            aspectRatio: args.number("preferredAspectRatio"), compact: args.number("compactStyle") >= 0.5)
        let symbol: BarcodeSymbol
        do throws(PDF417.Refusal) {
            symbol = try PDF417.symbol(Array(message), compaction: PDF417.Compaction(rawValue: integer("compactionMode")) ?? .automatic,
                                       alwaysSpecify: args.number("alwaysSpecifyCompaction") >= 0.5,
                                       level: integer("correctionLevel"), layout: layout)
        } catch {
            throw LumenError.invalidValue(filter: "pdf417Barcode", key: error.key, reason: error.reason)
        }
        return BarcodeImage(symbol: symbol, rowHeight: 3, quietX: 2, quietY: 2).apply()
    }
}
