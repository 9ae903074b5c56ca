import LumenPlatform

/// Resampling kernels for the scale filters and samplers; `radius` is the support at scale 1.
public enum ResamplingKernel: Hashable, Sendable, CustomStringConvertible {
    /// Lanczos with three lobes: sinc(x)·sinc(x/3) for |x| < 3 (Core Image's `lanczosScaleTransform`, libvips's default).
    case lanczos3
    /// Mitchell–Netravali cubic with parameters B and C.
    case cubic(b: Double, c: Double)

    /// "lanczos3" or "cubic(b: 0.0, c: 0.5)", as Swift prints the cases, without its
    /// reflection (70 µs a description, in every render report listing a resample).
    public var description: String {
        switch self {
        case .lanczos3: return "lanczos3"
        case let .cubic(b, c): return "cubic(b: \(b), c: \(c))"
        }
    }

    /// How far the kernel reaches at scale 1, in source pixels (3 for Lanczos-3, 2 for the cubics); it widens by 1/scale when shrinking.
    public var radius: Double {
        switch self {
        case .lanczos3: return 3
        case .cubic: return 2
        }
    }

    /// The kernel's weight at distance `x` (in source pixels at scale 1); weights are normalised per output pixel, so they need not sum to 1 here.
    public func weight(_ x: Double) -> Double {
        let ax = abs(x)
        switch self {
        case .lanczos3:
            if ax < 1e-9 { return 1 }
            if ax >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        case let .cubic(b, c):
            if ax < 1 { return ((12 - 9 * b - 6 * c) * ax * ax * ax + (-18 + 12 * b + 6 * c) * ax * ax + (6 - 2 * b)) / 6 }
            if ax < 2 { return ((-b - 6 * c) * ax * ax * ax + (6 * b + 30 * c) * ax * ax + (-12 * b - 48 * c) * ax + (8 * b + 24 * c)) / 6 }
            return 0
        }
    }
}

/// The taps of a 1-D resampling from `inputCount` to `outputCount` samples: for each
/// output sample, the first input index and normalized weights. The output covers input
/// positions `offset ..< offset + length` (by default all `inputCount` samples). Input
/// indices are clamped to the edge, so borders never darken. Taps are equal when made
/// from equal arguments, and hash as those (hashing every weight was 4–7 % of the set-up
/// of a blur's render, which enlarges through two of these).
struct ResamplingTaps: Hashable, Sendable {
    private struct Arguments: Hashable {
        let kernel: ResamplingKernel, inputCount: Int, outputCount: Int, offset: Double, length: Double?
    }
    private let arguments: Arguments
    let starts: [Int]
    let taps: Int
    let weights: [Float]
    /// 1 when every output's weights are the first's (a whole-factor reduction), 2 when
    /// they alternate between the first two's (an exact 2× enlargement), compared bit for
    /// bit; nil otherwise.
    let period: Int?

    static func == (a: ResamplingTaps, b: ResamplingTaps) -> Bool { a.arguments == b.arguments }
    func hash(into hasher: inout Hasher) { hasher.combine(arguments) }

    init(kernel: ResamplingKernel, inputCount: Int, outputCount: Int, offset: Double = 0, length: Double? = nil) {
        arguments = Arguments(kernel: kernel, inputCount: inputCount, outputCount: outputCount, offset: offset, length: length)
        let ratio = (length ?? Double(inputCount)) / Double(outputCount)
        let stretch = max(1, ratio)  // widen the kernel when shrinking (antialiasing)
        let support = kernel.radius * stretch
        let taps = Int((2 * support).rounded(.up)) + 1
        var starts = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * taps)
        var raw = [Double](repeating: 0, count: taps)  // one output's, every element written anew
        for o in 0..<outputCount {
            let center = offset + (Double(o) + 0.5) * ratio  // in input pixel units
            let first = Int((center - support - 0.5).rounded(.up))
            starts[o] = first
            for k in 0..<taps { raw[k] = kernel.weight((Double(first + k) + 0.5 - center) / stretch) }
            let sum = raw.reduce(0, +)
            for k in 0..<taps { weights[o * taps + k] = Float(raw[k] / sum) }
        }
        // Leading and trailing taps whose weight is 0 for every output are left out: a
        // kernel's window is one wider than its support, so an enlargement's (and a whole
        // factor reduction's) end tap is 0 everywhere, and Lanczos-3 doubling read 7 pixels
        // for 6. The same taps go for every output, so the starts stay in order (the
        // regions of interest take the first and last output's) and every window stays
        // inside the one computed. (Trimmed output by output, a cubic with B = 0 enlarging
        // 3× jumped its exact-centre outputs' starts ahead of their neighbours'.)
        var lead = taps, trail = -1
        for o in 0..<outputCount {
            let w = weights[(o * taps)..<(o * taps + taps)]
            if let first = w.firstIndex(where: { $0 != 0 }) { lead = min(lead, first - o * taps) }
            if let last = w.lastIndex(where: { $0 != 0 }) { trail = max(trail, last - o * taps) }
        }
        if trail >= lead, trail - lead + 1 < taps {
            let used = trail - lead + 1
            var trimmed = [Float](repeating: 0, count: outputCount * used)
            for o in 0..<outputCount {
                for k in 0..<used { trimmed[o * used + k] = weights[o * taps + lead + k] }
                starts[o] += lead
            }
            (self.taps, weights) = (used, trimmed)
        } else {
            self.taps = taps
        }
        self.starts = starts
        self.weights = weights
        let n = self.taps
        func repeats(every period: Int) -> Bool {
            (period..<outputCount).allSatisfy { o in
                (0..<n).allSatisfy { weights[o * n + $0].bitPattern == weights[(o - period) * n + $0].bitPattern }
            }
        }
        period = repeats(every: 1) ? 1 : repeats(every: 2) ? 2 : nil
    }
}

/// One pass of a separable resample along x or y. Scale filters chain two of these
/// (horizontal, then vertical), so the intermediate is an ordinary pooled tile.
struct Resample1D: ImageKernel, CustomStringConvertible {
    let horizontal: Bool
    let kernel: ResamplingKernel
    /// The input's pixels along the axis (samples beyond them clamp to the edge).
    let inputStart: Int, inputEnd: Int
    /// The output's first pixel and count along the axis.
    let outputStart: Int, outputCount: Int
    private let taps: ResamplingTaps

    /// Resamples `input` along one axis to `outputSize` pixels; the output starts at
    /// `origin` and covers `inputLength` input pixels from `inputOffset` past the input's
    /// start (default: all of them).
    init(over input: PixelRect, horizontal: Bool, outputSize: Int, origin: Int, kernel: ResamplingKernel,
         inputLength: Double? = nil, inputOffset: Double = 0) {
        self.horizontal = horizontal
        self.kernel = kernel
        inputStart = horizontal ? input.x : input.y
        inputEnd = horizontal ? input.maxX : input.maxY
        outputStart = origin
        outputCount = outputSize
        taps = ResamplingTaps(kernel: kernel, inputCount: inputEnd - inputStart, outputCount: outputSize, offset: inputOffset,
                              length: inputLength)
    }

    var name: String { horizontal ? "resampleX" : "resampleY" }
    var description: String { "\(kernel) \(inputEnd - inputStart)→\(outputCount) at \(outputStart)" }

    func extent(inputs: [Rect]) -> Rect {
        let box = PixelRect(covering: inputs[0])
        return (horizontal ? PixelRect(x: outputStart, y: box.y, width: outputCount, height: box.height)
                           : PixelRect(x: box.x, y: outputStart, width: box.width, height: outputCount)).rect
    }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }
    var cachePolicy: CachePolicy { horizontal ? .never : .whenReused }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let first = (horizontal ? rect.x : rect.y) - outputStart
        let last = (horizontal ? rect.maxX : rect.maxY) - 1 - outputStart
        let lo = max(inputStart, inputStart + taps.starts[first])
        let hi = min(inputEnd - 1, inputStart + taps.starts[last] + taps.taps - 1)
        return horizontal ? PixelRect(x: lo, y: rect.y, width: hi - lo + 1, height: rect.height)
                          : PixelRect(x: rect.x, y: lo, width: rect.width, height: hi - lo + 1)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect
        let n = taps.taps
        let (lo, hi) = (inputStart, inputEnd - 1)
        let inputStart = inputStart, outputStart = outputStart, period = taps.period
        taps.weights.withUnsafeBufferPointer { weights in
            if horizontal {
                taps.starts.withUnsafeBufferPointer { starts in
                    let first = r.x - outputStart
                    let (starts, weights) = (starts.baseAddress! + first, weights.baseAddress! + first * n)
                    guard period == nil else {
                        for y in r.y..<r.maxY {
                            // Source pixels indexed from the input's start, as the taps are.
                            let source = input.row(y) - input.rect.x + inputStart
                            SeparableKernel.resampleRow(source, starts: starts, weights: weights, taps: n, lo: lo - inputStart,
                                                        hi: hi - inputStart, into: output.row(y), count: r.width, period: period)
                        }
                        return
                    }
                    // Every row at once: the vector kernel shares each output's weights among four.
                    SeparableKernel.resampleRows(input.row(r.y) - input.rect.x + inputStart, sourceStride: input.stride,
                                                 starts: starts, weights: weights, taps: n, lo: lo - inputStart, hi: hi - inputStart,
                                                 into: output.row(r.y), outStride: output.stride, count: r.width, rows: r.height)
                }
            } else {
                for y in r.y..<r.maxY {
                    let o = y - outputStart
                    let first = inputStart + taps.starts[o]
                    let w = UnsafeBufferPointer(rebasing: weights[(o * n)..<(o * n + n)])
                    SeparableKernel.convolveColumns(rowAt: { input.row(min(max(first + $0, lo), hi), from: r.x) },
                                                    weights: w, into: output.row(y), count: r.width)
                }
            }
        }
    }
}

/// A separable scale as the user built it; rendering lowers it to a horizontal and a
/// vertical `Resample1D` (and, over a JPEG, to a DCT-reduced source first).
struct ScaleKernel: ImageKernel {
    let scaleX: Double
    let scaleY: Double
    let kernel: ResamplingKernel

    var name: String { kernel == .lanczos3 ? "lanczosScale" : "bicubicScale" }

    func extent(inputs: [Rect]) -> Rect { Self.outputBox(PixelRect(covering: inputs[0]), scaleX, scaleY).rect }

    /// The largest side a scale may produce (2²⁰ pixels: past any pixel limit's side).
    static let maximumSide = 1 << 20

    /// Refuses a scale whose result would be wider or taller than `maximumSide`.
    static func checkSize(of extent: Rect, scaleX: Double, scaleY: Double, filter: String) throws {
        let width = extent.width * scaleX, height = extent.height * scaleY
        let origin = max(abs(extent.minX * scaleX), abs(extent.minY * scaleY))
        guard width <= Double(maximumSide), height <= Double(maximumSide), origin <= Double(1 << 40) else {
            throw LumenError.invalidValue(filter: filter, key: width > Double(maximumSide) ? "aspectRatio" : "scale",
                                          reason: "the result would be \(format(width))×\(format(height)) pixels; a side may be at most \(maximumSide)")
        }
    }

    /// Output box: (round(W·sx), round(H·sy)) at the scaled origin, at least one pixel.
    static func outputBox(_ box: PixelRect, _ sx: Double, _ sy: Double) -> PixelRect {
        PixelRect(x: Int((Double(box.x) * sx).rounded()), y: Int((Double(box.y) * sy).rounded()),
                  width: max(1, Int((Double(box.width) * sx).rounded())), height: max(1, Int((Double(box.height) * sy).rounded())))
    }

    /// The passes that compute `output` from `input` (the optimizer substitutes them).
    /// A shrink by 8 or more first averages k×k blocks (k = half the shrink, so the
    /// resampler still antialiases over at least two input pixels), as vipsthumbnail's
    /// shrink-then-reduce does: the cost then no longer grows with the factor. The
    /// blocks cover the input from its corner, its edges repeated into the last ones,
    /// and the resampler maps the input's exact span, so the geometry is unchanged.
    /// `span`: where the picture lies in `input`'s pixels along x and y (its start past the
    /// input's corner and its length), when not exactly on them: a source decoded at
    /// 1/r covers W/r of its ⌈W/r⌉ columns, and its rows from the top, so the bottom row (y
    /// = 0 in the working space) is the partial one.
    func separablePasses(over input: ImageNode, to output: PixelRect, span: Span? = nil) -> ImageNode {
        let box = input.pixelExtent
        let shrink = min(Double(box.width) / Double(output.width), Double(box.height) / Double(output.height))
        var source = input, sourceBox = box
        var span = span ?? Span(x: (0, Double(box.width)), y: (0, Double(box.height)))
        if shrink >= 8, !input.extent.isInfinite {
            let k = Int(shrink / 2)
            let grown = PixelRect(x: box.x, y: box.y, width: (box.width + k - 1) / k * k, height: (box.height + k - 1) / k * k)
            let clamped = ImageNode(ClampKernel(box: box), inputs: [input])
            source = ImageNode(BoxShrink(factor: k, region: grown, keepsPixels: false), inputs: [clamped])
            sourceBox = source.pixelExtent
            span = Span(x: (span.x.start / Double(k), span.x.length / Double(k)), y: (span.y.start / Double(k), span.y.length / Double(k)))
        }
        let across = ImageNode(Resample1D(over: sourceBox, horizontal: true, outputSize: output.width, origin: output.x,
                                          kernel: kernel, inputLength: span.x.length, inputOffset: span.x.start), inputs: [source])
        return ImageNode(Resample1D(over: across.pixelExtent, horizontal: false, outputSize: output.height, origin: output.y,
                                    kernel: kernel, inputLength: span.y.length, inputOffset: span.y.start), inputs: [across])
    }

    /// Where a picture lies in an input's pixels, per axis: start (past the input's corner) and length.
    struct Span {
        var x: (start: Double, length: Double)
        var y: (start: Double, length: Double)
    }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func render(_ destination: Destination, inputs: [Sampler]) throws {
        throw LumenError.unrenderable(reason: "\(name) renders through its two resampling passes")
    }
}

extension Resample1D: GeometricKernel {}

extension ScaleKernel: GeometricKernel {}
