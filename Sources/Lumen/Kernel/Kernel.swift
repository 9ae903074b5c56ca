/// Core Image's general `CIKernel` in Swift: fills a rectangle of output by reading its
/// input images through samplers, inside the region of interest it declares per input.
///
/// ```swift
/// let box = Kernel("box5") { out, samplers in
///     out.forEachRow { y, row, count in
///         for i in 0..<count {
///             var sum = SIMD4<Float>.zero
///             for dy in -2...2 { for dx in -2...2 { sum += samplers[0].pixel(out.rect.x + i + dx, y + dy) } }
///             row[i] = sum / 25
///         }
///     }
/// }
/// let blurred = box.apply(extent: photo.extent, regionOfInterest: { _, rect in rect.insetBy(dx: -2, dy: -2) },
///                         arguments: [photo])
/// ```
public struct Kernel: Sendable {
    /// The input images of one call, with the kernel's values.
    public struct Samplers {
        let samplers: [Sampler]
        /// The kernel's non-image arguments.
        public let values: KernelValues

        /// How many input images there are.
        public var count: Int { samplers.count }
        /// Input image `index`, covering the region of interest the kernel declared.
        public subscript(index: Int) -> Sampler { samplers[index] }
    }

    enum Body: Sendable {
        case pixel(@Sendable (SIMD2<Double>, Samplers) -> SIMD4<Float>)
        case region(@Sendable (Destination, Samplers) throws -> Void)
    }

    /// The kernel's name, part of its identity (two kernels with one name and version are taken to compute the same thing).
    public let name: String
    /// Bump it when the kernel's code changes, so cached results of the old code are not reused.
    public let version: Int
    let body: Body

    /// A kernel that fills the whole destination rectangle at once (the span form).
    public init(_ name: String, version: Int = 1, _ body: @escaping @Sendable (Destination, Samplers) throws -> Void) {
        self.name = name
        self.version = version
        self.body = .region(body)
    }

    /// A kernel written per pixel: `body(centre, samplers)` gives the output pixel whose
    /// centre is `centre` (x + 0.5, y + 0.5).
    public init(_ name: String, version: Int = 1, pixel body: @escaping @Sendable (SIMD2<Double>, Samplers) -> SIMD4<Float>) {
        self.name = name
        self.version = version
        self.body = .pixel(body)
    }

    /// The kernel over `extent`. `regionOfInterest(i, rect)` gives the rectangle of input
    /// image `i` that filling `rect` reads; samplers return transparent black beyond it.
    public func apply(extent: Rect, regionOfInterest: @escaping @Sendable (Int, Rect) -> Rect,
                      arguments: [any KernelArgument]) -> Image {
        let split = SplitArguments(arguments)
        let kernel = AppliedGeneralKernel(name: name, version: version, values: split.values, layout: split.layout,
                                          fixedExtent: extent, body: DeterminedByIdentity(body),
                                          roi: DeterminedByIdentity(regionOfInterest))
        return kernel.apply(to: split.images)
    }
}

/// A general `Kernel` bound to its arguments: the node's kernel.
struct AppliedGeneralKernel: ImageKernel {
    let name: String
    let version: Int
    let values: KernelValues
    let layout: [Bool]
    let fixedExtent: Rect
    let body: DeterminedByIdentity<Kernel.Body>
    let roi: DeterminedByIdentity<@Sendable (Int, Rect) -> Rect>

    func extent(inputs: [Rect]) -> Rect { fixedExtent }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        PixelRect(covering: roi.value(index, rect.rect))
    }

    func render(_ destination: Destination, inputs: [Sampler]) throws {
        let samplers = Kernel.Samplers(samplers: inputs, values: values)
        switch body.value {
        case let .region(f):
            try f(destination, samplers)
        case let .pixel(f):
            let r = destination.rect
            for y in r.y..<r.maxY {
                let out = destination.row(y), cy = Double(y) + 0.5
                for i in 0..<r.width { out[i] = f(SIMD2(Double(r.x + i) + 0.5, cy), samplers) }
            }
        }
    }
}
