extension FilterDescriptor {
    /// Lumen's rendition of Apple's look (a fixed color matrix): gray = Rec. 709 luma.
    static let photoEffectTonal = photoEffect("photoEffectTonal", "CIPhotoEffectTonal", summary: "Black and white with contrast unchanged.", formula: "gray = Rec. 709 luma", matrix: PhotoEffectLook.mono(contrast: 1))
}
