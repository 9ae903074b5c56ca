extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): saturation 1.35, contrast 1.1.
    static let photoEffectChrome = photoEffect("photoEffectChrome", "CIPhotoEffectChrome", summary: "Vintage film with exaggerated color.", formula: "saturation 1.35, contrast 1.1", matrix: PhotoEffectLook.look(saturation: 1.35, contrast: 1.1, gains: SIMD4(1, 1, 1, 0), lift: 0))
}
