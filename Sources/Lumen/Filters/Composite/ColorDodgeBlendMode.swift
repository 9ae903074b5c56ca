extension FilterDescriptor {
    /// B(Cb, Cs) = Cb = 0 ? 0 : Cs ≥ 1 ? 1 : min(1, Cb/(1 − Cs)).
    static let colorDodgeBlendMode = blendMode("colorDodgeBlendMode", "CIColorDodgeBlendMode", summary: "Brightens the background to reflect the source.", formula: "Cb = 0 ? 0 : Cs ≥ 1 ? 1 : min(1, Cb/(1 − Cs))") { b, s in
        select(b .<= 0, .zero, select(s .>= 1, SIMD4(repeating: 1), lanewiseMin(SIMD4(repeating: 1), b / (1 - s))))
    }
}
