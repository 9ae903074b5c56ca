extension FilterDescriptor {
    /// B(Cb, Cs) = Cb = 1 ? 1 : Cs ≤ 0 ? 0 : 1 − min(1, (1 − Cb)/Cs).
    static let colorBurnBlendMode = blendMode("colorBurnBlendMode", "CIColorBurnBlendMode", summary: "Darkens the background to reflect the source.", formula: "Cb = 1 ? 1 : Cs ≤ 0 ? 0 : 1 − min(1, (1 − Cb)/Cs)") { b, s in
        select(b .>= 1, SIMD4(repeating: 1), select(s .<= 0, .zero, 1 - lanewiseMin(SIMD4(repeating: 1), (1 - b) / s)))
    }
}
