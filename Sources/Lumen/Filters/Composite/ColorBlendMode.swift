extension FilterDescriptor {
    /// B(Cb, Cs) = SetLum(Cs, Lum(Cb)).
    static let colorBlendMode = blendMode("colorBlendMode", "CIColorBlendMode", summary: "Hue and saturation of the source with luminosity of the background.", formula: "SetLum(Cs, Lum(Cb))") { b, s in
        NonSeparable.setLum(s, NonSeparable.lum(b))
    }
}
