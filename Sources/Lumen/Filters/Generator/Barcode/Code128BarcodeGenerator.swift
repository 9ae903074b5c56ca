extension FilterDescriptor {
    /// ISO/IEC 15417 Code 128 from libzint (code sets chosen by the encoder; bytes above
    /// 127 use its extended Latin-1 shift). One pixel per module, bars `barcodeHeight`
    /// pixels tall, `quietSpace` white pixels on every side, as Core Image draws it.
    static let code128Barcode = FilterDescriptor(
        name: "code128Barcode", coreImageName: "CICode128BarcodeGenerator", category: .generator,
        summary: "A Code 128 barcode for a message, one pixel per module.",
        details: "ISO/IEC 15417 via libzint; width = modules + 2·quietSpace, height = barcodeHeight + 2·quietSpace.",
        parameters: [
            .barcodeMessage,
            .number("quietSpace", .integer, default: 10, min: 0, max: 100, "White pixels around the bars."),
            .number("barcodeHeight", .integer, default: 32, min: 1, max: 500, "Height of the bars in pixels."),
        ]
    ) { args in
        let message = args.data("message")
        guard !message.isEmpty else { return .empty }
        let symbol = try BarcodeSymbol(.code128, message: message, filter: "code128Barcode")
        let quiet = Int(args.number("quietSpace").rounded())
        return BarcodeImage(symbol: symbol, rowHeight: Int(args.number("barcodeHeight").rounded()), quietX: quiet, quietY: quiet).apply()
    }
}
