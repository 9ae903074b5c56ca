import Foundation

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
/// output pixel centre. Integer translations copy pixels exactly.
final class AffineNode: ImageNode, @unchecked Sendable {
    let transform: AffineTransform
    private let inverse: AffineTransform

    init(_ input: ImageNode, transform: AffineTransform) {
        self.transform = transform
        self.inverse = transform.inverted() ?? .identity
        super.init(kind: "affineTransform", parameters: transform.description,
                   extent: input.extent.applying(transform), inputs: [input])
    }

    private var integerTranslation: (Int, Int)? {
        guard transform.a == 1, transform.b == 0, transform.c == 0, transform.d == 1,
              transform.tx == transform.tx.rounded(), transform.ty == transform.ty.rounded() else { return nil }
        return (Int(transform.tx), Int(transform.ty))
    }

    override var isOpaque: Bool { integerTranslation != nil && inputs[0].isOpaque }

    override func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        if let (dx, dy) = integerTranslation { return PixelRect(x: rect.x - dx, y: rect.y - dy, width: rect.width, height: rect.height) }
        return PixelRect(covering: rect.rect.applying(inverse)).outset(dx: 1, dy: 1)
    }

    override func render(_ output: Tile, inputs: [Tile]) {
        let input = inputs[0]
        let r = output.rect
        if let (dx, dy) = integerTranslation {
            for y in r.y..<r.maxY { output.row(y).update(from: input.row(y - dy) + (r.x - dx - input.rect.x), count: r.width) }
            return
        }
        let t = inverse
        for y in r.y..<r.maxY {
            let out = output.row(y)
            let cy = Double(y) + 0.5
            for i in 0..<r.width {
                let cx = Double(r.x + i) + 0.5
                let u = t.a * cx + t.c * cy + t.tx - 0.5, v = t.b * cx + t.d * cy + t.ty - 0.5
                out[i] = Self.bilinear(input, u, v)
            }
        }
    }

    /// Bilinear sample with pixel centres at integer + 0.5 (u, v already shifted by −0.5).
    @inline(__always)
    static func bilinear(_ tile: Tile, _ u: Double, _ v: Double) -> SIMD4<Float> {
        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
        let fx = Float(u - Double(x0)), fy = Float(v - Double(y0))
        let top = tile.pixelOrClear(x0, y0) * (1 - fx) + tile.pixelOrClear(x0 + 1, y0) * fx
        let bottom = tile.pixelOrClear(x0, y0 + 1) * (1 - fx) + tile.pixelOrClear(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    override func replacingInputs(_ inputs: [ImageNode]) -> ImageNode { AffineNode(inputs[0], transform: transform) }
}

extension Image {
    /// The image mapped through `transform` (bilinear sampling). Consecutive transforms
    /// fold into one when rendering.
    public func transformed(by transform: AffineTransform) -> Image {
        transform.isIdentity ? self : Image(AffineNode(node, transform: transform))
    }
}
