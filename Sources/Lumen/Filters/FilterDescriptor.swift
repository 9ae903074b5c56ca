import Foundation

/// Core Image's filter categories (`CICategory…`).
public enum FilterCategory: String, Sendable, CaseIterable {
    case generator = "CICategoryGenerator"
    case gradient = "CICategoryGradient"
    case compositeOperation = "CICategoryCompositeOperation"
    case stylize = "CICategoryStylize"
    case colorAdjustment = "CICategoryColorAdjustment"
    case colorEffect = "CICategoryColorEffect"
    case blur = "CICategoryBlur"
    case geometryAdjustment = "CICategoryGeometryAdjustment"
    case tileEffect = "CICategoryTileEffect"
    case transition = "CICategoryTransition"
    case reduction = "CICategoryReduction"
    case sharpen = "CICategorySharpen"
    case distortionEffect = "CICategoryDistortionEffect"
    case halftoneEffect = "CICategoryHalftoneEffect"

    /// The short name used by `lumen filters --category` (e.g. "blur").
    public var shortName: String {
        let trimmed = rawValue.dropFirst("CICategory".count)
        return trimmed.prefix(1).lowercased() + trimmed.dropFirst()
    }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: {
            $0.shortName.lowercased() == name.lowercased() || $0.rawValue.lowercased() == name.lowercased()
        }) else { return nil }
        self = match
    }
}

/// What kind of value a parameter takes (Core Image's `CIAttributeType`).
public enum ParameterKind: String, Sendable {
    case image, scalar, distance, angle, integer, boolean, time
    case position, offset, vector, rectangle, color, transform, string
    /// Bytes (`NSData` in Core Image); a string is taken as its UTF-8 bytes.
    case data

    /// Components a vector-like kind needs (nil for any count).
    var vectorLength: Int? {
        switch self {
        case .position, .offset: return 2
        case .rectangle: return 4
        default: return nil
        }
    }
}

/// One parameter of a filter: its key, kind, default, range and a one-line doc.
public struct ParameterDescriptor: Sendable {
    /// The key without the `input` prefix, lowerCamel (`radius`, `backgroundImage`).
    public let key: String
    public let kind: ParameterKind
    /// nil for image inputs, which are required.
    public let defaultValue: FilterValue?
    public let minimum: Double?
    public let maximum: Double?
    /// The value at which the filter leaves its input unchanged, if any.
    public let identity: FilterValue?
    public let summary: String

    /// Core Image's key (`inputRadius`).
    public var coreImageKey: String { key == "ev" ? "inputEV" : "input" + key.prefix(1).uppercased() + key.dropFirst() }
    public var isRequired: Bool { defaultValue == nil }

    public init(_ key: String, _ kind: ParameterKind, default defaultValue: FilterValue? = nil,
                min minimum: Double? = nil, max maximum: Double? = nil, identity: FilterValue? = nil,
                _ summary: String) {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.identity = identity
        self.summary = summary
    }

    /// The primary image input.
    public static let inputImage = ParameterDescriptor("image", .image, "The image to process.")
    public static let backgroundImage = ParameterDescriptor("backgroundImage", .image, "The image underneath (Core Image's background).")
    /// A background that defaults to nothing (an empty, transparent image).
    public static let optionalBackgroundImage = ParameterDescriptor("backgroundImage", .image, default: .image(Image.empty),
                                                                    "The image underneath; nothing (transparent) by default.")
    public static let targetImage = ParameterDescriptor("targetImage", .image, "The image the transition ends on.")
    public static let time = ParameterDescriptor("time", .time, default: .number(0), min: 0, max: 1, identity: .number(0),
                                                 "Progress of the transition, 0 (source) … 1 (target).")

    public static func number(_ key: String, _ kind: ParameterKind = .scalar, default value: Double,
                              min: Double? = nil, max: Double? = nil, identity: Double? = nil, _ summary: String) -> ParameterDescriptor {
        ParameterDescriptor(key, kind, default: .number(value), min: min, max: max, identity: identity.map(FilterValue.number), summary)
    }

    public static func point(_ key: String, default value: [Double], _ summary: String) -> ParameterDescriptor {
        ParameterDescriptor(key, .position, default: .vector(value), summary)
    }

    public static func color(_ key: String, default value: Color, _ summary: String) -> ParameterDescriptor {
        ParameterDescriptor(key, .color, default: .color(value), summary)
    }
}

/// The single declaration of a filter: names, category, typed parameters with defaults
/// and ranges, documentation, and how it builds its graph. It drives the library API,
/// the chain parser, `lumen filters` and the docs.
public struct FilterDescriptor: Sendable {
    /// lowerCamel name used by chains and the CLI (`gaussianBlur`).
    public let name: String
    /// Core Image's name (`CIGaussianBlur`); nil for Lumen's own filters that Core Image
    /// offers another way (`orientation` is `CIImage.oriented(_:)` there, not a filter).
    public let coreImageName: String?
    public let category: FilterCategory
    /// One line: what the filter does.
    public let summary: String
    /// The formula and units, where the summary is not enough.
    public let details: String
    public let parameters: [ParameterDescriptor]
    let build: @Sendable (FilterArguments) throws -> Image

    public init(name: String, coreImageName: String?, category: FilterCategory, summary: String,
                details: String = "", parameters: [ParameterDescriptor],
                build: @escaping @Sendable (FilterArguments) throws -> Image) {
        self.name = name
        self.coreImageName = coreImageName
        self.category = category
        self.summary = summary
        self.details = details
        self.parameters = parameters
        self.build = build
    }

    /// The name of Core Image's typed factory (`CIFilter.qrCodeGenerator()`): the Core
    /// Image name without `CI` (and `Filter`), its leading acronym lower-cased, as Apple
    /// spells them (`pdf417BarcodeGenerator`, `sRGBToneCurveToLinear`). Accepted
    /// wherever a filter name is.
    public var factoryName: String? {
        guard let coreImageName else { return nil }
        var base = Substring(coreImageName.dropFirst(2))
        if base.hasSuffix("Filter") { base = base.dropLast(6) }
        if base.hasPrefix("SRGB") { return "s" + base.dropFirst() }
        let chars = Array(base)
        var run = 0  // leading capitals and digits
        while run < chars.count, chars[run].isUppercase || chars[run].isNumber { run += 1 }
        // In "QRCode" the C starts the next word; in "PDF417Barcode" the digits end the acronym.
        if run > 1, run < chars.count, chars[run].isLowercase, chars[run - 1].isUppercase { run -= 1 }
        return String(chars[..<max(run, 1)]).lowercased() + String(chars[max(run, 1)...])
    }

    public func parameter(_ key: String) -> ParameterDescriptor? {
        canonicalKey(key).flatMap { k in parameters.first { $0.key == k } }
    }

    /// Maps `inputRadius`, `radius`, `mask`, `inputMaskImage`… to the declared key.
    func canonicalKey(_ key: String) -> String? {
        var k = key
        if k.hasPrefix("input"), k.count > 5 { k = k.dropFirst(5).prefix(1).lowercased() + k.dropFirst(6) }
        if parameters.contains(where: { $0.key == k }) { return k }
        if let alias = Self.keyAliases[k], parameters.contains(where: { $0.key == alias }) { return alias }
        return nil
    }

    /// Short and Core Image spellings of keys (`mask` for `maskImage`, `inputEV` for `ev`).
    private static let keyAliases = ["mask": "maskImage", "background": "backgroundImage", "target": "targetImage",
                                     "maskImage": "mask", "eV": "ev", "lut": "cubeData"]

    /// Validates `values` (any accepted key spelling), fills defaults and builds the output.
    public func apply(_ values: [String: FilterValue]) throws -> Image {
        var resolved: [String: FilterValue] = [:]
        for (key, value) in values {
            guard let canonical = canonicalKey(key), let parameter = parameters.first(where: { $0.key == canonical }) else {
                throw LumenError.unknownKey(filter: name, key: key,
                                            suggestions: NameMatcher.nearest(to: key, in: parameters.map(\.key)))
            }
            resolved[canonical] = try parameter.validate(value, filter: name)
        }
        for parameter in parameters where resolved[parameter.key] == nil {
            guard let value = parameter.defaultValue else { throw LumenError.missingInput(filter: name, key: parameter.key) }
            resolved[parameter.key] = value
        }
        return try build(FilterArguments(filter: name, values: resolved))
    }
}

extension ParameterDescriptor {
    /// Checks type, finiteness and range; returns the value in its canonical form.
    func validate(_ value: FilterValue, filter: String) throws -> FilterValue {
        func fail(_ reason: String) -> LumenError { .invalidValue(filter: filter, key: key, reason: reason) }
        switch (kind, value) {
        case (.image, .image), (.string, .string), (.color, .color), (.transform, .transform), (.data, .data):
            return value
        case (.data, .string(let s)):
            return .data(Data(s.utf8))
        case (.color, .vector(let v)) where v.count == 3 || v.count == 4:
            return .color(Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1))
        case (.transform, .vector(let v)) where v.count == 6:
            return .transform(AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
        case (.position, .vector(let v)), (.offset, .vector(let v)), (.rectangle, .vector(let v)), (.vector, .vector(let v)):
            if let n = kind.vectorLength, v.count != n { throw fail("expected \(n) numbers, got \(v.count)") }
            guard v.allSatisfy(\.isFinite) else { throw fail("must be finite, got \(value)") }
            return value
        case (.scalar, .number(let v)), (.distance, .number(let v)), (.angle, .number(let v)), (.integer, .number(let v)),
             (.boolean, .number(let v)), (.time, .number(let v)):
            guard v.isFinite else { throw fail("must be a finite number, got \(v)") }
            if let minimum, v < minimum { throw fail("\(format(v)) is below the minimum \(format(minimum))") }
            if let maximum, v > maximum { throw fail("\(format(v)) is above the maximum \(format(maximum))") }
            return value
        default:
            throw fail("expected \(kind.rawValue), got \(value)")
        }
    }
}

/// Validated values handed to a filter's build function, with typed accessors.
public struct FilterArguments {
    let filter: String
    let values: [String: FilterValue]

    public func image(_ key: String) throws -> Image {
        guard case let .image(v)? = values[key] else { throw LumenError.missingInput(filter: filter, key: key) }
        return v
    }

    public func number(_ key: String) -> Double {
        if case let .number(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a number")
    }

    public func float(_ key: String) -> Float { Float(number(key)) }

    public func vector(_ key: String) -> [Double] {
        if case let .vector(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a vector")
    }

    public func point(_ key: String) -> Point {
        let v = vector(key)
        return Point(x: v[0], y: v[1])
    }

    public func rect(_ key: String) -> Rect {
        let v = vector(key)
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    public func color(_ key: String) -> Color {
        if case let .color(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a color")
    }

    public func data(_ key: String) -> Data {
        if case let .data(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not data")
    }

    public func transform(_ key: String) -> AffineTransform {
        if case let .transform(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a transform")
    }
}
