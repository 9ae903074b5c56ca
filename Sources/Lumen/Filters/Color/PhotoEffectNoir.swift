extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): gray = luma, then contrast 1.6 around 0.18 (linear mid-gray).
    static let photoEffectNoir = photoEffect("photoEffectNoir", "CIPhotoEffectNoir", summary: "Black and white with exaggerated contrast.", formula: "gray = luma, then contrast 1.6 around 0.18 (linear mid-gray)", matrix: PhotoEffectLook.mono(contrast: 1.6, pivot: 0.18))
}
