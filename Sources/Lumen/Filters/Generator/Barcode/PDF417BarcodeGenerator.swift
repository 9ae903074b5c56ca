import Foundation

extension FilterDescriptor {
    /// ISO/IEC 15438 PDF417 from libzint: each module one pixel wide, each row 3 pixels
    /// tall (ISO's minimum row height), a 2-module quiet zone (ISO's minimum). Zero means
    /// "the encoder chooses" for every size key, as Core Image's unset (nil) values do.
    /// With `dataColumns` unset, the column count (1…30) is searched for the first symbol
    /// within minWidth…maxWidth and minHeight…maxHeight (pixels, quiet zone included) whose
    /// width/height is nearest `preferredAspectRatio` (when given). Zint picks text,
    /// byte or numeric compaction per segment itself, so Core Image's `compactionMode` and
    /// `alwaysSpecifyCompaction` have no counterpart here.
    static let pdf417Barcode = FilterDescriptor(
        name: "pdf417Barcode", coreImageName: "CIPDF417BarcodeGenerator", category: .generator,
        summary: "A PDF417 barcode for a message.",
        details: "ISO/IEC 15438 via libzint; modules 1 px wide, rows 3 px tall, 2-module quiet zone; 0 = automatic for sizes.",
        parameters: [
            .barcodeMessage,
            .number("correctionLevel", .integer, default: -1, min: -1, max: 8,
                    "Error correction level 0…8 (2^(level+1) codewords); −1 the level ISO recommends for the length."),
            .number("dataColumns", .integer, default: 0, min: 0, max: 30, "Data columns 1…30; 0 automatic."),
            .number("rows", .integer, default: 0, min: 0, max: 90, "Rows 3…90 (1 and 2 mean 3); 0 automatic."),
            .number("compactStyle", .boolean, default: 0, min: 0, max: 1, "1 compact (truncated) PDF417, without the right row indicators."),
            .number("minWidth", .distance, default: 0, min: 0, max: 10_000, "Smallest acceptable width in pixels; 0 any."),
            .number("maxWidth", .distance, default: 0, min: 0, max: 10_000, "Largest acceptable width in pixels; 0 any."),
            .number("minHeight", .distance, default: 0, min: 0, max: 10_000, "Smallest acceptable height in pixels; 0 any."),
            .number("maxHeight", .distance, default: 0, min: 0, max: 10_000, "Largest acceptable height in pixels; 0 any."),
            .number("preferredAspectRatio", default: 0, min: 0, max: 100, "Width / height to aim for; 0 none."),
        ]
    ) { args in
        let message = args.data("message")
        guard !message.isEmpty else { return .empty }
        let kind: BarcodeSymbol.Symbology = args.number("compactStyle") >= 0.5 ? .pdf417Compact : .pdf417
        let ecc = Int32(args.number("correctionLevel").rounded())
        var rows = Int32(args.number("rows").rounded())
        if rows > 0 { rows = max(3, rows) }  // a PDF417 symbol has at least 3 rows
        func image(_ symbol: BarcodeSymbol) -> BarcodeImage { BarcodeImage(symbol: symbol, rowHeight: 3, quietX: 2, quietY: 2) }
        let columns = Int32(args.number("dataColumns").rounded())
        let minW = args.number("minWidth"), maxW = args.number("maxWidth"), minH = args.number("minHeight"), maxH = args.number("maxHeight")
        let aspect = args.number("preferredAspectRatio")
        let constrained = minW > 0 || maxW > 0 || minH > 0 || maxH > 0 || aspect > 0
        guard columns == 0 && constrained else {
            return image(try BarcodeSymbol(kind, message: message, options: (ecc, columns, rows), filter: "pdf417Barcode")).apply()
        }
        var best: (score: Double, image: BarcodeImage)?
        for c: Int32 in 1...30 {
            guard let symbol = try? BarcodeSymbol(kind, message: message, options: (ecc, c, rows), filter: "pdf417Barcode") else { continue }
            let candidate = image(symbol), w = Double(candidate.size.width), h = Double(candidate.size.height)
            guard (minW == 0 || w >= minW), (maxW == 0 || w <= maxW), (minH == 0 || h >= minH), (maxH == 0 || h <= maxH) else { continue }
            let score = aspect > 0 ? abs(log(w / h) - log(aspect)) : 0
            if best == nil || score < best!.score { best = (score, candidate) }
            if aspect == 0 { break }
        }
        guard let best else {
            throw LumenError.invalidValue(filter: "pdf417Barcode", key: "message", reason: "no PDF417 symbol of 1…30 columns fits the width and height limits")
        }
        return best.image.apply()
    }
}
