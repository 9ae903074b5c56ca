extension FilterDescriptor {
    /// B(Cb, Cs) = Cb + Cs − 2·Cb·Cs.
    static let exclusionBlendMode = blendMode("exclusionBlendMode", "CIExclusionBlendMode", summary: "Like difference, with lower contrast.", formula: "Cb + Cs − 2·Cb·Cs") { b, s in
        b + s - 2 * b * s
    }
}
