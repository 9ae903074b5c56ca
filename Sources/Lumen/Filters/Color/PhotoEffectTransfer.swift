extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): saturation 1.1, warm gains (1.12, 1.02, 0.85).
    static let photoEffectTransfer = photoEffect("photoEffectTransfer", "CIPhotoEffectTransfer", summary: "Vintage film emphasising warm colors.", formula: "saturation 1.1, warm gains (1.12, 1.02, 0.85)", matrix: PhotoEffectLook.look(saturation: 1.1, contrast: 1, gains: SIMD4(1.12, 1.02, 0.85, 0), lift: 0.01))
}
