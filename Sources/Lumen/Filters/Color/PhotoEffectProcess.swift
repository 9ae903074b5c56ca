extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): saturation 0.9, cool gains (0.9, 1.0, 1.12), contrast 1.05.
    static let photoEffectProcess = photoEffect("photoEffectProcess", "CIPhotoEffectProcess", summary: "Vintage film emphasising cool colors.", formula: "saturation 0.9, cool gains (0.9, 1.0, 1.12), contrast 1.05", matrix: PhotoEffectLook.look(saturation: 0.9, contrast: 1.05, gains: SIMD4(0.9, 1, 1.12, 0), lift: 0.02))
}
