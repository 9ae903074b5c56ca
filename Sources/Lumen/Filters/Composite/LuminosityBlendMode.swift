extension FilterDescriptor {
    /// B(Cb, Cs) = SetLum(Cb, Lum(Cs)).
    static let luminosityBlendMode = blendMode("luminosityBlendMode", "CILuminosityBlendMode", summary: "Luminosity of the source with hue and saturation of the background.", formula: "SetLum(Cb, Lum(Cs))") { b, s in
        NonSeparable.setLum(b, NonSeparable.lum(s))
    }
}
