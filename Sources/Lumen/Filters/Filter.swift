/// Core Image's `CIFilter`: a named filter whose inputs are set by key, with its output
/// built on demand. Mutable and not thread-safe (like CIFilter); the images it makes are.
public final class Filter {
    /// The declaration: name, category, parameters with their defaults and ranges.
    public let descriptor: FilterDescriptor
    private var values: [String: FilterValue] = [:]

    /// A filter by lowerCamel or Core Image name (`gaussianBlur` or `CIGaussianBlur`).
    public convenience init(name: String) throws {
        guard let descriptor = FilterRegistry.descriptor(named: name) else {
            throw LumenError.unknownFilter(name: name, suggestions: FilterRegistry.suggestions(for: name))
        }
        self.init(descriptor: descriptor)
    }

    /// The filter a declaration describes (a registry entry, or one of your own).
    public init(descriptor: FilterDescriptor) {
        self.descriptor = descriptor
        setDefaults()
    }

    /// The lowerCamel name (`gaussianBlur`).
    public var name: String { descriptor.name }

    /// Core Image's input keys (`inputImage`, `inputRadius`…).
    public var inputKeys: [String] { descriptor.parameters.map(\.coreImageKey) }

    /// Puts every input back to its default (images become unset).
    public func setDefaults() {
        values = [:]
        pendingErrors = [:]
        for parameter in descriptor.parameters { values[parameter.key] = parameter.defaultValue }
    }

    /// Sets an input like key-value coding; an unconvertible value is remembered and
    /// reported by `output()` until the key is set again (or `setDefaults()`).
    public func setValue(_ value: Any?, forKey key: String) {
        let canonical = descriptor.canonicalKey(key) ?? key
        pendingErrors[canonical] = nil
        guard let value else { values[canonical] = descriptor.parameter(canonical)?.defaultValue; return }
        guard let converted = FilterValue(value) else {
            pendingErrors[canonical] = .invalidValue(filter: name, key: key, reason: "unsupported value type \(type(of: value))")
            return
        }
        values[canonical] = converted
    }

    /// Values `setValue` could not convert, by key, reported by `output()`.
    private var pendingErrors: [String: LumenError] = [:]

    /// Sets an input, checking key, type and range at once.
    public func set(_ value: FilterValue, forKey key: String) throws {
        guard let parameter = descriptor.parameter(key) else {
            throw LumenError.unknownKey(filter: name, key: key, suggestions: NameMatcher.nearest(to: key, in: descriptor.parameters.map(\.key)))
        }
        values[parameter.key] = try parameter.validate(value, filter: name)
    }

    /// The value set for `key` (any accepted spelling), or the default; nil for an unknown key or an image not set yet.
    public func value(forKey key: String) -> FilterValue? {
        descriptor.canonicalKey(key).flatMap { values[$0] }
    }

    /// The output image, or nil when a required input is missing or a value is invalid.
    public var outputImage: Image? { try? output() }

    /// The output image; throws what is wrong with the inputs.
    public func output() throws -> Image {
        if let error = pendingErrors.sorted(by: { $0.key < $1.key }).first?.value { throw error }
        return try descriptor.apply(values)
    }

    /// Names of the filters in `category` (all filters for nil), as Core Image names.
    public static func names(inCategory category: FilterCategory?) -> [String] {
        FilterRegistry.all.filter { category == nil || $0.category == category }.compactMap(\.coreImageName)
    }

    /// The declaration of the filter named `name` (lowerCamel, Core Image or factory name), or nil.
    public static func descriptor(named name: String) -> FilterDescriptor? { FilterRegistry.descriptor(named: name) }
}

extension Image {
    /// Applies a filter by name with Core Image-style parameters; `inputImage` is self.
    public func applyingFilter(_ name: String, parameters: [String: Any] = [:]) throws -> Image {
        let filter = try Filter(name: name)
        try filter.set(.image(self), forKey: "image")
        for (key, value) in parameters {
            guard let converted = FilterValue(value) else {
                throw LumenError.invalidValue(filter: filter.name, key: key, reason: "unsupported value type \(type(of: value))")
            }
            try filter.set(converted, forKey: key)
        }
        return try filter.output()
    }
}
