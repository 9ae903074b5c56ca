import Foundation
import Lumen

/// What a URL asks for: `/{signature}/{options…}/plain/{source}[@{format}]`, or for a POST
/// `/{signature}/{options…}/upload` with the image as the body. Options are `/`-separated
/// `name:arguments` items, imgproxy's spelling where it has one:
///
/// | option | meaning |
/// |---|---|
/// | `rs:fit:W:H`, `rs:fill:W:H` (`resize`) | fit inside W×H, or cover it and crop; 0 leaves a side free |
/// | `w:W`, `h:H` (`width`, `height`) | the box's sides alone |
/// | `g:ce`, `g:sm` (`gravity`) | what a `fill` keeps: the centre, or where the picture is busiest (attention) |
/// | `g:no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`, `sowe` | an edge or corner (north, south, east, west) |
/// | `g:fp:X:Y` | a focus point (X from the left, Y from the top, 0…1) kept in the middle as far as the edges allow |
/// | `el:1` (`enlarge`) | allow enlarging (default: only shrink) |
/// | `q:Q` (`quality`) | 1…100 |
/// | `f:F` (`format`), or `@F` after the source | jpg, png, webp, avif, heic, tiff; else negotiated from Accept |
/// | `r:NAME` (`recipe`) | the chain NAME.chain from the recipes folder, before the resize |
/// | `p:NAME:VALUE` (`param`) | a recipe parameter, as `lumen apply --set NAME=VALUE` |
/// | `chain:BASE64URL` | a chain written in the URL, when the service allows it (it may read no file) |
struct ProcessingRequest: Equatable {
    enum Fit: String { case fit, fill }
    var fit: Fit = .fit
    var width = 0, height = 0
    var attention = false
    /// Where a centre crop is centred (`Thumbnail.focus`): fractions from the left and the top.
    var focus = Point(x: 0.5, y: 0.5)
    var enlarge = false
    var quality: Int?
    var format: ImageFileFormat?
    var recipe: String?
    var parameters: [String: String] = [:]
    var inlineChain: String?
    /// The source path under the roots (percent-decoded); nil for an upload.
    var source: String?

    /// imgproxy's compass gravities as focus points (fractions from the left and the top).
    static let compass: [String: Point] = [
        "ce": .init(x: 0.5, y: 0.5), "no": .init(x: 0.5, y: 0), "so": .init(x: 0.5, y: 1), "ea": .init(x: 1, y: 0.5), "we": .init(x: 0, y: 0.5),
        "noea": .init(x: 1, y: 0), "nowe": .init(x: 0, y: 0), "soea": .init(x: 1, y: 1), "sowe": .init(x: 0, y: 1),
    ]

    /// Parses `path`, the URL path after the signature segment (starting with `/`), as sent.
    init(path: Substring, upload: Bool) throws {
        func bad(_ message: String) -> ServiceError { .request(status: 400, message: message) }
        var rest = path.dropFirst()  // the leading "/"
        var options: [Substring] = []
        if upload {
            guard rest == "upload" || rest.hasSuffix("/upload") else { throw bad("an upload's URL ends with /upload") }
            options = rest.split(separator: "/", omittingEmptySubsequences: true).dropLast().map { $0 }
            rest = ""
        } else {
            guard let plain = rest.range(of: "plain/") , plain.lowerBound == rest.startIndex || rest[rest.index(before: plain.lowerBound)] == "/" else {
                throw bad("the URL needs /plain/ before the source: /SIGNATURE/OPTIONS/plain/SOURCE")
            }
            options = rest[..<plain.lowerBound].split(separator: "/", omittingEmptySubsequences: true)
            rest = rest[plain.upperBound...]
        }
        for option in options {
            let parts = option.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let arguments = Array(parts.dropFirst())
            func number(_ text: String, _ range: ClosedRange<Int>) throws -> Int {
                guard let n = Int(text), range.contains(n) else { throw bad("\(parts[0]): '\(text)' is not a whole number in \(range)") }
                return n
            }
            switch parts[0] {
            case "rs", "resize":
                guard arguments.count == 3, let fit = Fit(rawValue: arguments[0]) else { throw bad("resize is rs:fit|fill:WIDTH:HEIGHT, got '\(option)'") }
                self.fit = fit
                width = try number(arguments[1], 0...16384)
                height = try number(arguments[2], 0...16384)
            case "w", "width": width = try number(arguments.first ?? "", 0...16384)
            case "h", "height": height = try number(arguments.first ?? "", 0...16384)
            case "g", "gravity":
                let kind = arguments.first ?? ""
                if kind == "sm", arguments.count == 1 {
                    attention = true
                } else if let point = Self.compass[kind], arguments.count == 1 {
                    attention = false
                    focus = point
                } else if kind == "fp", arguments.count == 3, let x = Double(arguments[1]), let y = Double(arguments[2]),
                          (0...1).contains(x), (0...1).contains(y) {
                    attention = false
                    focus = Point(x: x, y: y)
                } else {
                    throw bad("gravity is g:ce, g:sm (attention), g:no|so|ea|we|noea|nowe|soea|sowe, or g:fp:X:Y with X and Y in 0…1 (no offsets); got '\(option)'")
                }
            case "el", "enlarge": enlarge = try number(arguments.first ?? "", 0...1) == 1
            case "q", "quality": quality = try number(arguments.first ?? "", 1...100)
            case "f", "format", "ext": format = try Self.format(arguments.first ?? "")
            case "r", "recipe":
                guard let name = arguments.first, Self.isName(name) else { throw bad("recipe names are letters, digits, '-' and '_': '\(option)'") }
                recipe = name
            case "p", "param":
                guard arguments.count >= 2, Self.isName(arguments[0]) else { throw bad("a parameter is p:NAME:VALUE, got '\(option)'") }
                guard let value = arguments.dropFirst().joined(separator: ":").removingPercentEncoding else { throw bad("bad percent-encoding in '\(option)'") }
                parameters[arguments[0]] = value
            case "chain":
                guard let bytes = Base64URL.decode(Substring(arguments.first ?? "")), let text = String(bytes: bytes, encoding: .utf8) else {
                    throw bad("chain: takes the chain's text in URL-safe Base64")
                }
                inlineChain = text
            default:
                throw bad("unknown option '\(parts[0])' (rs, w, h, g, el, q, f, r, p, chain)")
            }
        }
        if fit == .fill && (width == 0 || height == 0) { throw bad("rs:fill covers a box: give both sides") }
        guard !upload else { return }
        // `@format` after the source, as imgproxy writes it.
        if let at = rest.lastIndex(of: "@") {
            format = try Self.format(String(rest[rest.index(after: at)...]))
            rest = rest[..<at]
        }
        // Encoded slashes would hide a path's structure from the checks: refused.
        guard !rest.isEmpty else { throw bad("no source after /plain/") }
        guard let decoded = rest.removingPercentEncoding else { throw bad("bad percent-encoding in the source") }
        guard OriginFetcher.isOrigin(decoded)
              || (rest.range(of: "%2f", options: .caseInsensitive) == nil && rest.range(of: "%5c", options: .caseInsensitive) == nil) else {
            throw bad("encoded slashes are not allowed in a source path")
        }
        source = decoded
    }

    static func format(_ name: String) throws -> ImageFileFormat {
        guard let format = ImageFileFormat(name: name), format.isWritable else {
            throw ServiceError.request(status: 400, message: "unknown output format '\(name)' (jpg, png, webp, avif, heic, tiff)")
        }
        return format
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
    }

    /// Whether the request leaves the output format to the Accept header.
    var negotiatesFormat: Bool { format == nil }
}
