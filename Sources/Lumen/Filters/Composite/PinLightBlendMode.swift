extension FilterDescriptor {
    /// B(Cb, Cs) = Cs ≤ ½ ? min(Cb, 2Cs) : max(Cb, 2Cs − 1).
    static let pinLightBlendMode = blendMode("pinLightBlendMode", "CIPinLightBlendMode", summary: "Replaces the background depending on the source's brightness.", formula: "Cs ≤ ½ ? min(Cb, 2Cs) : max(Cb, 2Cs − 1)") { b, s in
        select(s .<= 0.5, lanewiseMin(b, 2 * s), lanewiseMax(b, 2 * s - 1))
    }
}
