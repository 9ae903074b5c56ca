/// Core Image's `CIColorKernel` in Swift: a function of one pixel of each input image
/// (and optionally of the destination coordinate and values) to one output pixel.
/// Pixels are linear light, premultiplied RGBA.
///
/// ```swift
/// let invert = ColorKernel("invert") { p in SIMD4(p.w - p.x, p.w - p.y, p.w - p.z, p.w) }
/// let inverted = invert.apply(extent: photo.extent, arguments: [photo])
/// ```
/// The identity of the result is the kernel's name and version plus the arguments, so
/// give a kernel a new name or version whenever its function changes.
public struct ColorKernel: Sendable {
    /// One output pixel's view of the inputs.
    public struct Pixel {
        let rows: UnsafeBufferPointer<UnsafePointer<SIMD4<Float>>>
        let index: Int
        /// The destination pixel's centre (x + 0.5, y + 0.5).
        public let coordinate: SIMD2<Float>
        /// The kernel's non-image arguments.
        public let values: KernelValues

        /// The pixel of input image `input` at this position.
        @inline(__always)
        public subscript(input: Int) -> SIMD4<Float> { rows[input][index] }
    }

    /// A run of output pixels on one row, with the inputs' pixels at the same positions.
    public struct Span {
        /// Row and first pixel of the run.
        public let y: Int, x: Int
        /// Number of pixels.
        public let count: Int
        let inputs: UnsafeBufferPointer<UnsafePointer<SIMD4<Float>>>
        /// Where the run's output goes.
        public let output: UnsafeMutablePointer<SIMD4<Float>>
        /// The kernel's non-image arguments.
        public let values: KernelValues

        /// The pixels of input image `index` for this run (`count` of them).
        @inline(__always)
        public func input(_ index: Int) -> UnsafePointer<SIMD4<Float>> { inputs[index] }
    }

    enum Body: Sendable {
        case single(@Sendable (SIMD4<Float>) -> SIMD4<Float>)
        case pixel(@Sendable (Pixel) -> SIMD4<Float>)
        case span(@Sendable (Span) -> Void)
    }

    /// The kernel's name, part of its identity (two kernels with one name and version are taken to compute the same thing).
    public let name: String
    /// Bump it when the kernel's code changes, so cached results of the old code are not reused.
    public let version: Int
    let body: Body
    /// The input whose alpha the kernel passes through unchanged, if one: the result is then
    /// opaque wherever that input is (so outputs need no alpha channel).
    var alphaFromInput: Int?

    /// A kernel over one input image: `body(pixel)` gives the output pixel.
    public init(_ name: String, version: Int = 1, _ body: @escaping @Sendable (SIMD4<Float>) -> SIMD4<Float>) {
        self.name = name
        self.version = version
        self.body = .single(body)
    }

    /// A kernel over any number of inputs, the destination coordinate and values.
    public init(_ name: String, version: Int = 1, pixel body: @escaping @Sendable (Pixel) -> SIMD4<Float>) {
        self.name = name
        self.version = version
        self.body = .pixel(body)
    }

    /// The same contract written over runs of a row, for speed.
    public init(_ name: String, version: Int = 1, rows body: @escaping @Sendable (Span) -> Void) {
        self.name = name
        self.version = version
        self.body = .span(body)
    }

    /// The kernel applied over `extent` to `arguments` (images and values, in the order
    /// the function reads them). Outside an input's extent it reads transparent black.
    public func apply(extent: Rect, arguments: [any KernelArgument]) -> Image {
        let split = SplitArguments(arguments)
        let kernel = AppliedColorKernel(name: name, version: version, values: split.values, layout: split.layout,
                                        fixedExtent: extent, body: DeterminedByIdentity(body), alphaFrom: alphaFromInput)
        return kernel.apply(to: split.images)
    }
}

/// A `ColorKernel` bound to its arguments: the node's kernel.
struct AppliedColorKernel: ImageKernel {
    let name: String
    let version: Int
    let values: KernelValues
    let layout: [Bool]
    let fixedExtent: Rect
    let body: DeterminedByIdentity<ColorKernel.Body>
    let alphaFrom: Int?

    func extent(inputs: [Rect]) -> Rect { fixedExtent }

    func isOpaque(inputs: [Image]) -> Bool {
        guard let alphaFrom, alphaFrom < inputs.count else { return false }
        return inputs[alphaFrom].isOpaque && inputs[alphaFrom].extent.contains(fixedExtent)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect
        withUnsafeTemporaryAllocation(of: UnsafePointer<SIMD4<Float>>.self, capacity: max(1, inputs.count)) { storage in
            let rows = UnsafeBufferPointer(rebasing: storage[0..<inputs.count])
            for y in r.y..<r.maxY {
                for (i, input) in inputs.enumerated() { storage[i] = input.row(y, from: r.x) }
                let out = destination.row(y)
                switch body.value {
                case let .single(f):
                    guard let source = rows.first else { out.update(repeating: f(.zero), count: r.width); continue }
                    for i in 0..<r.width { out[i] = f(source[i]) }
                case let .pixel(f):
                    let cy = Float(y) + 0.5
                    for i in 0..<r.width {
                        out[i] = f(ColorKernel.Pixel(rows: rows, index: i, coordinate: SIMD2(Float(r.x + i) + 0.5, cy), values: values))
                    }
                case let .span(f):
                    f(ColorKernel.Span(y: y, x: r.x, count: r.width, inputs: rows, output: out, values: values))
                }
            }
        }
    }
}
