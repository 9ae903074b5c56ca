extension FilterDescriptor {
    /// B(Cb, Cs) = Cb·Cs.
    static let multiplyBlendMode = blendMode("multiplyBlendMode", "CIMultiplyBlendMode", summary: "Multiplies the colors: darkens.", formula: "Cb·Cs") { b, s in
        b * s
    }
}
