extension FilterDescriptor {
    /// The mean over a (2n+1)×(2n+1) square, n = round(radius); separable (two passes);
    /// extent outset by n; transparent outside the input.
    static let boxBlur = FilterDescriptor(
        name: "boxBlur", coreImageName: "CIBoxBlur", category: .blur,
        summary: "Averages each pixel with a square around it.",
        details: "Mean over a (2n+1)² square, n = round(radius); extent outset by n.",
        parameters: [.inputImage, .number("radius", .distance, default: 10, min: 1, max: 2000,
                                          "Half the side of the square, pixels (cost grows with it: at most 2000).")]
    ) { args in
        let image = try args.image("image")
        let n = Int(args.number("radius").rounded())
        let weights = [Float](repeating: 1 / Float(2 * n + 1), count: 2 * n + 1)
        let down = Convolve1D(horizontal: false, weights: weights).apply(to: [image])
        return Convolve1D(horizontal: true, weights: weights).apply(to: [down])
    }
}
