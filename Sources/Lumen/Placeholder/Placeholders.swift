import LumenPlatform

extension Image {
    /// The pixels placeholders are computed from: the image fitted inside 100 × 100 (Lanczos,
    /// never enlarged), as 8-bit sRGB RGBA with straight alpha, rows top first.
    func placeholderPixels(context: RenderContext) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let e = extent
        guard !e.isInfinite, e.width >= 1, e.height >= 1 else {
            throw LumenError.invalidValue(filter: "placeholder", key: "image", reason: "needs a finite, non-empty extent")
        }
        let small = e.width <= 100 && e.height <= 100 ? self : try Thumbnail(width: 100, height: 100, size: .down).apply(to: self, context: context)
        let bitmap = try context.render(small, format: .rgba8)
        return (bitmap.width, bitmap.height, bitmap.samples.map { UInt8(max(0, min(255, $0.rounded()))) })
    }

    /// The image's BlurHash (`BlurHash.encode`) with `xComponents` × `yComponents`
    /// components (1…9 each), computed on the image fitted inside 100 × 100 pixels.
    public func blurHash(xComponents: Int = 4, yComponents: Int = 3, context: RenderContext = RenderContext()) throws -> String {
        let (width, height, rgba) = try placeholderPixels(context: context)
        return try rgba.withUnsafeBufferPointer {
            try BlurHash.encode(pixels: $0, width: width, height: height, channels: 4, xComponents: xComponents, yComponents: yComponents)
        }
    }

    /// The image's ThumbHash (`ThumbHash.encode`), computed on the image fitted inside
    /// 100 × 100 pixels; `Data(hash).base64EncodedString()` is its usual text form.
    public func thumbHash(context: RenderContext = RenderContext()) throws -> [UInt8] {
        let (width, height, rgba) = try placeholderPixels(context: context)
        return try ThumbHash.encode(rgba: rgba, width: width, height: height)
    }
}
