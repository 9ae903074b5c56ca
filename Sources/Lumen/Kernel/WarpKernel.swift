/// Core Image's `CIWarpKernel` in Swift: maps each destination position (a pixel
/// centre, x + 0.5, y + 0.5) to the source position to sample, which the renderer then
/// reads through a sampler (linear by default, or nearest, or a resampling kernel).
///
/// ```swift
/// let swirl = WarpKernel("swirl", mapping: { d, values in
///     let c = values.point(0), v = d - c, r = (v * v).sum().squareRoot()
///     let a = values[1] * max(0, 1 - r / values[2]), (s, k) = (sin(a), cos(a))
///     return c + SIMD2(v.x * k - v.y * s, v.x * s + v.y * k)
/// })
/// let out = swirl.apply(extent: photo.extent, image: photo,
///                       regionOfInterest: { rect in rect.insetBy(dx: -200, dy: -200) },
///                       arguments: [Point(x: 320, y: 200), 2.0, 150.0])
/// ```
public struct WarpKernel: Sendable {
    /// A run of destination pixels on one row whose source positions the kernel fills.
    public struct Span {
        /// Row and first pixel of the run.
        public let y: Int, x: Int
        /// Number of pixels.
        public let count: Int
        /// Where the source position of each destination pixel goes.
        public let positions: UnsafeMutablePointer<SIMD2<Double>>
        /// The kernel's non-image arguments.
        public let values: KernelValues
    }

    enum Body: Sendable {
        case point(@Sendable (SIMD2<Double>, KernelValues) -> SIMD2<Double>)
        case span(@Sendable (Span) -> Void)
    }

    /// The kernel's name, part of its identity (two kernels with one name and version are taken to compute the same thing).
    public let name: String
    /// Bump it when the kernel's code changes, so cached results of the old code are not reused.
    public let version: Int
    let body: Body

    /// A warp from the destination position alone.
    public init(_ name: String, version: Int = 1, _ body: @escaping @Sendable (SIMD2<Double>) -> SIMD2<Double>) {
        self.init(name, version: version, mapping: { d, _ in body(d) })
    }

    /// A warp from the destination position and the kernel's values.
    public init(_ name: String, version: Int = 1, mapping body: @escaping @Sendable (SIMD2<Double>, KernelValues) -> SIMD2<Double>) {
        self.name = name
        self.version = version
        self.body = .point(body)
    }

    /// The same contract written over runs of a row, for speed.
    public init(_ name: String, version: Int = 1, rows body: @escaping @Sendable (Span) -> Void) {
        self.name = name
        self.version = version
        self.body = .span(body)
    }

    /// `image` warped over `extent`. `regionOfInterest` gives the source rectangle a
    /// destination rectangle reads (the sampler's own reach is added to it).
    public func apply(extent: Rect, image: Image, regionOfInterest: @escaping @Sendable (Rect) -> Rect,
                      arguments: [any KernelArgument] = [], sampling: SamplingFilter = .linear) -> Image {
        let split = SplitArguments(arguments)
        let kernel = AppliedWarpKernel(name: name, version: version, values: split.values, fixedExtent: extent, sampling: sampling,
                                       body: DeterminedByIdentity(body), roi: DeterminedByIdentity(regionOfInterest))
        return kernel.apply(to: [image])
    }
}

/// A `WarpKernel` bound to its image and arguments: the node's kernel.
struct AppliedWarpKernel: ImageKernel {
    let name: String
    let version: Int
    let values: KernelValues
    let fixedExtent: Rect
    let sampling: SamplingFilter
    let body: DeterminedByIdentity<WarpKernel.Body>
    let roi: DeterminedByIdentity<@Sendable (Rect) -> Rect>

    func extent(inputs: [Rect]) -> Rect { fixedExtent }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        PixelRect(covering: roi.value(rect.rect)).outset(dx: sampling.reach, dy: sampling.reach)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, source = inputs[0]
        let positions = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: r.width)
        defer { positions.deallocate() }
        for y in r.y..<r.maxY {
            switch body.value {
            case let .point(f):
                let cy = Double(y) + 0.5
                for i in 0..<r.width { positions[i] = f(SIMD2(Double(r.x + i) + 0.5, cy), values) }
            case let .span(f):
                f(WarpKernel.Span(y: y, x: r.x, count: r.width, positions: positions, values: values))
            }
            let out = destination.row(y)
            for i in 0..<r.width { out[i] = source.sample(at: positions[i], filter: sampling) }
        }
    }
}

extension SamplingFilter {
    /// How many pixels beyond a position the filter reads.
    var reach: Int {
        switch self {
        case .nearest: return 0
        case .linear: return 1
        case let .resampling(kernel): return Int(kernel.radius)
        }
    }
}
