import CText
import LumenPlatform

extension FilterDescriptor {
    /// Black text on transparent: the font named `fontName` (fontconfig's match; an
    /// unknown name falls back to its default, DejaVu Sans on Debian), `fontSize` points
    /// at `scaleFactor` pixels per point, shaped by HarfBuzz (kerning, ligatures, complex
    /// and right-to-left scripts) and drawn by FreeType with anti-aliasing. Lines split at
    /// newlines; the extent starts at the origin and spans the widest line's advance and
    /// each line's ascender-to-descender height, plus `padding` points on every side.
    static let textImageGenerator = FilterDescriptor(
        name: "textImageGenerator", coreImageName: "CITextImageGenerator", category: .generator,
        summary: "An image of a string in a font, black on transparent.",
        details: "fontconfig match for fontName, HarfBuzz shaping, FreeType coverage as alpha; size = fontSize·scaleFactor px; padding on every side.",
        parameters: [
            ParameterDescriptor("text", .string, default: .string(""), "The text; newlines start new lines; empty gives an empty image."),
            ParameterDescriptor("fontName", .string, default: .string("HelveticaNeue"), "A font family or fontconfig pattern (\"DejaVu Serif:bold\")."),
            .number("fontSize", default: 12, min: 1, max: 1000, "Size in points."),
            .number("scaleFactor", default: 1, min: 0.1, max: 16, "Pixels per point."),
            .number("padding", .distance, default: 0, min: 0, max: 1000, "Empty space around the text, in points."),
        ]
    ) { args in try textImage(args, filter: "textImageGenerator", color: .black) }

    /// Core Image's attributed-text generator with what Linux can express of an
    /// NSAttributedString's attributes: one font (family or fontconfig pattern), size and
    /// foreground colour for the whole string; drawn as textImageGenerator draws.
    static let attributedTextImageGenerator = FilterDescriptor(
        name: "attributedTextImageGenerator", coreImageName: "CIAttributedTextImageGenerator", category: .generator,
        summary: "An image of styled text (font, size, color), on transparent.",
        details: "As textImageGenerator with the string's font, size and foreground colour; padding on every side.",
        parameters: [
            ParameterDescriptor("text", .string, default: .string(""), "The text; newlines start new lines; empty gives an empty image."),
            ParameterDescriptor("fontName", .string, default: .string("Helvetica"), "The font attribute: a family or fontconfig pattern."),
            .number("fontSize", default: 12, min: 1, max: 1000, "The font attribute's size in points."),
            .color("color", default: .black, "The foreground color attribute."),
            .number("scaleFactor", default: 1, min: 0.1, max: 16, "Pixels per point."),
            .number("padding", .distance, default: 0, min: 0, max: 1000, "Empty space around the text, in points."),
        ]
    ) { args in try textImage(args, filter: "attributedTextImageGenerator", color: args.color("color")) }

    /// Both text generators: checks the text, shapes and draws it at fontSize·scaleFactor pixels.
    static func textImage(_ args: FilterArguments, filter: String, color: Color) throws -> Image {
        guard case let .string(text)? = args.values["text"], case let .string(font)? = args.values["fontName"] else { preconditionFailure() }
        guard !text.isEmpty else { return .empty }
        guard text.utf8.count <= 1 << 20, !text.utf8.contains(0) else {
            throw LumenError.invalidValue(filter: filter, key: "text", reason: "longer than 1 MB or holds a NUL character")
        }
        let scale = args.number("scaleFactor")
        let glyphs = try TextRaster(text: text, font: font, pixelSize: args.number("fontSize") * scale,
                                    padding: Int((args.number("padding") * scale).rounded()))
        return TextImage(raster: glyphs, color: color).apply()
    }
}

/// Coverage of rendered text, rows from the top.
struct TextRaster: Hashable, Sendable {
    let width: Int
    let height: Int
    let coverage: [UInt8]
    /// The family fontconfig chose.
    let family: String

    static let pixelLimit = 1 << 26

    init(text: String, font: String, pixelSize: Double, padding: Int) throws {
        var raster = CText_Raster()
        let status = CText_render(text, font, pixelSize, Int32(clamping: padding), Self.pixelLimit, &raster)
        defer { CText_free(&raster) }
        let message = withUnsafeBytes(of: raster.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard status == 0, let pixels = raster.coverage else {
            throw LumenError.invalidValue(filter: "textImageGenerator", key: status == 2 ? "fontName" : "text", reason: message)
        }
        width = Int(raster.width)
        height = Int(raster.height)
        coverage = Array(UnsafeBufferPointer(start: pixels, count: width * height))
        family = withUnsafeBytes(of: raster.family) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// Text coverage times a colour (premultiplied).
struct TextImage: ImageKernel {
    let raster: TextRaster
    let color: Color
    var name: String { "textImageGenerator" }
    var cachePolicy: CachePolicy { .always }

    func extent(inputs: [Rect]) -> Rect { Rect(x: 0, y: 0, width: Double(raster.width), height: Double(raster.height)) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, c = color.working
        destination.forEachRow { y, row, count in
            let fromTop = raster.height - 1 - y
            for i in 0..<count {
                let x = r.x + i
                guard fromTop >= 0, fromTop < raster.height, x >= 0, x < raster.width else { row[i] = .zero; continue }
                row[i] = c * (Float(raster.coverage[fromTop * raster.width + x]) / 255)
            }
        }
    }
}
