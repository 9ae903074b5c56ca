import LumenPlatform

/// What a transition filter builds for a time strictly between 0 and 1.
protocol TransitionEffect: Sendable {
    func makeImage(source: Image, target: Image) -> Image
}

/// The per-row kernel of a transition over source (input 0) and target (input 1):
/// fills `count` pixels of row `y` from `x` from the source and target samplers (which
/// cover the output rect outset by `margin`). Extent = union of both.
protocol TransitionKernel: TransitionEffect, ImageKernel {
    /// How far from an output pixel the kernel may sample (displacing transitions).
    var margin: Int { get }
    /// The part of the source the kernel reads for `rect` (default: `rect` outset by `margin`).
    func sourceRegion(for rect: PixelRect) -> PixelRect
    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler)
}

extension TransitionKernel {
    var margin: Int { 0 }

    func sourceRegion(for rect: PixelRect) -> PixelRect { rect.outset(dx: margin, dy: margin) }

    func makeImage(source: Image, target: Image) -> Image { apply(to: [source, target]) }

    func extent(inputs: [Rect]) -> Rect { inputs[0].union(inputs[1]) }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        index == 0 ? sourceRegion(for: rect) : rect.outset(dx: margin, dy: margin)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        output.forEachRow { y, row, count in
            fill(row, x: output.rect.x, y: y, count: count, source: inputs[0], target: inputs[1])
        }
    }
}

extension FilterDescriptor {
    /// The declaration shared by transitions: image, targetImage, time, then `parameters`.
    /// Time 0 returns the image itself and time 1 the target, exactly.
    static func transition(_ name: String, _ coreImageName: String, summary: String, details: String,
                           parameters: [ParameterDescriptor],
                           kernel: @escaping @Sendable (FilterArguments, Float) throws -> TransitionEffect) -> FilterDescriptor {
        FilterDescriptor(name: name, coreImageName: coreImageName, category: .transition, summary: summary,
                         details: details + " Time 0 gives the image, time 1 the target.",
                         parameters: [.inputImage, .targetImage, .time] + parameters) { args in
            let source = try args.image("image"), target = try args.image("targetImage")
            let t = args.number("time")
            if t <= 0 { return source }
            if t >= 1 { return target }
            return try kernel(args, Float(t)).makeImage(source: source, target: target)
        }
    }

    static let extentParameter: ParameterDescriptor = ParameterDescriptor("extent", .rectangle, default: .vector([0, 0, 300, 300]),
                                                     "The area the effect covers [x, y, w, h].")
}

/// Core Image's optional shading image for the ripple and page-curl transitions: its
/// row through the middle of its extent, read left to right as the light across the
/// wave or the curl (phase 0…1 → linear luma). Without a finite, non-empty image the
/// transition uses its own formula.
struct ShadingRow: Hashable, Sendable {
    let row: PixelRect?

    init(_ image: Image) {
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { row = nil; return }
        let box = PixelRect(covering: e)
        row = PixelRect(x: box.x, y: box.y + box.height / 2, width: box.width, height: 1)
    }

    /// The pixels read, whatever the output rectangle.
    var regionOfInterest: PixelRect { row ?? .empty }

    /// The light at `phase` (0…1), or nil when there is no shading image.
    func light(_ shading: Sampler, phase: Float) -> Float? {
        guard let row else { return nil }
        let x = row.x + Int((min(max(phase, 0), 1) * Float(row.width - 1)).rounded())
        return (shading.pixelOrClear(x, row.y) * lumaWeights).sum()
    }
}

/// The range of u = x·dx + y·dy over the corners of `extent` (where a sweep along
/// (dx, dy) enters and leaves it).
func projectionRange(of extent: Rect, dx: Float, dy: Float) -> (min: Float, max: Float) {
    let corners = [(extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY)]
    let u = corners.map { Float($0.0) * dx + Float($0.1) * dy }
    return (u.min()!, u.max()!)
}
