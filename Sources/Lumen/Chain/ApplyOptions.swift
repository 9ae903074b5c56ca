extension FilterChain {
    /// How a chain is applied: the extent its neighbourhood filters give, and how its
    /// `load(…)` calls read files.
    public struct ApplyOptions: Sendable {
        /// Whether blurs and other neighbourhood filters grow the image (Core Image) or keep its extent.
        public var extent: ExtentPolicy
        /// How `load(…)` reads files (orientation; the frame comes from the call).
        public var loadOptions: Image.LoadOptions

        /// Options with Core Image's grown extents and oriented loads by default.
        public init(extent: ExtentPolicy = .grown, loadOptions: Image.LoadOptions = Image.LoadOptions()) {
            self.extent = extent
            self.loadOptions = loadOptions
        }
    }

    /// What a step that reaches past its pixels (a blur, a sharpen, a bloom) does to the extent.
    ///
    /// Core Image grows the extent: a Gaussian blur of radius 4 turns a 2560×1600 photo into
    /// 2584×1624 with a fading border, and its users crop back with
    /// `cropped(to: inputImage.extent)`. `.input` does that crop after every such step, which
    /// is what a photo tool's user expects (libvips and sharp keep the size too).
    public enum ExtentPolicy: String, Sendable, CaseIterable {
        /// Core Image's extents: each filter's output extent as the filter defines it.
        case grown
        /// A filter whose output extent contains its input's is cropped back to the input's
        /// extent, unless it is a geometry, tile, distortion, transition or reduction filter
        /// (those place pixels elsewhere on purpose).
        case input

        /// `output` cropped to `source`'s extent when the policy applies to `category`.
        static func keepingInputExtent(_ output: Image, of source: Image, category: FilterCategory) -> Image {
            let placesPixels: Set<FilterCategory> = [.geometryAdjustment, .tileEffect, .distortionEffect, .transition, .reduction,
                                                     .generator, .gradient]
            guard !placesPixels.contains(category), !source.extent.isInfinite, !source.extent.isEmpty,
                  output.extent.contains(source.extent), output.extent != source.extent else { return output }
            return output.cropped(to: source.extent)
        }
    }
}
