extension FilterDescriptor {
    /// B(Cb, Cs) = |Cb − Cs|.
    static let differenceBlendMode = blendMode("differenceBlendMode", "CIDifferenceBlendMode", summary: "The absolute difference of the colors.", formula: "|Cb − Cs|") { b, s in
        let d = b - s
        return lanewiseMax(d, -d)
    }
}
