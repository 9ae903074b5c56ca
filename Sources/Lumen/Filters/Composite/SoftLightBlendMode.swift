extension FilterDescriptor {
    /// B(Cb, Cs) = Cs ≤ ½ ? Cb − (1 − 2Cs)·Cb·(1 − Cb) : Cb + (2Cs − 1)·(D(Cb) − Cb), D(x) = x ≤ ¼ ? ((16x − 12)x + 4)x : √x.
    static let softLightBlendMode = blendMode("softLightBlendMode", "CISoftLightBlendMode", summary: "Darkens or lightens softly depending on the source.", formula: "Cs ≤ ½ ? Cb − (1 − 2Cs)·Cb·(1 − Cb) : Cb + (2Cs − 1)·(D(Cb) − Cb), D(x) = x ≤ ¼ ? ((16x − 12)x + 4)x : √x") { b, s in
        select(s .<= 0.5, b - (1 - 2 * s) * b * (1 - b), b + (2 * s - 1) * (select(b .<= 0.25, ((16 * b - 12) * b + 4) * b, b.squareRoot()) - b))
    }
}
