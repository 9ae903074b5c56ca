import LumenPlatform

/// Core Image's filter categories (`CICategory…`).
public enum FilterCategory: String, Sendable, CaseIterable {
    /// Images made from nothing: patterns, barcodes, text, noise.
    case generator = "CICategoryGenerator"
    /// Linear, radial and other colour ramps.
    case gradient = "CICategoryGradient"
    /// Porter–Duff compositing and the blend modes.
    case compositeOperation = "CICategoryCompositeOperation"
    /// Looks: pixellate, crystallize, edges, bloom, masks.
    case stylize = "CICategoryStylize"
    /// Exposure, white balance, curves, matrices, LUTs.
    case colorAdjustment = "CICategoryColorAdjustment"
    /// Creative colour: sepia, photo effects, false colour, posterize.
    case colorEffect = "CICategoryColorEffect"
    /// Gaussian, box, disc, motion, zoom and other blurs.
    case blur = "CICategoryBlur"
    /// Scale, crop, affine and perspective transforms.
    case geometryAdjustment = "CICategoryGeometryAdjustment"
    /// Tilings, kaleidoscopes and clamps.
    case tileEffect = "CICategoryTileEffect"
    /// Two images and a time, 0…1.
    case transition = "CICategoryTransition"
    /// Images reduced to a few pixels: averages, extremes, histograms.
    case reduction = "CICategoryReduction"
    /// Unsharp mask and luminance sharpening.
    case sharpen = "CICategorySharpen"
    /// Warps: bumps, twirls, holes, droste.
    case distortionEffect = "CICategoryDistortionEffect"
    /// Dot, line and hatched screens.
    case halftoneEffect = "CICategoryHalftoneEffect"

    /// The short name used by `lumen filters --category` (e.g. "blur").
    public var shortName: String {
        let trimmed = rawValue.dropFirst("CICategory".count)
        return trimmed.prefix(1).lowercased() + trimmed.dropFirst()
    }

    /// The category named `name`, as `lumen filters --category` takes it: the short name (`blur`) or Core Image's (`CICategoryBlur`), in any letter case; nil when no category has that name.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: {
            $0.shortName.lowercased() == name.lowercased() || $0.rawValue.lowercased() == name.lowercased()
        }) else { return nil }
        self = match
    }
}

/// What kind of value a parameter takes (Core Image's `CIAttributeType`).
public enum ParameterKind: String, Sendable {
    /// An image.
    case image
    /// A plain number.
    case scalar
    /// A length in pixels.
    case distance
    /// An angle in radians.
    case angle
    /// A whole number.
    case integer
    /// 0 or 1.
    case boolean
    /// A transition's progress, 0…1.
    case time
    /// A point `[x, y]` in pixels.
    case position
    /// A displacement `[dx, dy]` in pixels.
    case offset
    /// Any number of numbers.
    case vector
    /// `[x, y, width, height]` in pixels.
    case rectangle
    /// A colour.
    case color
    /// An affine transform `[a, b, c, d, tx, ty]`.
    case transform
    /// Text.
    case string
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
    /// What the value is (a number, a position, an image…), which decides how a chain writes it and how it is checked.
    public let kind: ParameterKind
    /// nil for image inputs, which are required.
    public let defaultValue: FilterValue?
    /// The smallest value accepted for a number (nil: no lower bound). Values below it are refused with an error naming the filter and key, not clamped.
    public let minimum: Double?
    /// The largest value accepted for a number (nil: no upper bound); larger values are refused, not clamped.
    public let maximum: Double?
    /// The value at which the filter leaves its input unchanged, if any.
    public let identity: FilterValue?
    /// One line: what the parameter does, shown by `lumen filters describe`.
    public let summary: String

    /// Core Image's key (`inputRadius`): `input` and the key capitalized, but for the keys
    /// Apple spells otherwise (`inputEV`, `inputNRNoiseLevel`, `inputGCR`, `inputTexture`).
    public var coreImageKey: String {
        Self.coreImageSpellings[key] ?? "input" + key.prefix(1).uppercased() + key.dropFirst()
    }
    /// Keys whose Core Image spelling is not `input` + the key capitalized.
    static let coreImageSpellings = ["ev": "inputEV", "nrNoiseLevel": "inputNRNoiseLevel", "nrSharpness": "inputNRSharpness",
                                     "grayComponentReplacement": "inputGCR", "underColorRemoval": "inputUCR",
                                     "textureImage": "inputTexture"]
    /// Whether the filter has no default for this parameter (its image inputs), so a value must be given.
    public var isRequired: Bool { defaultValue == nil }

    /// A parameter with its key, kind, default, accepted range, the value that leaves the input unchanged and a one-line summary.
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
    /// The image underneath, required (Core Image's `inputBackgroundImage`).
    public static let backgroundImage = ParameterDescriptor("backgroundImage", .image, "The image underneath (Core Image's background).")
    /// A background that defaults to nothing (an empty, transparent image).
    public static let optionalBackgroundImage = ParameterDescriptor("backgroundImage", .image, default: .image(Image.empty),
                                                                    "The image underneath; nothing (transparent) by default.")
    /// A transition's target image, required.
    public static let targetImage = ParameterDescriptor("targetImage", .image, "The image the transition ends on.")
    /// A transition's progress, 0 (the source) … 1 (the target).
    public static let time = ParameterDescriptor("time", .time, default: .number(0), min: 0, max: 1, identity: .number(0),
                                                 "Progress of the transition, 0 (source) … 1 (target).")

    /// A number parameter with its default, optional range and identity value.
    public static func number(_ key: String, _ kind: ParameterKind = .scalar, default value: Double,
                              min: Double? = nil, max: Double? = nil, identity: Double? = nil, _ summary: String) -> ParameterDescriptor {
        ParameterDescriptor(key, kind, default: .number(value), min: min, max: max, identity: identity.map(FilterValue.number), summary)
    }

    /// A position parameter (`[x, y]`, in pixels) with its default.
    public static func point(_ key: String, default value: [Double], _ summary: String) -> ParameterDescriptor {
        ParameterDescriptor(key, .position, default: .vector(value), summary)
    }

    /// A colour parameter with its default.
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
    /// The Core Image category the filter is listed under.
    public let category: FilterCategory
    /// One line: what the filter does.
    public let summary: String
    /// The formula and units, where the summary is not enough.
    public let details: String
    /// The parameters in Core Image's order, images first.
    public let parameters: [ParameterDescriptor]
    let build: @Sendable (FilterArguments) throws -> Image

    /// Declares a filter. `build` receives validated values (every key present, defaults filled in, ranges checked) and returns the filter's output image, usually a node over a kernel.
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

    /// The parameter with this key in any accepted spelling (`radius`, `inputRadius`, `mask` for `maskImage`), or nil.
    public func parameter(_ key: String) -> ParameterDescriptor? {
        canonicalKey(key).flatMap { k in parameters.first { $0.key == k } }
    }

    /// Maps `inputRadius`, `radius`, `mask`, `inputMaskImage`… to the declared key.
    func canonicalKey(_ key: String) -> String? {
        if let spelled = parameters.first(where: { $0.coreImageKey == key }) { return spelled.key }
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

    /// The image for `key`; throws when it is missing.
    public func image(_ key: String) throws -> Image {
        guard case let .image(v)? = values[key] else { throw LumenError.missingInput(filter: filter, key: key) }
        return v
    }

    /// The number for `key` (declared as a number kind, so present and finite).
    public func number(_ key: String) -> Double {
        if case let .number(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a number")
    }

    /// The number for `key` as `Float`, for kernels that compute in single precision.
    public func float(_ key: String) -> Float { Float(number(key)) }

    /// The components of the vector for `key`.
    public func vector(_ key: String) -> [Double] {
        if case let .vector(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a vector")
    }

    /// The position for `key`.
    public func point(_ key: String) -> Point {
        let v = vector(key)
        return Point(x: v[0], y: v[1])
    }

    /// The rectangle for `key` (`[x, y, width, height]`).
    public func rect(_ key: String) -> Rect {
        let v = vector(key)
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// The colour for `key`.
    public func color(_ key: String) -> Color {
        if case let .color(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a color")
    }

    /// The bytes for `key` (a string value arrives as its UTF-8 bytes).
    public func data(_ key: String) -> Data {
        if case let .data(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not data")
    }

    /// The affine transform for `key`.
    public func transform(_ key: String) -> AffineTransform {
        if case let .transform(v)? = values[key] { return v }
        preconditionFailure("\(filter).\(key) is not a transform")
    }
}
