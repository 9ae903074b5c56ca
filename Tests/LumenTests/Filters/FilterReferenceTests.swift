import Foundation
import Testing
@testable import Lumen

/// Each filter against a scalar reference written here in Double (or an exact invariant).
/// `references` must name every registered filter: the registry walk fails otherwise.
@Suite struct FilterReferenceTests {
    typealias Check = () throws -> Void
    static let box = Rect(x: 0, y: 0, width: 19, height: 13)

    /// Linear premultiplied float pixels of `image` over `rect`, rows from the top.
    static func pixels(_ image: Image, _ rect: Rect = box) throws -> Bitmap {
        try RenderContext(.init(threads: 1)).render(image, in: rect, format: .rgbaFloat)
    }

    static func value(_ bitmap: Bitmap, x: Int, y: Int) -> SIMD4<Double> {
        let p = bitmap.pixel(x: x, row: bitmap.height - 1 - y)
        return SIMD4(Double(p.x), Double(p.y), Double(p.z), Double(p.w))
    }

    static func close(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ tolerance: Double = 1e-5) -> Bool {
        (0..<4).allSatisfy { abs(a[$0] - b[$0]) <= tolerance }
    }

    static func working(_ c: Color) -> SIMD4<Double> {
        let w = c.working
        return SIMD4(Double(w.x), Double(w.y), Double(w.z), Double(w.w))
    }

    static func apply(_ name: String, _ values: [String: FilterValue]) throws -> Image {
        try FilterRegistry.descriptor(named: name)!.apply(values)
    }

    /// A small image with varied color and alpha (premultiplied values in the tile).
    static let sample = syntheticImage(width: 19, height: 13)
    static let other = try! apply("radialGradient", ["center": .vector([9, 6]), "radius0": .number(1), "radius1": .number(9),
                                                      "color0": .color(Color(red: 0.2, green: 0.9, blue: 0.4, alpha: 0.8)), "color1": .color(Color(red: 0.9, green: 0.1, blue: 0.5, alpha: 0.5))])

    static func expectEach(_ a: Image, _ b: Image, in rect: Rect = box, tolerance: Double = 1e-5,
                           _ formula: (SIMD4<Double>, SIMD4<Double>, Int, Int) -> SIMD4<Double>, of output: Image) throws {
        let pa = try pixels(a, rect), pb = try pixels(b, rect), po = try pixels(output, rect)
        for y in 0..<Int(rect.height) {
            for x in 0..<Int(rect.width) {
                let expected = formula(value(pa, x: x, y: y), value(pb, x: x, y: y), x + Int(rect.x), y + Int(rect.y))
                let actual = value(po, x: x, y: y)
                #expect(close(actual, expected, tolerance), "(\(x), \(y)): \(actual) vs \(expected)")
                if !close(actual, expected, tolerance) { return }
            }
        }
    }

    /// Every table of references, each naming the filters it checks. A filter must be named
    /// by exactly one: `join` keeps the first, and `noFilterHasTwoReferences` fails on any
    /// name given twice (the second reference would never run).
    static var tables: [[String: Check]] {
        [
            // Beside each category's filters (Filters/<Category>/<Category>References.swift):
            ReferenceHelpers.blurReferences, FilterReferenceTests.blurReferences, SampleImageReferences.blurReferences,
            ReferenceHelpers.colorReferences, FilterReferenceTests.colorReferences,
            ReferenceHelpers.compositeReferences, FilterReferenceTests.compositeReferences,
            ReferenceHelpers.convolutionReferences,
            CoordinateMappingTests.distortionReferences,
            FilterReferenceTests.effectReferences, SampleImageReferences.effectReferences,
            ReferenceHelpers.generatorReferences, FilterReferenceTests.generatorReferences, SampleImageReferences.generatorReferences,
            ReferenceHelpers.geometryReferences, FilterReferenceTests.geometryReferences, SampleImageReferences.geometryReferences,
            FilterReferenceTests.gradientReferences, SampleImageReferences.gradientReferences,
            ReferenceHelpers.halftoneReferences,
            ReferenceHelpers.reductionReferences,
            ReferenceHelpers.sharpenReferences,
            ReferenceHelpers.stylizeReferences, CoordinateMappingTests.stylizeReferences,
            CoordinateMappingTests.tileReferences,
            ReferenceHelpers.transitionReferences, FilterReferenceTests.transitionReferences,
            // Computed from lists of names:
            BlendReferences.all, ColorOperationReferences.all, TransitionReferences.all, SampleImageReferences.photoEffects,
            ReferenceHelpers.neighbourhoods, ReferenceHelpers.reductions, ColorCubeTests.checks,
        ]
    }
    static let references: [String: Check] = join(tables)

    static func join(_ tables: [[String: Check]]) -> [String: Check] {
        tables.reduce(into: [:]) { joined, table in joined.merge(table) { first, _ in first } }
    }

    /// Names that more than one table gives a reference for.
    static func duplicateNames(_ tables: [[String: Check]]) -> [String] {
        var seen = Set<String>(), twice = Set<String>()
        for name in tables.flatMap(\.keys) where !seen.insert(name).inserted { twice.insert(name) }
        return twice.sorted()
    }

    @Test func noFilterHasTwoReferences() {
        #expect(Self.duplicateNames(Self.tables).isEmpty, "named by two reference tables: \(Self.duplicateNames(Self.tables))")
        #expect(Self.duplicateNames([["a": {}], ["b": {}, "a": {}]]) == ["a"], "the check itself")
    }



    static func list(_ v: SIMD4<Double>) -> [Double] { [v.x, v.y, v.z, v.w] }

    static func checkLinear(smooth: Bool) throws {
        let c0 = Color(red: 1, green: 0.5, blue: 0, alpha: 1), c1 = Color(red: 0, green: 0.2, blue: 1, alpha: 0.6)
        let out = try pixels(try apply(smooth ? "smoothLinearGradient" : "linearGradient",
                                       ["point0": .vector([2, 1]), "point1": .vector([15, 10]), "color0": .color(c0), "color1": .color(c1)]))
        for (x, y) in [(0, 0), (5, 5), (9, 4), (18, 12), (12, 2)] {
            var t = ((Double(x) + 0.5 - 2) * 13 + (Double(y) + 0.5 - 1) * 9) / (13 * 13 + 9 * 9)
            t = min(max(t, 0), 1)
            if smooth { t = t * t * (3 - 2 * t) }
            #expect(close(value(out, x: x, y: y), working(c0) + (working(c1) - working(c0)) * t))
        }
    }

    static func checkBlend(_ name: String, channel: Int) throws {
        let mask = try apply("linearGradient", ["point0": .vector([0, 0]), "point1": .vector([19, 0]),
                                                "color0": .color(Color(red: 0, green: 0.2, blue: 1, alpha: 0)), "color1": .color(Color(red: 1, green: 0.8, blue: 0, alpha: 1))])
        let out = try apply(name, ["image": .image(sample), "backgroundImage": .image(other), "maskImage": .image(mask)])
        let masks = try pixels(mask)
        try expectEach(sample, other, { s, d, x, y in
            let m = min(max(value(masks, x: x, y: y)[channel], 0), 1)
            return s * m + d * (1 - m)
        }, of: out)
    }

    static func checkScale(_ name: String) throws {
        let photo = try Image(contentsOf: Paths.testdata("photo.jpg")).cropped(to: Rect(x: 100, y: 100, width: 90, height: 60))
        for (scale, aspect) in [(0.5, 1.0), (0.37, 1.3), (1.7, 0.8)] {
            let out = try apply(name, ["image": .image(photo), "scale": .number(scale), "aspectRatio": .number(aspect)])
            #expect(out.extent.width == (90 * scale * aspect).rounded() && out.extent.height == (60 * scale).rounded())
            // Resampling keeps the mean (within 1 %).
            func mean(_ b: Bitmap) -> Double { b.samples.enumerated().filter { $0.offset % 4 < 3 }.map { Double($0.element) }.reduce(0, +) / Double(b.width * b.height * 3) }
            let m0 = mean(try pixels(photo, photo.extent)), m1 = mean(try pixels(out, out.extent))
            #expect(abs(m1 - m0) / m0 < 0.01, "\(name) \(scale): mean \(m0) → \(m1)")
        }
        // A constant stays constant, edges included (samples clamp to the edge).
        let flat = Image(color: Color(red: 0.25, green: 0.5, blue: 0.75)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
        let scaled = try apply(name, ["image": .image(flat), "scale": .number(0.3)])
        let out = try pixels(scaled, scaled.extent)
        for y in 0..<out.height { for x in 0..<out.width {
            #expect(close(value(out, x: x, y: y), working(Color(red: 0.25, green: 0.5, blue: 0.75)), 1e-5))
        } }
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func matchesItsReference(_ name: String) throws {
        let check = try #require(Self.references[name], "filter \(name) has no reference test")
        try check()
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func isDocumentedWithDefaultsAndRanges(_ name: String) throws {
        let d = try #require(FilterRegistry.descriptor(named: name))
        #expect(!d.summary.isEmpty && !d.details.isEmpty, "\(name) needs a summary and its formula")
        // Lumen's own operations (only `orientation`, which Core Image spells CIImage.oriented) have no Core Image name.
        if let ci = d.coreImageName {
            #expect(ci.hasPrefix("CI"))
            #expect(FilterRegistry.descriptor(named: ci)?.name == name)
        } else {
            #expect(name == "orientation")
            #expect(FilterRegistry.descriptor(named: "CIOrientation") == nil && Filter.names(inCategory: nil).allSatisfy { $0.hasPrefix("CI") })
        }
        for p in d.parameters {
            #expect(!p.summary.isEmpty, "\(name).\(p.key) needs a doc line")
            #expect(p.kind == .image || p.defaultValue != nil, "\(name).\(p.key) needs a default")
            if let v = p.defaultValue, p.kind != .image { #expect(throws: Never.self) { _ = try p.validate(v, filter: name) } }
        }
    }

    /// Positions that must lie inside the image, moved into the 19 × 13 sample (Core
    /// Image's defaults are for a larger canvas; the filter rightly refuses them here).
    static func fittedToSample(_ d: FilterDescriptor) -> [String: FilterValue] {
        if d.name == "droste" { return ["insetPoint0": .vector([3, 2]), "insetPoint1": .vector([7, 5])] }  // inside the 11 × 7 image too
        // Guides that converge both ways (the square default is already straight: the identity).
        if d.name.hasPrefix("keystoneCorrection") {
            return ["bottomLeft": .vector([2, 1]), "bottomRight": .vector([17, 2]), "topRight": .vector([15, 12]), "topLeft": .vector([4, 11])]
        }
        return [:]
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func rejectsBadValues(_ name: String) throws {
        let d = try #require(FilterRegistry.descriptor(named: name))
        var valid: [String: FilterValue] = Self.fittedToSample(d)
        for p in d.parameters where p.kind == .image { valid[p.key] = .image(Self.sample) }
        #expect(throws: Never.self) { _ = try d.apply(valid) }
        for p in d.parameters {
            var bad = valid
            switch p.kind {
            case .image:
                bad[p.key] = .number(1)
            case .scalar, .distance, .angle, .integer, .boolean, .time:
                bad[p.key] = .number(.nan)
                #expect(throws: LumenError.self, "\(name).\(p.key) = NaN") { _ = try d.apply(bad) }
                if let minimum = p.minimum { bad[p.key] = .number(minimum - 1) }
                else if let maximum = p.maximum { bad[p.key] = .number(maximum + 1) }
                else { bad[p.key] = .string("ten") }
            case .position, .offset, .rectangle:
                bad[p.key] = .vector([1])
            default:
                bad[p.key] = .image(Self.sample)
            }
            #expect(throws: LumenError.self, "\(name).\(p.key) = \(bad[p.key]!)") { _ = try d.apply(bad) }
        }
        #expect(throws: LumenError.self) { _ = try d.apply(valid.merging(["noSuchKey": .number(1)]) { a, _ in a }) }
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func isTileAndThreadInvariant(_ name: String) throws {
        let d = try #require(FilterRegistry.descriptor(named: name))
        var values: [String: FilterValue] = Self.fittedToSample(d)
        for p in d.parameters where p.kind == .image { values[p.key] = .image(p.key == "image" ? Self.sample : Self.other) }
        if d.parameter("gradientImage") != nil { values["gradientImage"] = .image(Self.other.cropped(to: Self.box)) }  // a finite map
        for key in ["shadingImage", "guideImage"] where d.parameter(key) != nil { values[key] = .image(Self.other.cropped(to: Self.box)) }
        if d.parameter("smallImage") != nil { values["smallImage"] = .image(Self.other.cropped(to: Rect(x: 0, y: 0, width: 7, height: 5))) }
        if d.parameter("means") != nil { values["means"] = .image(Self.other.cropped(to: Rect(x: 0, y: 0, width: 4, height: 2))) }
        if d.parameter("paletteImage") != nil { values["paletteImage"] = .image(Self.other.cropped(to: Rect(x: 0, y: 0, width: 4, height: 2))) }
        if d.parameter("center") != nil { values["center"] = .vector([9, 6]) }
        if name == "vignetteEffect" { values["radius"] = .number(4) }
        if name == "gaussianBlur" { values["radius"] = .number(2) }
        if name.hasSuffix("Scale") { values["scale"] = .number(0.6) }
        if d.parameter("time") != nil { values["time"] = .number(0.4) }
        if d.parameter("extent") != nil { values["extent"] = .vector([0, 0, 19, 13]) }
        if d.parameter("message") != nil { values["message"] = .string("Lumen") }
        if d.parameter("text") != nil { values["text"] = .string("Lumen") }
        let out = try d.apply(values)
        try expectTileInvariant(out, in: out.extent.isInfinite ? Self.box : nil)
    }

    @Test func everyFilterFileIsRegistered() throws {
        let folder = Paths.root.appendingPathComponent("Sources/Lumen/Filters")
        let enumerator = FileManager.default.enumerator(atPath: folder.path)!
        var declared: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            // Every non-private `static let name = …` in an extension of FilterDescriptor is a filter.
            let extensions = text.components(separatedBy: "extension FilterDescriptor {").dropFirst()
                .map { $0.components(separatedBy: "\n}\n")[0] }.joined(separator: "\n")
            declared += extensions.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("    static let ") else { return nil }
                let rest = line.dropFirst("    static let ".count)
                let name = rest.prefix { $0.isLetter || $0.isNumber }
                return rest.dropFirst(name.count).hasPrefix(" = ") ? String(name) : nil  // typed lets are helpers
            }
        }
        #expect(Set(declared) == Set(FilterRegistry.all.map(\.name)), "declared but unregistered: \(Set(declared).subtracting(FilterRegistry.all.map(\.name)))")
    }
}

@Suite struct FactoryNameTests {
    @Test func factoryNamesFollowApplesSpelling() throws {
        let expected = ["CIQRCodeGenerator": "qrCodeGenerator", "CIPDF417BarcodeGenerator": "pdf417BarcodeGenerator",
                        "CIGaussianBlur": "gaussianBlur", "CIStraightenFilter": "straighten", "CICode128BarcodeGenerator": "code128BarcodeGenerator",
                        "CIColorControls": "colorControls", "CIAztecCodeGenerator": "aztecCodeGenerator"]
        for (ci, factory) in expected {
            let d = try #require(FilterRegistry.descriptor(named: ci), "\(ci)")
            #expect(d.factoryName == factory)
            #expect(FilterRegistry.descriptor(named: factory)?.coreImageName == ci)
        }
        // Every filter is found by its factory name (the lookup table derives it more cheaply).
        for d in FilterRegistry.all {
            guard let factory = d.factoryName else { continue }
            #expect(FilterRegistry.descriptor(named: factory)?.name == d.name, "\(factory)")
        }
        // Any case of any of the three names; nothing else.
        for d in FilterRegistry.all {
            for name in [d.name, d.coreImageName, d.factoryName].compactMap({ $0 }) {
                #expect(FilterRegistry.descriptor(named: name.uppercased())?.name == d.name, "\(name)")
                #expect(FilterRegistry.descriptor(named: name.lowercased())?.name == d.name, "\(name)")
            }
        }
        #expect(FilterRegistry.descriptor(named: "gaussianBlur ") == nil && FilterRegistry.descriptor(named: "gaussian-Blur") == nil)
        #expect(FilterRegistry.descriptor(named: "") == nil && FilterRegistry.descriptor(named: "gaußianBlur") == nil)
    }
}
