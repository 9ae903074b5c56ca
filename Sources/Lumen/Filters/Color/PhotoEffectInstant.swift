extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): saturation 0.8, warm gains (1.06, 1.0, 0.86), blacks lifted by 0.04.
    static let photoEffectInstant = photoEffect("photoEffectInstant", "CIPhotoEffectInstant", summary: "Vintage instant film with shifted colors.", formula: "saturation 0.8, warm gains (1.06, 1.0, 0.86), blacks lifted by 0.04", matrix: PhotoEffectLook.look(saturation: 0.8, contrast: 0.95, gains: SIMD4(1.06, 1, 0.86, 0), lift: 0.04))
}
