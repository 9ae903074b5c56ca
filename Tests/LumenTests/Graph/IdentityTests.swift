import Foundation
import Testing
@testable import Lumen

/// Identities are derived from kernel values: a walk over the registry proves that
/// every parameter takes part in its filter's identity, and that equal recipes built
/// separately are equal.
@Suite struct IdentityTests {
    static let sample = FilterReferenceTests.sample
    static let other = FilterReferenceTests.other
    static let third = syntheticImage(width: 11, height: 7)

    /// A value of `parameter` different from `value`, inside its range.
    static func moved(_ value: FilterValue, of parameter: ParameterDescriptor) -> FilterValue? {
        // A cube's dimension is fixed by its table's size; ColorCubeTests change both together.
        if parameter.key == "cubeDimension" { return nil }
        switch value {
        case let .number(v):
            let step = parameter.kind == .integer || parameter.kind == .boolean ? 1.0 : max(0.25, abs(v) * 0.3)
            if parameter.maximum.map({ v + step <= $0 }) ?? true { return .number(v + step) }
            if parameter.minimum.map({ v - step >= $0 }) ?? true { return .number(v - step) }
            guard let lo = parameter.minimum, let hi = parameter.maximum, lo < hi else { return nil }
            return .number(v == lo ? (lo + hi) / 2 : lo)
        case let .vector(v):
            if parameter.kind == .rectangle, v.count == 4, v[2] < 1e300 { return .vector([v[0] + 1, v[1] + 2, v[2] + 3, v[3] + 4]) }
            if parameter.kind == .rectangle { return .vector([0, 0, 10, 7]) }
            return .vector(v.enumerated().map { $0.element + 0.1 * Double($0.offset + 1) })
        case let .color(c):
            return .color(Color(red: c.red > 0.5 ? c.red - 0.3 : c.red + 0.3, green: c.green, blue: c.blue, alpha: c.alpha))
        case let .transform(t):
            return .transform(t.concatenating(AffineTransform(rotationAngle: 0.2)))
        case let .image(image):
            return .image(image == third ? sample : third)
        case let .string(text):
            return parameter.key == "text" || parameter.key == "fontName" ? .string(text + "!") : nil
        case var .data(d):
            // A colour table keeps its size (the dimension depends on it): its first entry changes.
            guard parameter.key.hasSuffix("Data"), d.count >= 4 else { return .data(d + Data("!".utf8)) }
            withUnsafeBytes(of: Float(0.5)) { d.replaceSubrange(0..<4, with: $0) }
            return .data(d)
        }
    }

    /// Values away from the filter's identity (where a filter returns its input, every
    /// other parameter would rightly stop mattering), with both images in play.
    static func baseValues(_ d: FilterDescriptor) -> [String: FilterValue] {
        var values: [String: FilterValue] = [:]
        for p in d.parameters {
            if p.kind == .image { values[p.key] = .image(p.key == "image" ? sample : ["gradientImage", "paletteImage", "means", "shadingImage", "guideImage", "smallImage"].contains(p.key) ? other.cropped(to: FilterReferenceTests.box) : other); continue }
            guard let value = p.defaultValue else { continue }
            values[p.key] = p.identity == value ? moved(value, of: p) ?? value : value
        }
        if d.parameter("time") != nil { values["time"] = .number(0.4) }
        if d.parameter("center") != nil { values["center"] = .vector([9, 6]) }
        if d.parameter("extent") != nil { values["extent"] = .vector([0, 0, 19, 13]) }
        if d.parameter("message") != nil { values["message"] = .string("Lumen, image pipelines in Swift") }  // barcodes: empty draws nothing
        if d.parameter("text") != nil { values["text"] = .string("Lumen") }  // text: likewise
        if d.name == "crop" { values["rectangle"] = .vector([2, 1, 12, 9]) }
        values.merge(FilterReferenceTests.fittedToSample(d)) { _, b in b }
        if d.name == "toneMapHeadroom" { values["sourceHeadroom"] = .number(8) }  // at or below the target it is the identity
        if d.name == "toneCurve" { values["point2"] = .vector([0.5, 0.6]) }  // moving one point keeps x values distinct
        return values
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func everyParameterChangesTheIdentity(_ name: String) throws {
        let d = try #require(FilterRegistry.descriptor(named: name))
        let base = Self.baseValues(d)
        let a = try d.apply(base), b = try d.apply(base)
        #expect(a == b && a.identity.hashValue == b.identity.hashValue, "\(name): equal recipes built separately differ")
        for p in d.parameters {
            guard let value = base[p.key], let changed = Self.moved(value, of: p) else { continue }
            // A barcode's or a text's identity is its symbol or glyph coverage: options that
            // leave those as they are (a higher correction level the smallest symbol already
            // has; an unknown font that falls back like another) rightly keep it.
            // BarcodeTests.everyOptionShapesTheSymbol and TextTests check each option where it matters.
            let content = d.parameter("message") != nil ? "message" : d.parameter("text") != nil ? "text" : nil
            if d.category == .generator, let content, p.key != content { continue }
            // pixellate's cells have whole-pixel corners: a centre moved by a fraction of a
            // pixel gives the same cells, the same pixels, and rightly the same identity.
            if d.name == "pixellate", p.key == "center" { continue }
            var values = base
            values[p.key] = changed
            let c = try d.apply(values)
            #expect(c != a, "\(name): changing \(p.key) from \(value) to \(changed) leaves the identity unchanged")
        }
    }

    @Test func bicubicCoefficientsArePartOfTheIdentity() throws {
        let photo = Self.sample
        let a = try photo.applyingFilter("bicubicScale", parameters: ["scale": 0.5, "b": 0, "c": 0.75])
        let b = try photo.applyingFilter("bicubicScale", parameters: ["scale": 0.5, "b": 1, "c": 0])
        #expect(a != b)
        let context = RenderContext()
        #expect(try context.render(a, format: .rgbaFloat) != context.render(b, format: .rgbaFloat))
    }
}

/// The optional images of the ripple and page-curl transitions are used, not just accepted.
@Suite struct TransitionImageTests {
    static let source = Image(color: Color(red: 0.8, green: 0.2, blue: 0.2)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
    static let target = Image(color: Color(red: 0.1, green: 0.1, blue: 0.9)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))

    static func render(_ image: Image) throws -> Bitmap {
        try RenderContext(.init(threads: 1)).render(image, in: Rect(x: 0, y: 0, width: 40, height: 30), format: .rgbaFloat)
    }

    @Test func pageCurlShowsTheBacksideOnTheLiftedPage() throws {
        let green = Image(color: Color(red: 0, green: 1, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
        var values: [String: FilterValue] = ["image": .image(Self.source), "targetImage": .image(Self.target), "time": .number(0.5),
                                             "extent": .vector([0, 0, 40, 30]), "radius": .number(6)]
        let plain = try Self.render(FilterRegistry.descriptor(named: "pageCurlTransition")!.apply(values))
        values["backsideImage"] = .image(green)
        let backed = try Self.render(FilterRegistry.descriptor(named: "pageCurlTransition")!.apply(values))
        // Pixels on the lifted page: green dominates with a backside, red without.
        let changed = (0..<(40 * 30)).filter { backed.samples[4 * $0 + 1] > 0.2 && plain.samples[4 * $0 + 1] < 0.1 }
        #expect(changed.count > 20, "\(changed.count) pixels show the backside")
    }

    @Test func rippleIsLitByTheShadingImage() throws {
        let white = Image(color: .white).cropped(to: Rect(x: 0, y: 0, width: 16, height: 16))
        var values: [String: FilterValue] = ["image": .image(Self.source), "targetImage": .image(Self.target), "time": .number(0.5),
                                             "extent": .vector([0, 0, 40, 30]), "center": .vector([20, 15]), "width": .number(10),
                                             "scale": .number(2)]
        let plain = try Self.render(FilterRegistry.descriptor(named: "rippleTransition")!.apply(values))
        values["shadingImage"] = .image(white)
        let lit = try Self.render(FilterRegistry.descriptor(named: "rippleTransition")!.apply(values))
        // White light is 1: the ring is 1.5× brighter; everything else is unchanged.
        var brighter = 0
        for i in 0..<(40 * 30) {
            let a = plain.samples[4 * i], b = lit.samples[4 * i]
            if b != a { #expect(abs(b - 1.5 * a) < 1e-5); brighter += 1 }
        }
        #expect(brighter > 20)
    }
}

@Suite struct FilterObjectTests {
    @Test func aBadValueIsReportedUntilTheKeyIsSetAgain() throws {
        let filter = try Filter(name: "CIGaussianBlur")
        filter.setValue(FilterReferenceTests.sample, forKey: "inputImage")
        filter.setValue(Data([1, 2, 3]), forKey: "inputRadius")
        #expect(filter.outputImage == nil)
        #expect(throws: LumenError.self) { _ = try filter.output() }
        filter.setValue(3.0, forKey: "inputRadius")
        #expect(filter.outputImage == FilterReferenceTests.sample.applyingGaussianBlur(sigma: 3))
        filter.setValue(Data(), forKey: "radius")
        filter.setDefaults()
        filter.setValue(FilterReferenceTests.sample, forKey: "inputImage")
        #expect(filter.outputImage != nil)
    }
}

/// Extreme values never crash: every numeric key of every filter is fed values far out
/// of any sensible range; each either fails with a located error or renders.
@Suite struct ExtremeValueTests {
    static let extremes: [Double] = [0, -1, 1e308, -1e308, 1e9, -1e9, 1e12, .infinity, -.infinity, .nan]

    /// Colours and transforms made in Swift, where no chain validates them: non-finite
    /// components render as something (never a trap) and transforms are refused or empty.
    @Test func nonFiniteColoursAndTransformsNeverTrap() throws {
        let context = RenderContext(.init(threads: 2))
        let box = Rect(x: 0, y: 0, width: 8, height: 8)
        for v in Self.extremes {
            let colour = Image(color: Color(red: v, green: v, blue: 0.5, alpha: v)).cropped(to: box)
            // Each either works (the asked-for size) or fails as a LumenError: never a trap, never another error.
            func outcome(_ what: String, _ body: () throws -> Int) {
                do { #expect(try body() > 0, "\(what) with \(v): empty") } catch { #expect(error is LumenError, "\(what) with \(v): \(error)") }
            }
            for format in [Bitmap.Format.rgba8, .rgba16, .rgbaFloat] {
                outcome("render \(format)") { let b = try context.render(colour, format: format); return b.width == 8 && b.height == 8 ? 1 : 0 }
            }
            outcome("PNG") { try context.encode(colour, format: .png).count }
            outcome("JPEG") { try context.encode(colour, format: .jpeg).count }
            let turned = FilterReferenceTests.sample.transformed(by: AffineTransform(a: v, b: 0, c: 0, d: v, tx: v, ty: v))
            outcome("transformed") { try context.render(turned, in: box, format: .rgba8).width }
        }
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func extremeValuesFailCleanlyOrRender(_ name: String) throws {
        let d = try #require(FilterRegistry.descriptor(named: name))
        var base: [String: FilterValue] = [:]
        for p in d.parameters where p.kind == .image { base[p.key] = .image(p.key == "image" ? FilterReferenceTests.sample : FilterReferenceTests.other) }
        let context = RenderContext(.init(threads: 2))
        for p in d.parameters {
            for v in Self.extremes {
                let value: FilterValue
                switch p.kind {
                case .image, .string: continue
                case .color: value = .color(Color(red: v, green: 0.5, blue: v, alpha: v))
                case .position, .offset: value = .vector([v, v])
                case .rectangle: value = .vector([v, v, v, v])
                case .transform: value = .vector([v, 0, 0, v, v, v])
                case .vector: value = .vector([v, v, v, v])
                default: value = .number(v)
                }
                var values = base
                values[p.key] = value
                guard let image = try? d.apply(values) else { continue }  // refused with an error: fine
                _ = try? context.render(image, in: Rect(x: 0, y: 0, width: 16, height: 16), format: .rgbaFloat)
            }
        }
    }
}
