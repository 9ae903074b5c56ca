extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): gray = Rec. 709 luma, then contrast 0.85 around 0.5 (linear).
    static let photoEffectMono = photoEffect("photoEffectMono", "CIPhotoEffectMono", summary: "Black and white with low contrast.", formula: "gray = Rec. 709 luma, then contrast 0.85 around 0.5 (linear)", matrix: PhotoEffectLook.mono(contrast: 0.85))
}
