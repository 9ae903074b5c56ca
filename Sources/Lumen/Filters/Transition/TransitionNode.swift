import Foundation

/// What a transition filter builds for a time strictly between 0 and 1.
protocol TransitionEffect: Sendable {
    func makeNode(source: ImageNode, target: ImageNode) -> ImageNode
}

/// The per-row kernel of a transition: fills `count` pixels of row `y` from `x` from the
/// source and target tiles (which cover the output rect outset by `margin`).
protocol TransitionKernel: TransitionEffect {
    var name: String { get }
    /// Canonical parameter text (time included) for the node identity.
    var key: String { get }
    /// How far from an output pixel the kernel may sample (displacing transitions).
    var margin: Int { get }
    /// The part of the source the kernel reads for `rect` (default: `rect` outset by `margin`).
    func sourceRegion(for rect: PixelRect) -> PixelRect
    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Tile, target: Tile)
}

extension TransitionKernel {
    var margin: Int { 0 }

    func sourceRegion(for rect: PixelRect) -> PixelRect { rect.outset(dx: margin, dy: margin) }

    func makeNode(source: ImageNode, target: ImageNode) -> ImageNode {
        TransitionNode(source: source, target: target, kernel: self)
    }
}

/// A transition from `source` (time 0) to `target` (time 1); extent = union of both.
final class TransitionNode: ImageNode, @unchecked Sendable {
    let kernel: TransitionKernel

    init(source: ImageNode, target: ImageNode, kernel: TransitionKernel) {
        self.kernel = kernel
        super.init(kind: kernel.name, parameters: kernel.key, extent: source.extent.union(target.extent), inputs: [source, target])
    }

    override func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        index == 0 ? kernel.sourceRegion(for: rect) : rect.outset(dx: kernel.margin, dy: kernel.margin)
    }

    override func render(_ output: Tile, inputs: [Tile]) {
        let r = output.rect
        for y in r.y..<r.maxY { kernel.fill(output.row(y), x: r.x, y: y, count: r.width, source: inputs[0], target: inputs[1]) }
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode {
        TransitionNode(source: inputs[0], target: inputs[1], kernel: kernel)
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
            return Image(try kernel(args, Float(t)).makeNode(source: source.node, target: target.node))
        }
    }

    static let extentParameter: ParameterDescriptor = ParameterDescriptor("extent", .rectangle, default: .vector([0, 0, 300, 300]),
                                                     "The area the effect covers [x, y, w, h].")
}

@inline(__always)
func smoothstep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
    let t = min(max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
}

/// A deterministic hash of integer cell coordinates to 0..<1 (for patterned transitions).
@inline(__always)
func cellNoise(_ i: Int, _ j: Int) -> Float {
    var h = UInt64(bitPattern: Int64(i)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(j)) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= h >> 29
    h = h &* 0xBF58_476D_1CE4_E5B9
    h ^= h >> 32
    return Float(h >> 40) / Float(1 << 24)
}

/// The range of u = x·dx + y·dy over the corners of `extent` (where a sweep along
/// (dx, dy) enters and leaves it).
func projectionRange(of extent: Rect, dx: Float, dy: Float) -> (min: Float, max: Float) {
    let corners = [(extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY)]
    let u = corners.map { Float($0.0) * dx + Float($0.1) * dy }
    return (u.min()!, u.max()!)
}
