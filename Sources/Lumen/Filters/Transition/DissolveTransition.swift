extension FilterDescriptor {
    /// out = S·(1 − t) + T·t on premultiplied colors; exactly S at t = 0 and T at t = 1;
    /// extent = union of both.
    static let dissolveTransition = FilterDescriptor(
        name: "dissolveTransition", coreImageName: "CIDissolveTransition", category: .transition,
        summary: "Fades from the image to the target image.",
        details: "out = S·(1 − t) + T·t (premultiplied); t = 0 gives S, t = 1 gives T; extent = S ∪ T.",
        parameters: [.inputImage, .targetImage, .time]
    ) { args in
        let source = try args.image("image"), target = try args.image("targetImage")
        let t = args.number("time")
        if t == 0 { return source }
        if t == 1 { return target }
        return Dissolve(time: Float(t)).apply(to: [source, target])
    }
}

/// The dissolve as a composite: `source` is the image, `background` the target.
struct Dissolve: CompositeOperation {
    let time: Float
    var name: String { "dissolveTransition" }

    func apply(source: UnsafePointer<SIMD4<Float>>, background: UnsafePointer<SIMD4<Float>>,
               into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count { out[i] = source[i] + (background[i] - source[i]) * time }
    }
}
