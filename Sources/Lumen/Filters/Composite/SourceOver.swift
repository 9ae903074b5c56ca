extension FilterDescriptor {
    /// Porter–Duff source-over: S + D·(1 − αS), premultiplied; extent = union.
    static let sourceOver = FilterDescriptor(
        name: "sourceOver", coreImageName: "CISourceOverCompositing", category: .compositeOperation,
        summary: "Places the image over the background.",
        details: "S + D·(1 − αS) on premultiplied colors; extent = union of both.",
        parameters: [.inputImage, .backgroundImage]
    ) { args in try args.image("image").composited(over: args.image("backgroundImage")) }
}

struct SourceOver: CompositeOperation {
    var name: String { "sourceOver" }
    var isOpaqueOverOpaqueBackground: Bool { true }

    func apply(source: UnsafePointer<SIMD4<Float>>, background: UnsafePointer<SIMD4<Float>>,
               into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let s = source[i]
            out[i] = s + background[i] * (1 - s.w)
        }
    }
}

extension Image {
    /// This image over `background` (Porter–Duff source-over).
    public func composited(over background: Image) -> Image {
        SourceOver().apply(to: [self, background])
    }
}
