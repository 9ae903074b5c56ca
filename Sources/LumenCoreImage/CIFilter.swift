import Foundation
import Lumen

/// Core Image's filter: made by name, inputs set by key-value coding, output built on
/// demand. Every filter of Lumen's registry that has a Core Image name is available by
/// that name (`CIGaussianBlur`) and through its typed factory (`CIFilter.gaussianBlur()`).
///
/// Where Linux must differ: Core Image raises an Objective-C exception for an unknown key
/// or a value of the wrong type; Swift on Linux has none, so the filter remembers the
/// problem, prints it on standard error, and its `outputImage` is nil until the key is set
/// again or `setDefaults()` is called.
open class CIFilter: NSObject, @unchecked Sendable {
    /// A built-in's Lumen filter and declaration; nil for a subclass (a custom filter).
    let builtin: (filter: Filter, descriptor: FilterDescriptor)?

    /// A built-in filter by Core Image name, or a filter registered with
    /// `registerName(_:constructor:classAttributes:)`; nil when there is no such filter.
    public convenience init?(name: String) {
        if let constructor = CIFilter.registered.withLock({ $0[name] }) {
            guard let made = constructor.filter(withName: name) else { return nil }
            self.init(copying: made)
            return
        }
        guard let descriptor = FilterRegistry.descriptor(named: name), descriptor.coreImageName != nil else { return nil }
        self.init(descriptor: descriptor)
    }

    /// For subclasses (custom filters): override `outputImage`, and `setValue(_:forKey:)`
    /// and `value(forKey:)` for inputs set by key (Swift on Linux has no key-value coding
    /// of properties).
    public override init() {
        builtin = nil
        super.init()
    }

    private var forwarded: CIFilter?
    /// A registered filter made by its constructor, behind `CIFilter(name:)`'s failable initialiser.
    private init(copying filter: CIFilter) {
        builtin = filter.builtin
        forwarded = filter
        super.init()
    }

    /// The filter with `parameters` set (by key-value coding).
    public convenience init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    /// Made by the typed factories.
    init(descriptor: FilterDescriptor) {
        builtin = (Filter(descriptor: descriptor), descriptor)
        super.init()
    }

    /// The Core Image name (`CIGaussianBlur`); a custom filter's class name.
    open var name: String {
        if let forwarded { return forwarded.name }
        guard let descriptor = builtin?.descriptor else { return String(describing: type(of: self)) }
        return descriptor.coreImageName ?? descriptor.name
    }

    /// The output image, or nil when an input is missing or invalid.
    open var outputImage: CIImage? {
        if let forwarded { return forwarded.outputImage }
        guard let filter = builtin?.filter else { return nil }
        do {
            let image = try filter.output()
            return CIImage(lumenImage: image, colorSpace: inputImageValue?.colorSpace)
        } catch {
            CIFilter.report("\(name): \(error)")
            return nil
        }
    }

    private var inputImageValue: CIImage? { images["image"] }
    /// The CIImage objects set, by Lumen key (their Lumen images are in `filter`).
    private var images: [String: CIImage] = [:]

    /// The Core Image keys of the filter's inputs (`inputImage`, `inputRadius`…), in declaration order.
    open var inputKeys: [String] { forwarded?.inputKeys ?? builtin?.descriptor.parameters.map(\.coreImageKey) ?? [] }
    /// `[outputImage]`.
    open var outputKeys: [String] { [kCIOutputImageKey] }

    /// Puts every input back to its default; images are unset.
    open func setDefaults() {
        forwarded?.setDefaults()
        builtin?.filter.setDefaults()
        images = [:]
    }

    /// Sets an input by its Core Image key (`inputRadius`) or short key (`radius`). Values
    /// are converted as Core Image converts them: numbers of any type, NSNumber, CIVector
    /// (points, rectangles, coefficients), CIColor, CIImage, CGAffineTransform (or a
    /// CIVector/NSValue of one), CGPoint, CGRect, Data and String. Nil restores the default.
    open func setValue(_ value: Any?, forKey key: String) {
        if let forwarded { forwarded.setValue(value, forKey: key); return }
        guard let (filter, descriptor) = builtin, let p = descriptor.parameter(key) else {
            CIFilter.report("\(name): no input key '\(key)' (Core Image raises NSUnknownKeyException); inputs are \(inputKeys.joined(separator: ", "))")
            builtin?.filter.setValue(0, forKey: key)  // remembered: the output is nil until it is set right
            return
        }
        guard let value else { filter.setValue(nil, forKey: p.key); images[p.key] = nil; return }
        if let image = value as? CIImage { images[p.key] = image }
        filter.setValue(Self.lumenValue(value, for: p) ?? value, forKey: p.key)
    }

    /// Key-value coding by key path: a filter's inputs are plain keys, so this is
    /// `setValue(_:forKey:)` (Swift on Linux has no key-value coding in NSObject).
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, forKey: keyPath) }
    /// As `value(forKey:)` for a key path of one key.
    open func value(forKeyPath keyPath: String) -> Any? { value(forKey: keyPath) }

    /// The input's value as Core Image returns it (NSNumber, CIVector, CIColor, CIImage,
    /// CGAffineTransform, Data, String), or the output image for `outputImage`.
    open func value(forKey key: String) -> Any? {
        if key == kCIOutputImageKey { return outputImage }
        if let forwarded { return forwarded.value(forKey: key) }
        guard let (filter, descriptor) = builtin, let p = descriptor.parameter(key) else { return nil }
        if p.kind == .image { return images[p.key] }
        return filter.value(forKey: p.key).map(Self.coreImageValue)
    }

    /// Core Image's attribute dictionary: the filter's name, display name and categories,
    /// and per input its class, type, default, range and identity.
    open var attributes: [String: Any] {
        if let forwarded { return forwarded.attributes }
        guard let descriptor = builtin?.descriptor else {
            return [kCIAttributeFilterName: name, kCIAttributeFilterDisplayName: Self.displayName(name),
                    kCIAttributeFilterCategories: CIFilter.registeredAttributes.withLock { $0[name] }?[kCIAttributeFilterCategories] ?? []]
        }
        var result: [String: Any] = [
            kCIAttributeFilterName: name,
            kCIAttributeFilterDisplayName: Self.displayName(name),
            kCIAttributeFilterCategories: [descriptor.category.rawValue, kCICategoryStillImage, kCICategoryVideo, kCICategoryBuiltIn],
            kCIAttributeDescription: descriptor.summary,
        ]
        for p in descriptor.parameters {
            var entry: [String: Any] = [kCIAttributeClass: Self.attributeClass(p.kind), kCIAttributeDisplayName: Self.displayName(p.key),
                                        kCIAttributeDescription: p.summary]
            if let type = Self.attributeType(p.kind) { entry[kCIAttributeType] = type }
            if let v = p.defaultValue, p.kind != .image { entry[kCIAttributeDefault] = Self.coreImageValue(v) }
            if let v = p.identity { entry[kCIAttributeIdentity] = Self.coreImageValue(v) }
            if let v = p.minimum { entry[kCIAttributeMin] = NSNumber(value: v); entry[kCIAttributeSliderMin] = NSNumber(value: max(v, -1e4)) }
            if let v = p.maximum { entry[kCIAttributeMax] = NSNumber(value: v); entry[kCIAttributeSliderMax] = NSNumber(value: min(v, 1e4)) }
            result[p.coreImageKey] = entry
        }
        return result
    }

    /// Filters registered by name (Core Image's way to make a custom filter available to
    /// `CIFilter(name:)`), with the attributes given at registration.
    static let registered = Locked<[String: any CIFilterConstructor]>([:])
    static let registeredAttributes = Locked<[String: [String: Any]]>([:])

    /// Makes `CIFilter(name: name)` build a filter with `anObject`; `attributes` (categories, display name…) are what `filterNames(inCategories:)` and `attributes` report for it.
    open class func registerName(_ name: String, constructor anObject: any CIFilterConstructor, classAttributes attributes: [String: Any] = [:]) {
        registered.withLock { $0[name] = anObject }
        registeredAttributes.withLock { $0[name] = attributes }
    }

    /// Names of the built-in filters in a category (all for nil), as Core Image names.
    open class func filterNames(inCategory category: String?) -> [String] {
        filterNames(inCategories: category.map { [$0] })
    }

    /// Names of the filters in every one of `categories` (all for nil or empty).
    open class func filterNames(inCategories categories: [String]?) -> [String] {
        let builtins = FilterRegistry.all.compactMap { d -> String? in
            guard let ci = d.coreImageName else { return nil }
            let mine: Set<String> = [d.category.rawValue, kCICategoryStillImage, kCICategoryVideo, kCICategoryBuiltIn]
            return (categories ?? []).allSatisfy(mine.contains) ? ci : nil
        }
        let custom = registeredAttributes.withLock { $0 }.compactMap { name, attributes -> String? in
            let mine = Set(attributes[kCIAttributeFilterCategories] as? [String] ?? [])
            return (categories ?? []).allSatisfy(mine.contains) ? name : nil
        }
        return (builtins + custom).sorted()
    }

    /// The filter's name for people ("Gaussian Blur"), in English; nil for an unknown filter.
    open class func localizedName(forFilterName filterName: String) -> String? {
        FilterRegistry.descriptor(named: filterName)?.coreImageName.map(displayName)
    }
    /// The filter's one-line summary, in English.
    open class func localizedDescription(forFilterName filterName: String) -> String? {
        FilterRegistry.descriptor(named: filterName)?.summary
    }
    /// The category's name for people ("Color Adjustment").
    open class func localizedName(forCategory category: String) -> String {
        displayName(category.hasPrefix("CICategory") ? String(category.dropFirst(10)) : category)
    }

    // MARK: Conversions

    /// "CIGaussianBlur" → "Gaussian Blur", "inputRadius" → "Radius".
    static func displayName(_ name: String) -> String {
        var base = Substring(name)
        if base.hasPrefix("CI") { base = base.dropFirst(2) } else if base.hasPrefix("input") { base = base.dropFirst(5) }
        var words: [String] = [], word = ""
        let chars = Array(base)
        for (i, c) in chars.enumerated() {
            let startsWord = c.isUppercase && !word.isEmpty && (!(chars[i - 1].isUppercase) || (i + 1 < chars.count && chars[i + 1].isLowercase))
            if startsWord { words.append(word); word = "" }
            word.append(i == 0 ? Character(c.uppercased()) : c)
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ")
    }

    static func attributeClass(_ kind: ParameterKind) -> String {
        switch kind {
        case .image: return "CIImage"
        case .position, .offset, .vector, .rectangle: return "CIVector"
        case .color: return "CIColor"
        case .transform: return "NSAffineTransform"
        case .string: return "NSString"
        case .data: return "NSData"
        default: return "NSNumber"
        }
    }

    static func attributeType(_ kind: ParameterKind) -> String? {
        switch kind {
        case .scalar: return kCIAttributeTypeScalar
        case .distance: return kCIAttributeTypeDistance
        case .angle: return kCIAttributeTypeAngle
        case .integer: return kCIAttributeTypeInteger
        case .boolean: return kCIAttributeTypeBoolean
        case .time: return kCIAttributeTypeTime
        case .position: return kCIAttributeTypePosition
        case .offset: return kCIAttributeTypeOffset
        case .rectangle: return kCIAttributeTypeRectangle
        case .color: return kCIAttributeTypeColor
        case .image: return kCIAttributeTypeImage
        case .transform: return kCIAttributeTypeTransform
        case .vector, .string, .data: return nil
        }
    }

    /// A Core Image value as Lumen's (nil when it is not one of Core Image's types).
    static func lumenValue(_ value: Any, for p: ParameterDescriptor) -> FilterValue? {
        switch value {
        case let v as CIImage: return .image(v.lumenImage)
        case let v as CIVector: return p.kind == .transform ? .transform(v.cgAffineTransformValue.lumen) : .vector(v.doubles)
        case let v as CIColor: return .color(v.lumen)
        case let v as CGAffineTransform: return .transform(v.lumen)
        #if !canImport(CoreGraphics)
        case let v as NSValue where v.isAffineTransform: return .transform(v.cgAffineTransformValue.lumen)
        #endif
        case let v as CGPoint: return .vector([Double(v.x), Double(v.y)])
        case let v as CGRect: return .vector([Double(v.origin.x), Double(v.origin.y), Double(v.size.width), Double(v.size.height)])
        case let v as CGFloat: return .number(Double(v))
        case let v as Bool: return .number(v ? 1 : 0)
        case let v as NSNumber: return .number(v.doubleValue)
        case let v as NSString: return .string(v as String)
        case let v as NSData: return .data(v as Data)
        default: return nil
        }
    }

    /// A Lumen value as Core Image returns it.
    static func coreImageValue(_ value: FilterValue) -> Any {
        switch value {
        case let .number(v): return NSNumber(value: v)
        case let .vector(v): return CIVector(array: v.map { CGFloat($0) })
        case let .color(c): return CIColor(c)
        case let .transform(t): return CGAffineTransform(t)
        case let .image(i): return CIImage(lumenImage: i)
        case let .string(s): return s
        case let .data(d): return d
        }
    }

    /// Problems Core Image would raise as exceptions, on standard error.
    static func report(_ message: String) {
        FileHandle.standardError.write(Data("LumenCoreImage: \(message)\n".utf8))
    }
}

/// Makes registered filters by name (Core Image's `CIFilterConstructor`).
public protocol CIFilterConstructor: AnyObject {
    func filter(withName name: String) -> CIFilter?
}

/// A value behind a lock, for the registry of custom filters.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}
