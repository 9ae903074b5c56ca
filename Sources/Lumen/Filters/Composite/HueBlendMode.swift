extension FilterDescriptor {
    /// B(Cb, Cs) = SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb)) (PDF, luma 0.30/0.59/0.11).
    static let hueBlendMode = blendMode("hueBlendMode", "CIHueBlendMode", summary: "Hue of the source with saturation and luminosity of the background.", formula: "SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb)) (PDF, luma 0.30/0.59/0.11)") { b, s in
        NonSeparable.setLum(NonSeparable.setSat(s, NonSeparable.sat(b)), NonSeparable.lum(b))
    }
}
