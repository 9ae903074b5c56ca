extension FilterDescriptor {
    /// B(Cb, Cs) = SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb)).
    static let saturationBlendMode = blendMode("saturationBlendMode", "CISaturationBlendMode", summary: "Saturation of the source with hue and luminosity of the background.", formula: "SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb))") { b, s in
        NonSeparable.setLum(NonSeparable.setSat(b, NonSeparable.sat(s)), NonSeparable.lum(b))
    }
}
