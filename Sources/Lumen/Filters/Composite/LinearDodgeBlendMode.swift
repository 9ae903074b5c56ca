extension FilterDescriptor {
    /// B(Cb, Cs) = min(1, Cb + Cs).
    static let linearDodgeBlendMode = blendMode("linearDodgeBlendMode", "CILinearDodgeBlendMode", summary: "Adds the colors.", formula: "min(1, Cb + Cs)") { b, s in
        lanewiseMin(SIMD4(repeating: 1), b + s)
    }
}
