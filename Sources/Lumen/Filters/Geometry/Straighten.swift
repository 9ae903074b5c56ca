import LumenPlatform

extension FilterDescriptor {
    /// Rotates by `angle` (counter-clockwise, radians) about the extent's centre and
    /// scales up by s = cos|θ| + max(w/h, h/w)·sin|θ| so no empty corners show, then crops
    /// to the original extent.
    static let straighten = FilterDescriptor(
        name: "straighten", coreImageName: "CIStraightenFilter", category: .geometryAdjustment,
        summary: "Rotates and zooms so the picture stays filled: straightens a tilted horizon.",
        details: "Rotate by angle about the centre, scale by cos|θ| + max(w/h, h/w)·sin|θ|, crop to the extent.",
        parameters: [.inputImage, .number("angle", .angle, default: 0, identity: 0, "Rotation in radians.")]
    ) { args in
        let image = try args.image("image"), angle = args.number("angle")
        guard angle != 0 else { return image }
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { throw LumenError.invalidValue(filter: "straighten", key: "image", reason: "needs a finite extent") }
        let s = cos(abs(angle)) + max(e.width / e.height, e.height / e.width) * sin(abs(angle))
        let transform = AffineTransform(translationX: -e.midX, y: -e.midY)
            .concatenating(AffineTransform(rotationAngle: angle))
            .concatenating(AffineTransform(scaleX: s, y: s))
            .concatenating(AffineTransform(translationX: e.midX, y: e.midY))
        return image.transformed(by: transform).cropped(to: e)
    }
}
