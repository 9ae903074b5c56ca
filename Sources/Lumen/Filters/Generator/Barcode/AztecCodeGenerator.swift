extension FilterDescriptor {
    /// ISO/IEC 24778 Aztec Code from libzint. Zint offers four error correction levels
    /// (10, 23, 36, 50 % of the symbol); `correctionLevel` picks the smallest that is at
    /// least the percentage asked for (50 % above 36). `layers` 1…32 fixes the size (1…4
    /// with `compactStyle` 1); 0 lets the encoder choose. One pixel per module, black on
    /// white, with a 1-module quiet zone (Aztec needs none; Core Image's size is unknown).
    static let aztecCode = FilterDescriptor(
        name: "aztecCode", coreImageName: "CIAztecCodeGenerator", category: .generator,
        summary: "An Aztec code for a message, one pixel per module.",
        details: "ISO/IEC 24778 via libzint; correction level rounded up to 10/23/36/50 %; layers 0 = automatic.",
        parameters: [
            .barcodeMessage,
            .number("correctionLevel", default: 23, min: 5, max: 95, "Percentage of the symbol used for error correction."),
            .number("layers", .integer, default: 0, min: 0, max: 32, "Data layers around the core; 0 chooses the fewest that fit."),
            .number("compactStyle", .integer, default: -1, min: -1, max: 1,
                    "1 compact symbol (up to 4 layers), 0 full-size, −1 the encoder chooses."),
        ]
    ) { args in
        let message = args.data("message")
        guard !message.isEmpty else { return .empty }
        let percent = args.number("correctionLevel")
        let ecc: Int32 = percent <= 10 ? 1 : percent <= 23 ? 2 : percent <= 36 ? 3 : 4
        let layers = Int32(args.number("layers").rounded()), compact = args.number("compactStyle").rounded()
        var size: Int32 = 0
        if layers > 0 {
            guard compact != 1 || layers <= 4 else {
                throw LumenError.invalidValue(filter: "aztecCode", key: "layers", reason: "a compact symbol has 1 to 4 layers")
            }
            size = compact == 1 ? layers : 4 + layers
        } else if compact == 1 {
            // Smallest compact size that holds the message.
            for n: Int32 in 1...4 {
                if let symbol = try? BarcodeSymbol(.aztec, message: message, options: (ecc, n, 0), filter: "aztecCode") {
                    return BarcodeImage(symbol: symbol, rowHeight: 1, quietX: 1, quietY: 1).apply()
                }
            }
            throw LumenError.invalidValue(filter: "aztecCode", key: "message", reason: "too long for a compact symbol")
        }
        var symbol = try BarcodeSymbol(.aztec, message: message, options: (ecc, size, 0), filter: "aztecCode")
        if compact == 0 && size == 0 && symbol.width <= 27 {  // zint chose compact: take the smallest full-size one
            for n: Int32 in 5...36 {
                if let full = try? BarcodeSymbol(.aztec, message: message, options: (ecc, n, 0), filter: "aztecCode") { symbol = full; break }
            }
        }
        return BarcodeImage(symbol: symbol, rowHeight: 1, quietX: 1, quietY: 1).apply()
    }
}
