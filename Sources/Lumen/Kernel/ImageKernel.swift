/// The one contract behind every node of the graph, built-in filter or yours: a small
/// `Hashable` value that says what the output covers, which input rectangles it reads,
/// and how it fills a rectangle of output from them.
///
/// A kernel's identity — the key of the render cache and of `Image` equality — is its
/// type plus its stored values (the compiler's `Hashable`), together with its inputs'
/// identities, so no identity is ever written by hand. Store in a kernel everything
/// that changes its pixels. Kernels never see threads, tiles or the cache: `render` may
/// be called for any rectangle, on any thread, and must give every pixel the same value
/// whatever the rectangle.
///
/// ```swift
/// struct Threshold: ImageKernel {
///     var level: Float
///     var name: String { "threshold" }
///     func render(_ destination: Destination, inputs: [Sampler]) {
///         destination.forEachRow { y, out, count in
///             let row = inputs[0].row(y, from: destination.rect.x)
///             for i in 0..<count { out[i] = row[i].x > level ? SIMD4(1, 1, 1, 1) : SIMD4(0, 0, 0, 1) }
///         }
///     }
/// }
/// let binary = Threshold(level: 0.5).apply(to: [photo])
/// ```
public protocol ImageKernel: Hashable, Sendable {
    /// The name shown in graph listings (`lumen explain`), e.g. `gaussianBlur`.
    var name: String { get }

    /// Where the output can have non-transparent pixels, given the inputs' extents
    /// (default: the first input's extent, or infinite without inputs).
    func extent(inputs: [Rect]) -> Rect

    /// The rectangle of input `index` that `render` reads to fill `rect` (default: `rect`).
    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect

    /// Fills every pixel of `destination` from `inputs`, one sampler per input covering
    /// at least `regionOfInterest(for: destination.rect, input: i)`. Values are linear
    /// light, premultiplied RGBA. Pixels outside the extent may hold anything: the renderer
    /// clears them.
    func render(_ destination: Destination, inputs: [Sampler]) throws

    /// True when every pixel inside the extent has alpha 1 (default: false).
    func isOpaque(inputs: [Image]) -> Bool

    /// When the renderer keeps this kernel's pixels in the render cache (default: never).
    var cachePolicy: CachePolicy { get }

    /// Tile size for computing kept pixels, when the default would make the inputs'
    /// regions very large (shrinking kernels); nil for the default.
    var preferredTileSize: (width: Int, height: Int)? { get }

    /// True when `render` reads its inputs only through `pixelOrClear` or `sample`, so
    /// the renderer may hand it samplers cut to each input's extent (a distortion whose
    /// region of interest is far larger than the image it reads).
    var readsOnlyInsideInputs: Bool { get }

    /// Bytes the kernel holds itself (encoded bytes or pixels in memory), which a cache
    /// entry keyed by its node keeps alive and counts beside the pixels (default: 0; a
    /// colour cube's table and other small values are left out).
    var retainedBytes: Int { get }
}

/// When the renderer keeps a node's pixels in the render cache.
public enum CachePolicy: Sendable {
    /// Cheap per pixel: recompute.
    case never
    /// Keep once the same node is rendered again (blurs, resamples).
    case whenReused
    /// Keep from the first render (generated masks that batches share).
    case always
}

extension ImageKernel {
    /// Default: the first input's extent (a generator without inputs is infinite).
    public func extent(inputs: [Rect]) -> Rect { inputs.first ?? .infinite }
    /// Default: a kernel reads each input where it writes (a per-pixel kernel).
    public func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect }
    /// Default: the output may be transparent.
    public func isOpaque(inputs: [Image]) -> Bool { false }
    /// Default: recompute, never kept.
    public var cachePolicy: CachePolicy { .never }
    /// Default: the renderer's tile size.
    public var preferredTileSize: (width: Int, height: Int)? { nil }
    /// Default: false, the renderer hands the kernel samplers over the whole region of interest.
    public var readsOnlyInsideInputs: Bool { false }
    /// Default: nothing beyond its few stored values.
    public var retainedBytes: Int { 0 }

    /// The image this kernel computes from `inputs` (a lazy recipe: nothing is computed).
    public func apply(to inputs: [Image] = []) -> Image {
        Image(ImageNode(self, inputs: inputs.map(\.node)))
    }

    /// True when `other` is a kernel of the same type with equal values.
    func isEqual(to other: any ImageKernel) -> Bool {
        (other as? Self) == self
    }
}

/// A stored value that takes no part in a kernel's identity: a function that the
/// kernel's other values (its name, version and arguments) already determine, such as
/// a blend mode's formula or a custom kernel's closure.
public struct DeterminedByIdentity<Value: Sendable>: Hashable, Sendable {
    /// The stored value.
    public let value: Value
    /// Wraps `value` so that it takes no part in equality and hashing.
    public init(_ value: Value) { self.value = value }
    /// Always equal: the kernel's other values decide.
    public static func == (_: Self, _: Self) -> Bool { true }
    /// Adds nothing to the hash.
    public func hash(into hasher: inout Hasher) {}
}

/// A kernel that only places its one input's values elsewhere — turns, crops, scales,
/// resamples — so that each output value is a weighted mean of input values of the same
/// channel. A picture that travels beside the pixels, such as an HDR gain map, goes
/// through such a kernel unchanged in meaning; any other kernel changes what the values mean.
protocol GeometricKernel: ImageKernel {}

/// A leaf whose pixels are in memory already, in the working space (a caller's buffer):
/// the renderer reads a view of them (`Tile(viewing:…)`) instead of having `render` copy
/// them into a tile.
protocol LendsPixels: ImageKernel {
    /// A view of `rect`, or nil when the pixels do not cover it (then `render` fills a tile).
    func lend(_ rect: PixelRect) -> Tile?
}
