extension FilterDescriptor {
    /// ISO/IEC 18004 QR Code from libzint: the message as bytes (byte mode, no ECI, as
    /// Core Image encodes `NSData`), the smallest version that holds it at the correction
    /// level, zint's mask choice. One pixel per module, black on white, with the 1-module
    /// quiet zone Core Image draws (ISO asks for 4: scale the image up and pad it when
    /// printing). An empty message gives an empty image (Core Image gives none).
    static let qrCode = FilterDescriptor(
        name: "qrCode", coreImageName: "CIQRCodeGenerator", category: .generator,
        summary: "A QR code for a message, one pixel per module.",
        details: "ISO/IEC 18004 via libzint, byte mode; correction L 7 %, M 15 %, Q 25 %, H 30 %; 1-module quiet zone.",
        parameters: [
            .barcodeMessage,
            ParameterDescriptor("correctionLevel", .string, default: .string("M"),
                                "Error correction: L (7 %), M (15 %), Q (25 %) or H (30 %)."),
        ]
    ) { args in
        guard case let .string(level)? = args.values["correctionLevel"],
              let ecc = ["L": 1, "M": 2, "Q": 3, "H": 4][level.uppercased()] else {
            throw LumenError.invalidValue(filter: "qrCode", key: "correctionLevel", reason: "expected L, M, Q or H")
        }
        let message = args.data("message")
        guard !message.isEmpty else { return .empty }
        let symbol = try BarcodeSymbol(.qrCode, message: message, options: (Int32(ecc), 0, 0), filter: "qrCode")
        return BarcodeImage(symbol: symbol, rowHeight: 1, quietX: 1, quietY: 1).apply()
    }
}
