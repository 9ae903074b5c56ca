extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): saturation 0.55, blacks lifted: rgb·0.85 + 0.06.
    static let photoEffectFade = photoEffect("photoEffectFade", "CIPhotoEffectFade", summary: "Vintage film with faded color.", formula: "saturation 0.55, blacks lifted: rgb·0.85 + 0.06", matrix: PhotoEffectLook.look(saturation: 0.55, contrast: 1, gains: SIMD4(0.85, 0.85, 0.85, 0), lift: 0.06))
}
