extension FilterDescriptor {
    /// B(Cb, Cs) = Cb + Cs − Cb·Cs.
    static let screenBlendMode = blendMode("screenBlendMode", "CIScreenBlendMode", summary: "Inverse of multiply: lightens.", formula: "Cb + Cs − Cb·Cs") { b, s in
        b + s - b * s
    }
}
