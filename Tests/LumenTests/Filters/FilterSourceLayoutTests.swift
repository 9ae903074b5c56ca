import Foundation
import Testing
@testable import Lumen

/// Every filter is found by its path: Sources/Lumen/Filters/<Category>/<Name>.swift, named
/// for the filter (or its Core Image name), or for the small family it belongs to when the
/// family shares one kernel or formula — and then listed here, with what the family shares.
/// Shared math lives in Filters/Support. A file of several unrelated filters fails.
@Suite struct FilterSourceLayoutTests {
    static let families: [String: String] = [
        "PerspectiveRotate.swift": "perspective rotate and keystone corrections: one camera rotation and solver",
        "Convolution.swift": "3×3 to 9-tap convolutions, RGB or RGBA: one weighted sum",
        "AreaStatistics.swift": "area average, maximum, minimum, bounds: one block reduction",
        "PageCurlTransition.swift": "page curl with and without shadow: one curl",
        "BlendWithMask.swift": "blend with a mask's luma, alpha, red or blue: one masked blend",
        "ColorCube.swift": "colour cubes: one lookup and interpolation",
        "ColorRamps.swift": "thermal and xRay: one ramp operation",
        "ComponentOperations.swift": "per-component min/max/clamp/posterize/threshold/polynomial: one operation",
        "DepthAndDisparity.swift": "depth ↔ disparity: one reciprocal",
        "LabFilters.swift": "CIE Lab conversions and ΔE: one Lab implementation",
        "ToneCurveConversions.swift": "linear ↔ sRGB tone curve: one table",
        "Morphology.swift": "morphology max/min/gradient and rectangles: one sliding extremum",
        "Displacement.swift": "displacement and glass distortion: one displacement kernel",
        "NinePart.swift": "nine-part stretched and tiled: one mapping",
        "PerspectiveTransform.swift": "perspective transform, with extent, correction: one homography",
        "RadialDistortions.swift": "bump, pinch, twirl, vortex, hole, splash, wrap, torus, tunnel: one radial mapping",
        "RoundedRectangle.swift": "filled and stroked rounded rectangles: one distance function",
        "TextImageGenerator.swift": "plain and attributed text: one layout engine",
        "GuidedUpsampling.swift": "guided filter and edge-preserving upsampling: one guided filter",
        "LanczosScale.swift": "Lanczos and bicubic scale: one resampler",
        "LinearGradient.swift": "linear and smooth linear gradients: one projection",
        "Halftones.swift": "circular screen and CMYK halftone: one screen function",
        "AreaHistogram.swift": "area histograms (plain, logarithmic, alpha-weighted): one binning",
        "KMeans.swift": "k-means, palette centroid, palettize: one clustering space",
        "LineAverages.swift": "row and column averages: one reduction",
        "Sharpen.swift": "unsharp mask and luminance sharpening: one blur-combine",
        "BloomAndGloom.swift": "bloom and gloom: one blur-combine",
        "DistanceFields.swift": "distance gradient, height field, shaded material: one distance transform",
        "Edges.swift": "edges, Sobel gradients, Canny: one Sobel operator",
        "InkLines.swift": "comic effect, edge work, line overlay: one ink-line kernel",
        "Pixellate.swift": "square, hexagonal, crystallize, pointillize cells: one cell lookup",
        "Tiles.swift": "affine tile and kaleidoscope: one tiling mapping",
    ]

    @Test func everyFilterIsFoundByItsPath() throws {
        let root = Paths.root.appendingPathComponent("Sources/Lumen/Filters")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        // `static let name = FilterDescriptor(…)` or a family's factory (`blendMode(…)`), for registered names.
        let declaration = try NSRegularExpression(pattern: #"static let (\w+)(?:: FilterDescriptor)? = \w+\("#)
        var declared: [String: String] = [:]
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let names = Array(Set(declaration.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .map { String(text[Range($0.range(at: 1), in: text)!]) }.filter { FilterRegistry.descriptor(named: $0) != nil })).sorted()
            for name in names { declared[name] = file }
            let base = (file as NSString).lastPathComponent, stem = (base as NSString).deletingPathExtension.lowercased()
            #expect(!["More", "Misc", "Other", "Extra", "Looks", "Helpers"].contains { base.hasPrefix($0) }, "\(file): a grab-bag name")
            if names.count > 1 {
                #expect(Self.families[base] != nil, "\(file) holds \(names): split it, or list it as a family with what it shares")
            } else if let name = names.first, let descriptor = FilterRegistry.descriptor(named: name) {
                let coreImage = (descriptor.coreImageName ?? "").lowercased().replacingOccurrences(of: "ci", with: "", options: .anchored)
                #expect(stem.hasPrefix(name.lowercased()) || stem == coreImage || name.lowercased().hasPrefix(stem),
                        "\(file) holds \(name) (\(descriptor.coreImageName ?? "")): name the file for it")
            }
        }
        // Every registered filter is declared in one of them, in its category's folder or a sibling.
        for descriptor in FilterRegistry.all {
            #expect(declared[descriptor.name] != nil, "\(descriptor.name) is not declared under Sources/Lumen/Filters")
        }
        for family in Self.families.keys { #expect(files.contains { $0.hasSuffix("/" + family) }, "family \(family) no longer exists") }
    }
}
