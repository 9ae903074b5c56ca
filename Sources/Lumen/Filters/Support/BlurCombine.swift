/// An image combined per pixel with its blurred copy (premultiplied in and out).
struct BlurCombine: ImageKernel {
    enum Mode: Hashable, Sendable { case unsharp(Float), luminance(Float), bloom(Float), gloom(Float) }
    let mode: Mode

    var name: String {
        switch mode {
        case .unsharp: return "unsharpMask"
        case .luminance: return "sharpenLuminance"
        case .bloom: return "bloom"
        case .gloom: return "gloom"
        }
    }

    func isOpaque(inputs: [Image]) -> Bool {
        if case .unsharp = mode { return false }
        return inputs[0].isOpaque
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x
        destination.forEachRow { y, row, count in
            let a = inputs[0].row(y, from: x), b = inputs[1].row(y, from: x)
            switch mode {
            case let .unsharp(k):
                for i in 0..<count { row[i] = a[i] + (a[i] - b[i]) * k }
            case let .luminance(k):
                for i in 0..<count {
                    let d = k * ((a[i] - b[i]) * lumaWeights).sum()
                    row[i] = a[i] + SIMD4(d, d, d, 0)
                }
            case let .bloom(k):
                for i in 0..<count { let g = b[i] * k; row[i] = a[i] + g - a[i] * g }
            case let .gloom(k):
                for i in 0..<count {
                    let p = a[i], m = SIMD4<Float>(repeating: 1 - k) + b[i] * k
                    row[i] = SIMD4(p.x * m.x, p.y * m.y, p.z * m.z, p.w)
                }
            }
        }
    }
}

extension FilterDescriptor {
    /// The image combined with its Gaussian blur (σ = `sigma`, read clamped at the edges
    /// of a finite image) by `mode`: unsharpMask, sharpenLuminance, bloom and gloom.
    static func blurCombined(_ args: FilterArguments, _ mode: BlurCombine.Mode, sigma: Double, skipIf identity: Bool) throws -> Image {
        let image = try args.image("image")
        if identity { return image }
        let extent = image.extent
        let source = extent.isInfinite ? image : image.clampedToExtent()
        let blurred = source.applyingGaussianBlur(sigma: sigma)
        return BlurCombine(mode: mode).apply(to: [image, extent.isInfinite ? blurred : blurred.cropped(to: extent)])
    }
}
