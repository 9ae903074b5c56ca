extension FilterDescriptor {
    static let constantColor = FilterDescriptor(
        name: "constantColor", coreImageName: "CIConstantColorGenerator", category: .generator,
        summary: "An infinite image of one color.",
        details: "Every pixel = color, converted to linear premultiplied; infinite extent.",
        parameters: [.color("color", default: .red, "The color.")]
    ) { args in Image(color: args.color("color")) }
}

struct ConstantColor: PixelGenerator {
    let color: Color
    /// Where the color is (infinite for `constantColor`).
    var bounds = Rect.infinite
    var name: String { "constantColor" }
    var isOpaque: Bool { color.alpha >= 1 }
    func extent(inputs: [Rect]) -> Rect { bounds }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        row.update(repeating: color.working, count: count)
    }
}

extension Image {
    /// An infinite image of one color (Core Image's `CIImage(color:)`).
    public init(color: Color) {
        self = ConstantColor(color: color).apply()
    }

    /// An image with no pixels (empty extent).
    public static let empty = ConstantColor(color: .clear, bounds: .zero).apply()
}
