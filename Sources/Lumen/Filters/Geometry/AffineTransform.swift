import LumenPlatform

extension FilterDescriptor {
    static let affineTransform = FilterDescriptor(
        name: "affineTransform", coreImageName: "CIAffineTransform", category: .geometryAdjustment,
        summary: "Applies an affine transform (scale, rotate, translate, shear) with bilinear sampling.",
        details: "Output pixel p samples the input at T⁻¹(p); extent = bounding box of T(extent).",
        parameters: [
            .inputImage,
            ParameterDescriptor("transform", .transform, default: .transform(.identity), identity: .transform(.identity),
                                "The transform [a, b, c, d, tx, ty] (x' = a·x + c·y + tx, y' = b·x + d·y + ty)."),
        ]
    ) { args in try args.image("image").transformed(by: args.transform("transform")) }
}

/// The input mapped through an affine transform, sampled bilinearly at T⁻¹ of each
/// output pixel centre (or at the pixel containing it, `nearest`). Integer translations
/// copy pixels exactly.
struct AffineKernel: ImageKernel {
    let transform: AffineTransform
    /// Nearest-neighbour reads (the input was marked `samplingNearest()`).
    let nearest: Bool
    private let inverse: AffineTransform

    init(_ transform: AffineTransform, nearest: Bool = false) {
        self.transform = transform
        self.nearest = nearest
        self.inverse = transform.inverted() ?? .identity
    }

    var name: String { nearest ? "affineTransform (nearest)" : "affineTransform" }
    func extent(inputs: [Rect]) -> Rect { inputs[0].applying(transform) }

    var integerTranslation: (Int, Int)? {
        guard transform.a == 1, transform.b == 0, transform.c == 0, transform.d == 1,
              transform.tx == transform.tx.rounded(), transform.ty == transform.ty.rounded(),
              abs(transform.tx) < 1e15, abs(transform.ty) < 1e15 else { return nil }
        return (Int(transform.tx), Int(transform.ty))
    }

    func isOpaque(inputs: [Image]) -> Bool { integerTranslation != nil && inputs[0].isOpaque }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        if let (dx, dy) = integerTranslation { return PixelRect(x: rect.x - dx, y: rect.y - dy, width: rect.width, height: rect.height) }
        return PixelRect(covering: rect.rect.applying(inverse)).outset(dx: 1, dy: 1)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0]
        let r = output.rect
        if let (dx, dy) = integerTranslation {
            for y in r.y..<r.maxY { output.row(y).update(from: input.row(y - dy, from: r.x - dx), count: r.width) }
            return
        }
        let t = inverse
        if nearest {
            for y in r.y..<r.maxY {
                let out = output.row(y), cy = Double(y) + 0.5
                for i in 0..<r.width {
                    let cx = Double(r.x + i) + 0.5
                    let u = (t.a * cx + t.c * cy + t.tx).rounded(.down), v = (t.b * cx + t.d * cy + t.ty).rounded(.down)
                    // Far outside any tile (and any Int) reads clear.
                    out[i] = Swift.abs(u) < 1e15 && Swift.abs(v) < 1e15 ? input.pixelOrClear(Int(u), Int(v)) : .zero
                }
            }
            return
        }
        for y in r.y..<r.maxY {
            let out = output.row(y)
            let cy = Double(y) + 0.5
            for i in 0..<r.width {
                let cx = Double(r.x + i) + 0.5
                let u = t.a * cx + t.c * cy + t.tx - 0.5, v = t.b * cx + t.d * cy + t.ty - 0.5
                out[i] = input.bilinear(u, v)
            }
        }
    }
}

extension Image {
    /// The image mapped through `transform` (bilinear sampling; nearest-neighbour after
    /// `samplingNearest()`). Consecutive transforms fold into one when rendering.
    public func transformed(by transform: AffineTransform) -> Image {
        if transform.isIdentity { return self }
        if let source = nearestSamplingSource { return AffineKernel(transform, nearest: true).apply(to: [source]) }
        return AffineKernel(transform).apply(to: [self])
    }
}

extension AffineKernel: GeometricKernel {}
