extension FilterDescriptor {
    /// B(Cb, Cs) = Cs ≤ ½ ? 2·Cb·Cs : 1 − 2·(1 − Cb)·(1 − Cs).
    static let hardLightBlendMode = blendMode("hardLightBlendMode", "CIHardLightBlendMode", summary: "Multiplies or screens depending on the source.", formula: "Cs ≤ ½ ? 2·Cb·Cs : 1 − 2·(1 − Cb)·(1 − Cs)") { b, s in
        select(s .<= 0.5, 2 * b * s, 1 - 2 * (1 - b) * (1 - s))
    }
}
