extension FilterDescriptor {
    /// B(Cb, Cs) = clamp(Cb + 2Cs − 1, 0, 1).
    static let linearLightBlendMode = blendMode("linearLightBlendMode", "CILinearLightBlendMode", summary: "Linear burn or dodge by the source.", formula: "clamp(Cb + 2Cs − 1, 0, 1)") { b, s in
        (b + 2 * s - 1).lanewiseClamped(.zero, SIMD4(repeating: 1))
    }
}
