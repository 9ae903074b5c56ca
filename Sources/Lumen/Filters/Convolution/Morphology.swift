import CKernels
import LumenPlatform

extension FilterDescriptor {
    /// Per-channel maximum over a disc: the pixels (x + i, y + j) with i² + j² ≤ r²,
    /// r = radius rounded to the nearest whole pixel. Premultiplied linear values; outside
    /// the input is transparent; the extent grows by r.
    static let morphologyMaximum = FilterDescriptor(
        name: "morphologyMaximum", coreImageName: "CIMorphologyMaximum", category: .blur,
        summary: "Grows bright areas: each channel's maximum over a disc.",
        details: "out = max over i² + j² ≤ r² of p(x + i, y + j) per channel, r = round(radius); extent outset by r.",
        parameters: [.inputImage, .number("radius", .distance, default: 0, min: 0, max: 1000, identity: 0, "Disc radius in pixels.")]
    ) { args in try morphology(args, .dilate, .disc(radius: args.number("radius"))) }

    /// Per-channel minimum over the same disc (outside the input counts as transparent,
    /// so edges erode); the extent stays the input's.
    static let morphologyMinimum = FilterDescriptor(
        name: "morphologyMinimum", coreImageName: "CIMorphologyMinimum", category: .blur,
        summary: "Grows dark areas: each channel's minimum over a disc.",
        details: "out = min over i² + j² ≤ r² of p(x + i, y + j) per channel, r = round(radius); outside the input is 0.",
        parameters: [.inputImage, .number("radius", .distance, default: 0, min: 0, max: 1000, identity: 0, "Disc radius in pixels.")]
    ) { args in try morphology(args, .erode, .disc(radius: args.number("radius"))) }

    /// Dilation minus erosion with the same disc: edges light up.
    static let morphologyGradient = FilterDescriptor(
        name: "morphologyGradient", coreImageName: "CIMorphologyGradient", category: .blur,
        summary: "Outlines edges: maximum minus minimum over a disc.",
        details: "out = max − min over i² + j² ≤ r² per channel, r = round(radius).",
        parameters: [.inputImage, .number("radius", .distance, default: 5, min: 0, max: 1000, "Disc radius in pixels.")]
    ) { args in
        let image = try args.image("image")
        let shape = Morphology.Shape.disc(radius: args.number("radius"))
        let grown = Morphology(operation: .dilate, shape: shape).apply(to: [image])
        let shrunk = Morphology(operation: .erode, shape: shape).apply(to: [image])
        return MorphologyDifference().apply(to: [grown, shrunk])
    }

    /// Per-channel maximum over a width × height rectangle centred on the pixel (even
    /// sizes round up to the next odd one, so it stays centred).
    static let morphologyRectangleMaximum = FilterDescriptor(
        name: "morphologyRectangleMaximum", coreImageName: "CIMorphologyRectangleMaximum", category: .blur,
        summary: "Grows bright areas: each channel's maximum over a rectangle.",
        details: "out = max over |i| ≤ w/2, |j| ≤ h/2 per channel (sizes made odd); extent outset.",
        parameters: [
            .inputImage,
            .number("width", .distance, default: 5, min: 1, max: 2001, identity: 1, "Width of the rectangle in pixels."),
            .number("height", .distance, default: 5, min: 1, max: 2001, identity: 1, "Height of the rectangle in pixels."),
        ]
    ) { args in try morphology(args, .dilate, .rectangle(width: args.number("width"), height: args.number("height"))) }

    /// Per-channel minimum over a width × height rectangle (sizes made odd).
    static let morphologyRectangleMinimum = FilterDescriptor(
        name: "morphologyRectangleMinimum", coreImageName: "CIMorphologyRectangleMinimum", category: .blur,
        summary: "Grows dark areas: each channel's minimum over a rectangle.",
        details: "out = min over |i| ≤ w/2, |j| ≤ h/2 per channel (sizes made odd); outside the input is 0.",
        parameters: [
            .inputImage,
            .number("width", .distance, default: 5, min: 1, max: 2001, identity: 1, "Width of the rectangle in pixels."),
            .number("height", .distance, default: 5, min: 1, max: 2001, identity: 1, "Height of the rectangle in pixels."),
        ]
    ) { args in try morphology(args, .erode, .rectangle(width: args.number("width"), height: args.number("height"))) }

    static func morphology(_ args: FilterArguments, _ operation: Morphology.Operation, _ shape: Morphology.Shape) throws -> Image {
        let image = try args.image("image")
        if shape.reach == (0, 0) { return image }
        return Morphology(operation: operation, shape: shape).apply(to: [image])
    }
}

/// Grey-scale dilation or erosion, per channel, with a disc or a rectangle. Each row of
/// the structuring element is a run. Elements up to `directReach` fold their rows' run
/// extrema directly, whole rows at a time (vector code in CKernels where the machine has
/// it); larger ones take each run's extremum in O(1) per pixel with the van Herk /
/// Gil–Werman prefix and suffix scans.
struct Morphology: ImageKernel {
    enum Operation: Hashable, Sendable { case dilate, erode }
    enum Shape: Hashable, Sendable {
        case disc(radius: Double)
        case rectangle(width: Double, height: Double)

        /// Half-widths of the element's rows, from j = −ry to ry.
        var runs: [Int] {
            switch self {
            case let .disc(radius):
                let r = Int(radius.rounded())
                return (-r...r).map { j in Int((Double(r * r - j * j)).squareRoot().rounded(.down)) }
            case let .rectangle(width, height):
                let rx = Int(width.rounded()) / 2, ry = Int(height.rounded()) / 2
                return [Int](repeating: rx, count: 2 * ry + 1)
            }
        }

        var reach: (Int, Int) {
            let runs = self.runs
            return (runs.max() ?? 0, runs.count / 2)
        }
    }

    let operation: Operation
    let shape: Shape

    var name: String { operation == .dilate ? "morphologyMaximum" : "morphologyMinimum" }
    var cachePolicy: CachePolicy { .whenReused }

    func extent(inputs: [Rect]) -> Rect {
        guard operation == .dilate, !inputs[0].isInfinite else { return inputs[0] }
        let (rx, ry) = shape.reach
        return inputs[0].insetBy(dx: -Double(rx), dy: -Double(ry))
    }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let (rx, ry) = shape.reach
        return rect.outset(dx: rx, dy: ry)
    }

    /// The largest reach taken by the direct fold (`runDirect`); larger elements go through
    /// van Herk (`run`), whose cost does not grow with the element. At this limit the fold is
    /// still the faster (2560×1600 photo, whole `lumen apply`: a 129×33 rectangle 1.26×, 9×33
    /// 1.13×, a radius-16 disc 2.3× faster than van Herk), but its ring grows with the element.
    static let directReach = (x: 64, y: 16)

    func render(_ destination: Destination, inputs: [Sampler]) { render(destination, inputs[0], level: .current) }

    /// At `level`: the levels give the same bits (`MorphologyLevelTests`).
    func render(_ destination: Destination, _ input: Sampler, level: InstructionSet) {
        let (rx, ry) = shape.reach, dilate = operation == .dilate
        if rx <= Self.directReach.x, ry <= Self.directReach.y {
            return runDirect(destination, input, dilate: dilate, level: level)
        }
        if dilate { run(destination, input, Maximum.self) } else { run(destination, input, Minimum.self) }
    }

    /// Small elements, folded directly: out(x, y) = H₋ᵣᵧ(x, y − ry) ⊕ … ⊕ H_ry(x, y + ry), in
    /// that order, where H_j is the extremum over row j's run, 2w + 1 pixels along the input
    /// row. H comes from a doubling table along the row (D₁ = p(x) ⊕ p(x + 1), D_{l+1}(x) =
    /// D_l(x) ⊕ D_l(x + 2^l)) in one more step, D_l(x − w) ⊕ D_l(x + w + 1 − 2^l) with
    /// 2^l ≤ 2w + 1 < 2^(l+1); each input row's H for every distinct run is kept in a ring of
    /// 2ry + 1 rows. ⌊log₂(2rx + 1)⌋ + (distinct runs above 0) + 1 passes over whole rows
    /// (`extremum`, vector code in CKernels) per input row: 7 for a radius-5 disc, the last
    /// folding 11 rows. The disc's dilation took half the time van Herk's per-pixel scans took.
    private func runDirect(_ destination: Destination, _ input: Sampler, dilate: Bool, level: InstructionSet) {
        let r = destination.rect, plan = DirectFold(runs: shape.runs), width = r.width
        let (rx, ry, widths, column, depth) = (plan.rx, plan.ry, plan.widths, plan.column, plan.depth)
        let span = 2 * ry + 1, longest = width + 2 * rx
        let table = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, depth) * longest)
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: span * widths.count * width)
        // h[slot · widths.count + c]: ring slot's H for widths[c] (for a run of 0, the input row itself).
        let h = UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>.allocate(capacity: span * widths.count)
        let fold = UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>.allocate(capacity: max(2, span))
        defer { table.deallocate(); ring.deallocate(); h.deallocate(); fold.deallocate() }
        for i in 0..<(r.height + 2 * ry) {
            let source = input.row(r.y - ry + i, from: r.x - rx)
            var previous = source
            for l in 0..<depth {  // D_{l+1} at table + l · longest, valid for longest − 2^(l+1) + 1 pixels
                let d = table + l * longest
                fold[0] = previous; fold[1] = previous + (1 << l)
                Self.extremum(fold, 2, into: d, count: longest - (2 << l) + 1, dilate: dilate, level: level)
                previous = UnsafePointer(d)
            }
            let slot = i % span
            for (c, w) in widths.enumerated() {
                if w == 0 { h[slot * widths.count + c] = source + rx; continue }
                let run = plan.run(w)
                let d = UnsafePointer(table + (run.level - 1) * longest), out = ring + (slot * widths.count + c) * width
                fold[0] = d + run.left; fold[1] = d + run.right
                Self.extremum(fold, 2, into: out, count: width, dilate: dilate, level: level)
                h[slot * widths.count + c] = UnsafePointer(out)
            }
            guard i >= 2 * ry else { continue }
            let o = i - 2 * ry
            for j in 0..<span { fold[j] = h[((o + j) % span) * widths.count + column[j]] }
            Self.extremum(fold, span, into: destination.row(r.y + o), count: width, dilate: dilate, level: level)
        }
    }

    /// The indices both direct folds follow (`runDirect` on floats, `MorphologyCodeRows` on
    /// codes), in pixels of an input row padded by rx on each side.
    struct DirectFold {
        let rx, ry: Int
        /// The distinct run half-widths, and each element row's (top first) index among them.
        let widths, column: [Int]
        /// Doubling steps: 2^depth ≤ 2rx + 1 < 2^(depth + 1).
        let depth: Int

        init(runs: [Int]) {
            rx = runs.max() ?? 0
            ry = runs.count / 2
            widths = Array(Set(runs)).sorted()
            column = runs.map { [widths] in widths.firstIndex(of: $0)! }
            var depth = 0
            while 2 << depth <= 2 * rx + 1 { depth += 1 }
            self.depth = depth
        }

        /// A run of half-width w > 0 from the doubling table D_level (2^level ≤ 2w + 1 <
        /// 2^(level + 1)): D_level at `left` ⊕ D_level at `right`, for output pixel 0.
        func run(_ w: Int) -> (level: Int, left: Int, right: Int) {
            var l = 1
            while 2 << l <= 2 * w + 1 { l += 1 }
            return (l, rx - w, rx + w + 1 - (1 << l))
        }
    }

    /// out[x] = rows[0][x] ⊕ rows[1][x] ⊕ … ⊕ rows[n − 1][x], folded in that order with
    /// `Maximum.combine` (dilate) or `Minimum.combine`; the same operation at every level,
    /// so the levels agree bit for bit (`VectorKernelTests`).
    @inline(__always)
    static func extremum(_ rows: UnsafePointer<UnsafePointer<SIMD4<Float>>>, _ n: Int, into out: UnsafeMutablePointer<SIMD4<Float>>,
                         count: Int, dilate: Bool, level: InstructionSet = .current) {
        guard count > 0, n > 0 else { return }
        if level > .baseline {
            let floatRows = UnsafeRawPointer(rows).assumingMemoryBound(to: UnsafePointer<Float>?.self)
            return CKernels_extremum(level.cLevel, dilate ? 1 : 0, floatRows, n,
                                     UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self), count)
        }
        if dilate { fold(rows, n, into: out, count: count, Maximum.self) } else { fold(rows, n, into: out, count: count, Minimum.self) }
    }

    @inline(__always)
    private static func fold<E: Extremum>(_ rows: UnsafePointer<UnsafePointer<SIMD4<Float>>>, _ n: Int,
                                          into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, _: E.Type) {
        out.initialize(from: rows[0], count: count)
        for k in 1..<n {
            let row = rows[k]
            for x in 0..<count { out[x] = E.combine(out[x], row[x]) }
        }
    }

    /// The element is a union of centred rectangles, one per distinct run half-width w,
    /// as tall as the rows whose run reaches w (discs and rectangles are convex). Each
    /// rectangle's extremum is separable: van Herk along the input rows (each row once per
    /// width, not once per output row), then van Herk down the columns. O(distinct widths)
    /// per pixel, whatever the radius. Inlined into `render` so each use has its concrete
    /// `Extremum` (left generic, every max was a call through a witness table: 8.7× libvips).
    @inline(__always)
    private func run<E: Extremum>(_ destination: Destination, _ input: Sampler, _: E.Type) {
        let r = destination.rect, runs = shape.runs, ry = runs.count / 2, width = r.width
        let widths = Array(Set(runs)).sorted()
        let longest = 2 * (runs.max() ?? 0) + width
        let rows = r.height + 2 * ry
        let prefix = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(longest, rows * width))
        let suffix = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(longest, rows * width))
        let horizontal = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: rows * width)
        defer { prefix.deallocate(); suffix.deallocate(); horizontal.deallocate() }
        for y in r.y..<r.maxY { destination.row(y).update(repeating: E.identity, count: width) }
        for w in widths {
            // Rows j whose run reaches w: |j − ry| ≤ v.
            let v = runs.indices.filter { runs[$0] >= w }.map { Swift.abs($0 - ry) }.max() ?? 0
            let count = r.height + 2 * v
            for k in 0..<count {
                let source = input.row(r.y - v + k, from: r.x - w)
                slidingExtremum(source, window: 2 * w + 1, count: width, into: horizontal + k * width, prefix: prefix, suffix: suffix, E.self)
            }
            // Down the columns: out row i = extremum of horizontal rows i…i + 2v (whole rows at a time).
            let k = 2 * v + 1
            var start = 0
            while start < count {
                let end = min(start + k, count)
                (prefix + start * width).update(from: horizontal + start * width, count: width)
                for j in (start + 1)..<max(start + 1, end) {
                    let g = prefix + j * width, previous = prefix + (j - 1) * width, h = horizontal + j * width
                    for x in 0..<width { g[x] = E.combine(previous[x], h[x]) }
                }
                (suffix + (end - 1) * width).update(from: horizontal + (end - 1) * width, count: width)
                var j = end - 2
                while j >= start {
                    let s = suffix + j * width, next = suffix + (j + 1) * width, h = horizontal + j * width
                    for x in 0..<width { s[x] = E.combine(next[x], h[x]) }
                    j -= 1
                }
                start = end
            }
            for i in 0..<r.height {
                let out = destination.row(r.y + i), s = suffix + i * width, g = prefix + (i + k - 1) * width
                for x in 0..<width { out[x] = E.combine(out[x], E.combine(s[x], g[x])) }
            }
        }
    }
}

protocol Extremum {
    static var identity: SIMD4<Float> { get }
    static func combine(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float>
}
enum Maximum: Extremum {
    static var identity: SIMD4<Float> { SIMD4(repeating: -.infinity) }
    // One compare and a blend (maxps): a NaN in `b` is passed over, one in `a` kept. The
    // exact `lanewiseMax`, which passes over both, costs a second compare: 1.5× here.
    @inline(__always) static func combine(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: a .< b) }
}
enum Minimum: Extremum {
    static var identity: SIMD4<Float> { SIMD4(repeating: .infinity) }
    @inline(__always) static func combine(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }
}

/// out[i] = extremum of source[i ..< i + window] for i in 0..<count (van Herk / Gil–Werman:
/// prefix extrema within blocks of `window`, suffix extrema within the same blocks).
@inline(__always)
func slidingExtremum<E: Extremum>(_ source: UnsafePointer<SIMD4<Float>>, window k: Int, count: Int,
                                  into out: UnsafeMutablePointer<SIMD4<Float>>,
                                  prefix g: UnsafeMutablePointer<SIMD4<Float>>, suffix h: UnsafeMutablePointer<SIMD4<Float>>, _: E.Type) {
    if k == 1 { out.update(from: source, count: count); return }
    let n = count + k - 1
    var i = 0
    while i < n {
        let end = min(i + k, n)
        g[i] = source[i]
        for j in (i + 1)..<max(i + 1, end) { g[j] = E.combine(g[j - 1], source[j]) }
        h[end - 1] = source[end - 1]
        var j = end - 2
        while j >= i { h[j] = E.combine(h[j + 1], source[j]); j -= 1 }
        i = end
    }
    for x in 0..<count { out[x] = E.combine(h[x], g[x + k - 1]) }
}

/// Dilation minus erosion.
struct MorphologyDifference: ImageKernel {
    var name: String { "morphologyGradient" }
    func render(_ destination: Destination, inputs: [Sampler]) {
        destination.forEachRow { y, row, count in
            let a = inputs[0].row(y, from: destination.rect.x), b = inputs[1].row(y, from: destination.rect.x)
            for i in 0..<count { row[i] = a[i] - b[i] }
        }
    }
}

