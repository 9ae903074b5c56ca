extension FilterDescriptor {
    /// B(Cb, Cs) = Cs ≤ ½ ? burn(Cb, 2Cs) : dodge(Cb, 2Cs − 1).
    static let vividLightBlendMode = blendMode("vividLightBlendMode", "CIVividLightBlendMode", summary: "Burns or dodges by the source's contrast.", formula: "Cs ≤ ½ ? burn(Cb, 2Cs) : dodge(Cb, 2Cs − 1)") { b, s in
        select(s .<= 0.5, select(b .>= 1, SIMD4(repeating: 1), select(s .<= 0, .zero, 1 - lanewiseMin(SIMD4(repeating: 1), (1 - b) / (2 * s)))), select(b .<= 0, .zero, select(s .>= 1, SIMD4(repeating: 1), lanewiseMin(SIMD4(repeating: 1), b / (2 - 2 * s)))))
    }
}
