extension FilterDescriptor {
    /// B(Cb, Cs) = min(Cb, Cs).
    static let darkenBlendMode = blendMode("darkenBlendMode", "CIDarkenBlendMode", summary: "Keeps the darker of the two colors.", formula: "min(Cb, Cs)") { b, s in
        lanewiseMin(b, s)
    }
}
