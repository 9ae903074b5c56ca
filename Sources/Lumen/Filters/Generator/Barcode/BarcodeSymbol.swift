import CZint
import LumenPlatform

/// A barcode's modules as an encoder laid them out: `width` × `height`, rows from the
/// top, `true` for a dark module.
struct BarcodeSymbol: Hashable, Sendable {
    let width: Int
    let height: Int
    let modules: [Bool]

    /// The kinds of symbol the barcode generators draw, as zint numbers them.
    enum Symbology: Int32 {
        case qrCode = 58, aztec = 92, code128 = 20
    }

    /// A symbol an encoder of Lumen's own laid out (PDF417).
    init(width: Int, height: Int, modules: [Bool]) {
        precondition(modules.count == width * height)
        self.width = width
        self.height = height
        self.modules = modules
    }

    /// Encodes `message` (bytes, no character set conversion) with libzint; zint's
    /// options are symbology-specific (see its manual). A message the symbology cannot
    /// hold is an error naming the filter's `message` key with zint's reason.
    init(_ symbology: Symbology, message: Data, options: (Int32, Int32, Int32) = (0, 0, 0), filter: String) throws {
        guard message.count <= 1 << 16 else {
            throw LumenError.invalidValue(filter: filter, key: "message", reason: "\(message.count) bytes is more than any symbol holds")
        }
        var symbol = CZint_Symbol()
        let status = message.withUnsafeBytes { bytes in
            CZint_encode(symbology.rawValue, options.0, options.1, options.2,
                         bytes.bindMemory(to: UInt8.self).baseAddress, Int32(bytes.count), &symbol)
        }
        defer { CZint_free(&symbol) }
        let reason = withUnsafeBytes(of: symbol.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard status == 0, let modules = symbol.modules else {
            throw LumenError.invalidValue(filter: filter, key: "message", reason: reason.isEmpty ? "zint error \(status)" : reason)
        }
        width = Int(symbol.width)
        height = Int(symbol.height)
        self.modules = (0..<width * height).map { modules[$0] != 0 }
    }

    func isDark(x: Int, row: Int) -> Bool { modules[row * width + x] }
}

/// A symbol drawn one pixel per module (`rowHeight` pixels per row), black on white,
/// inside a white quiet zone of `quietX` pixels left and right and `quietY` above and
/// below; its extent starts at the origin.
struct BarcodeImage: ImageKernel {
    let symbol: BarcodeSymbol
    let rowHeight: Int
    let quietX: Int
    let quietY: Int

    var name: String { "barcode" }
    var size: (width: Int, height: Int) { (symbol.width + 2 * quietX, symbol.height * rowHeight + 2 * quietY) }

    func extent(inputs: [Rect]) -> Rect { Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)) }
    func isOpaque(inputs: [Image]) -> Bool { true }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let height = size.height, white = SIMD4<Float>(1, 1, 1, 1), black = SIMD4<Float>(0, 0, 0, 1)
        destination.forEachRow { y, row, count in
            let fromTop = height - 1 - y - quietY  // pixel row inside the symbol, from its top
            let symbolRow = fromTop >= 0 && fromTop < symbol.height * rowHeight ? fromTop / rowHeight : -1
            for i in 0..<count {
                let x = destination.rect.x + i - quietX
                let dark = symbolRow >= 0 && x >= 0 && x < symbol.width && symbol.isDark(x: x, row: symbolRow)
                row[i] = dark ? black : white
            }
        }
    }
}

extension ParameterDescriptor {
    /// A barcode's message: bytes, or a string taken as UTF-8.
    static let barcodeMessage = ParameterDescriptor("message", .data, default: .data(Data()),
        "The bytes to encode (a string is taken as UTF-8); empty gives an empty image.")
}
