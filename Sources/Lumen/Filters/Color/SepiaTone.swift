extension FilterDescriptor {
    /// M = (1 − k)·I + k·S with S the classic sepia matrix (rows 0.393 0.769 0.189 /
    /// 0.349 0.686 0.168 / 0.272 0.534 0.131) on unpremultiplied linear RGB.
    static let sepiaTone = FilterDescriptor(
        name: "sepiaTone", coreImageName: "CISepiaTone", category: .colorEffect,
        summary: "Tones the image brown, like an old photograph.",
        details: "(1 − intensity)·I + intensity·S, S the classic sepia matrix, linear RGB.",
        parameters: [.inputImage, .number("intensity", default: 1, min: 0, identity: 0, "0 unchanged, 1 full sepia.")]
    ) { args in
        let image = try args.image("image"), k = args.float("intensity")
        guard k != 0 else { return image }
        let s: [SIMD4<Float>] = [SIMD4(0.393, 0.769, 0.189, 0), SIMD4(0.349, 0.686, 0.168, 0), SIMD4(0.272, 0.534, 0.131, 0)]
        let i: [SIMD4<Float>] = [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0)]
        let rows = (0..<3).map { i[$0] * (1 - k) + s[$0] * k }
        return image.applyingColor(ColorMatrix(r: rows[0], g: rows[1], b: rows[2], a: SIMD4(0, 0, 0, 1), bias: .zero))
    }
}
