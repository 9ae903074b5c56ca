import LumenPlatform

extension FilterDescriptor {
    /// disparity = 1/depth per colour channel (0 stays 0); alpha kept.
    static let depthToDisparity = FilterDescriptor(
        name: "depthToDisparity", coreImageName: "CIDepthToDisparity", category: .colorAdjustment,
        summary: "Converts depth values to disparity (1/depth).",
        details: "c' = 1/c for r, g, b (unpremultiplied; 0 stays 0); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Reciprocal(name: "depthToDisparity")) }

    /// depth = 1/disparity per colour channel (0 stays 0); alpha kept.
    static let disparityToDepth = FilterDescriptor(
        name: "disparityToDepth", coreImageName: "CIDisparityToDepth", category: .colorAdjustment,
        summary: "Converts disparity values to depth (1/disparity).",
        details: "c' = 1/c for r, g, b (unpremultiplied; 0 stays 0); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Reciprocal(name: "disparityToDepth")) }
}

struct Reciprocal: ColorOperation {
    let name: String
    var isChannelSeparable: Bool { true }
    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            func inv(_ v: Float) -> Float { v == 0 ? 0 : 1 / v }
            row[i] = SIMD4(inv(p.x), inv(p.y), inv(p.z), p.w)
        }
    }
}
