import LumenPlatform

extension FilterDescriptor {
    /// Core Image's `CISampleNearest` (`CIImage.samplingNearest()`): the pixels are
    /// unchanged, but a transform applied after it reads them nearest-neighbour instead
    /// of bilinearly — pixel art scaled up stays square. In Lumen the affine transform
    /// (`transformed(by:)`, `affineTransform`) honours it; other resamplers keep their own
    /// kernels.
    static let sampleNearest = FilterDescriptor(
        name: "sampleNearest", coreImageName: "CISampleNearest", category: .stylize,
        summary: "Makes the transforms that follow read the image nearest-neighbour.",
        details: "Pixels unchanged; a following affine transform samples in(⌊T⁻¹(p)⌋) instead of bilinearly.",
        parameters: [.inputImage]
    ) { args in try args.image("image").samplingNearest() }
}

/// The marker `samplingNearest()` leaves: the identity on pixels, which a transform
/// built on top of it replaces by nearest-neighbour sampling of its input.
struct NearestSampling: ImageKernel {
    var name: String { "sampleNearest" }
    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }
    func render(_ output: Destination, inputs: [Sampler]) { output.copy(from: inputs[0]) }
}

extension Image {
    /// The same pixels, read nearest-neighbour by the transforms applied to the result
    /// (Core Image's `samplingNearest()`).
    public func samplingNearest() -> Image {
        node.kernel is NearestSampling ? self : NearestSampling().apply(to: [self])
    }

    /// Transforms applied to the result sample bilinearly again (Core Image's
    /// `samplingLinear()`): undoes `samplingNearest()`.
    public func samplingLinear() -> Image { nearestSamplingSource ?? self }

    /// The image below a `samplingNearest()` marker, if this is one.
    var nearestSamplingSource: Image? {
        node.kernel is NearestSampling ? Image(node.inputs[0]) : nil
    }
}

extension NearestSampling: GeometricKernel {}
