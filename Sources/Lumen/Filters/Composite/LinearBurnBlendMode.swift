extension FilterDescriptor {
    /// B(Cb, Cs) = max(0, Cb + Cs − 1).
    static let linearBurnBlendMode = blendMode("linearBurnBlendMode", "CILinearBurnBlendMode", summary: "Like color burn, stronger.", formula: "max(0, Cb + Cs − 1)") { b, s in
        lanewiseMax(.zero, b + s - 1)
    }
}
