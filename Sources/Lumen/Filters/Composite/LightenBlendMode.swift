extension FilterDescriptor {
    /// B(Cb, Cs) = max(Cb, Cs).
    static let lightenBlendMode = blendMode("lightenBlendMode", "CILightenBlendMode", summary: "Keeps the lighter of the two colors.", formula: "max(Cb, Cs)") { b, s in
        lanewiseMax(b, s)
    }
}
