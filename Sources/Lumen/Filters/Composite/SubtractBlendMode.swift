extension FilterDescriptor {
    /// B(Cb, Cs) = max(0, Cb − Cs).
    static let subtractBlendMode = blendMode("subtractBlendMode", "CISubtractBlendMode", summary: "Subtracts the source from the background.", formula: "max(0, Cb − Cs)") { b, s in
        lanewiseMax(.zero, b - s)
    }
}
