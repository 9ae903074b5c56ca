extension FilterDescriptor {
    /// B(Cb, Cs) = Cs = 0 ? (Cb > 0 ? 1 : 0) : min(1, Cb/Cs).
    static let divideBlendMode = blendMode("divideBlendMode", "CIDivideBlendMode", summary: "Divides the background by the source.", formula: "Cs = 0 ? (Cb > 0 ? 1 : 0) : min(1, Cb/Cs)") { b, s in
        select(s .<= 0, select(b .> 0, SIMD4(repeating: 1), .zero), lanewiseMin(SIMD4(repeating: 1), b / s))
    }
}
