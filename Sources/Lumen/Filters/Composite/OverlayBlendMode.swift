extension FilterDescriptor {
    /// B(Cb, Cs) = Cb ≤ ½ ? 2·Cb·Cs : 1 − 2·(1 − Cb)·(1 − Cs).
    static let overlayBlendMode = blendMode("overlayBlendMode", "CIOverlayBlendMode", summary: "Multiplies or screens depending on the background.", formula: "Cb ≤ ½ ? 2·Cb·Cs : 1 − 2·(1 − Cb)·(1 − Cs)") { b, s in
        select(b .<= 0.5, 2 * b * s, 1 - 2 * (1 - b) * (1 - s))
    }
}
