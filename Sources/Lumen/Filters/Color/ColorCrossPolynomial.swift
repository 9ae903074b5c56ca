import LumenPlatform

extension FilterDescriptor {
    /// c' = Σ coefficients·(r, g, b, r², g², b², rg, gb, br, 1) per output channel,
    /// unpremultiplied linear; alpha unchanged.
    static let colorCrossPolynomial = FilterDescriptor(
        name: "colorCrossPolynomial", coreImageName: "CIColorCrossPolynomial", category: .colorEffect,
        summary: "Maps each color through a second-order polynomial of all three components.",
        details: "r' = R·(r, g, b, r², g², b², rg, gb, br, 1), likewise g', b'; unpremultiplied linear; alpha unchanged.",
        parameters: [
            .inputImage,
            ParameterDescriptor("redCoefficients", .vector, default: .vector([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), "10 weights for red."),
            ParameterDescriptor("greenCoefficients", .vector, default: .vector([0, 1, 0, 0, 0, 0, 0, 0, 0, 0]), "10 weights for green."),
            ParameterDescriptor("blueCoefficients", .vector, default: .vector([0, 0, 1, 0, 0, 0, 0, 0, 0, 0]), "10 weights for blue."),
        ]
    ) { args in
        let rows = try ["redCoefficients", "greenCoefficients", "blueCoefficients"].map { key -> [Float] in
            let v = args.vector(key)
            guard v.count == 10 else { throw LumenError.invalidValue(filter: "colorCrossPolynomial", key: key, reason: "expected 10 numbers, got \(v.count)") }
            return v.map(Float.init)
        }
        return try args.image("image").applyingColor(CrossPolynomial(red: rows[0], green: rows[1], blue: rows[2]))
    }
}

/// Ten-term cross polynomial per output channel (weights in the first 10 lanes).
struct CrossPolynomial: ColorOperation {
    var name: String { "colorCrossPolynomial" }
    let red: SIMD16<Float>, green: SIMD16<Float>, blue: SIMD16<Float>

    init(red: [Float], green: [Float], blue: [Float]) {
        func lanes(_ v: [Float]) -> SIMD16<Float> { var s = SIMD16<Float>(); for (i, x) in v.prefix(10).enumerated() { s[i] = x }; return s }
        self.red = lanes(red)
        self.green = lanes(green)
        self.blue = lanes(blue)
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            let terms = SIMD16<Float>(p.x, p.y, p.z, p.x * p.x, p.y * p.y, p.z * p.z, p.x * p.y, p.y * p.z, p.z * p.x, 1, 0, 0, 0, 0, 0, 0)
            row[i] = SIMD4((red * terms).sum(), (green * terms).sum(), (blue * terms).sum(), p.w)
        }
    }
}
