import Foundation
import Lumen

/// Core Image's rendering context, on a Lumen `RenderContext`: linear extended-range sRGB
/// working space, premultiplied (Core Image's default); sRGB output unless
/// `.outputColorSpace` says otherwise. `.workingColorSpace: NSNull()` turns colour
/// management off: sources keep their stored values, filters work on them, and outputs
/// are written as they come (what Core Image does with a null working space).
/// `.useSoftwareRenderer` and the GPU options are accepted and ignored: Lumen renders on the CPU.
open class CIContext: NSObject, @unchecked Sendable {
    /// The Lumen context that renders (threads, tiles, cache).
    public let renderContext: RenderContext
    /// nil when colour management is off (`NSNull()`).
    public let workingColorSpace: CGColorSpace?
    /// The colour space of `createCGImage(_:from:)`; nil when `.outputColorSpace` is
    /// `NSNull()` (no matching on output).
    public let outputColorSpace: CGColorSpace?
    /// Always `RGBAf`: Lumen computes in 32-bit floats.
    public var workingFormat: CIFormat { .RGBAf }

    /// A context with its own render cache; `.cacheIntermediates: false` gives it none.
    public init(options: [CIContextOption: Any]? = nil) {
        var lumenOptions = RenderContext.Options()
        lumenOptions.listsGraphs = false  // Core Image has no render report
        if let cache = options?[.cacheIntermediates] as? Bool, !cache { lumenOptions.cacheBytes = 0 }
        renderContext = RenderContext(lumenOptions)
        if options?[.workingColorSpace] is NSNull {
            workingColorSpace = nil
        } else {
            workingColorSpace = (options?[.workingColorSpace] as? CGColorSpace) ?? CGColorSpace(name: CGColorSpace.extendedLinearSRGB)
        }
        // "An NSNull instance to indicate that the context should not match from the working
        // space to the destination. If this option is not specified, then the default output
        // space is sRGB." (Apple, CIContextOption.outputColorSpace)
        if options?[.outputColorSpace] is NSNull {
            outputColorSpace = nil
        } else {
            outputColorSpace = (options?[.outputColorSpace] as? CGColorSpace) ?? CGColorSpace(name: CGColorSpace.sRGB)
        }
        super.init()
    }

    /// A context with the default options.
    public override convenience init() { self.init(options: nil) }

    /// The Core Graphics context `draw(_:in:from:)` draws into, for a context made with
    /// `init(cgContext:options:)`.
    public private(set) var cgContext: CGContext?

    /// A context that draws into a Core Graphics bitmap context with `draw(_:in:from:)`
    /// (rendering is Lumen's, as for every context; the result is drawn through the CG
    /// context's transform, clip and blend mode).
    public convenience init(cgContext: CGContext, options: [CIContextOption: Any]? = nil) {
        self.init(options: options)
        self.cgContext = cgContext
    }

    /// Renders `fromRect` of the image and draws it into `inRect` of the context's Core
    /// Graphics context (scaled to fit). Without one (a context not made with
    /// `init(cgContext:options:)`, where Core Image would draw with OpenGL) nothing is drawn
    /// and a message says why.
    public func draw(_ image: CIImage, in inRect: CGRect, from fromRect: CGRect) {
        guard let cgContext else {
            CIFilter.report("CIContext.draw(_:in:from:): this context has no CGContext to draw into (make it with CIContext(cgContext:options:))")
            return
        }
        guard let bitmap = createCGImage(image, from: fromRect, format: .RGBA8, colorSpace: outputColorSpace) else { return }
        cgContext.draw(bitmap, in: inRect)
    }

    /// Drops the cached intermediate images.
    public func clearCaches() { renderContext.cache.removeAll() }

    /// The recipe as this context renders it: with colour management off, sources and
    /// colours give their stored values (`Image.unmanaged()`).
    func prepared(_ image: CIImage) -> Image {
        workingColorSpace == nil ? image.lumenImage.unmanaged() : image.lumenImage
    }

    /// Working-space pixels of `rect` (rows from the top), premultiplied.
    func pixels(_ image: CIImage, _ rect: CGRect) throws -> Bitmap {
        try renderContext.render(prepared(image), in: Rect(rect), format: .rgbaFloat)
    }

    /// The colour space output values are written in (nil: as they are): none without
    /// colour management, else the one asked for. A nil request writes working-space
    /// values, as Core Image does in practice (it is why pixel-reading helpers pair
    /// `colorSpace: nil` with a null working space), although Apple's page for
    /// `render(_:toBitmap:rowBytes:bounds:format:colorSpace:)` says nil means the
    /// context's output space.
    func outputSpace(_ requested: CGColorSpace?) -> CGColorSpace? {
        workingColorSpace == nil ? nil : requested
    }

    // MARK: Bitmaps

    /// Renders `bounds` of the image into caller memory, rows from the top, premultiplied,
    /// in `format` and `colorSpace` (nil: working-space values). Formats: RGBA8, BGRA8,
    /// ARGB8, ABGR8, RGBA16, RGBAh, RGBAf. Nothing is written when the render fails (a
    /// message names the reason on standard error, where Core Image logs it).
    public func render(_ image: CIImage, toBitmap data: UnsafeMutableRawPointer, rowBytes: Int, bounds: CGRect,
                       format: CIFormat, colorSpace: CGColorSpace?) {
        do {
            try write(image, into: data, rowBytes: rowBytes, bounds: bounds, format: format, colorSpace: colorSpace)
        } catch {
            CIFilter.report("render(_:toBitmap:…): \(error)")
        }
    }

    /// Renders, then converts into caller memory; nothing is written when the render fails.
    func write(_ image: CIImage, into data: UnsafeMutableRawPointer, rowBytes: Int, bounds: CGRect,
               format: CIFormat, colorSpace: CGColorSpace?) throws {
        guard let layout = format.layout else { throw CIError.unsupported("CIFormat \(format.rawValue)") }
        let bitmap = try pixels(image, bounds)
        guard rowBytes >= bitmap.width * layout.bytesPerPixel else {
            throw CIError.unsupported("rowBytes \(rowBytes) is less than \(bitmap.width) × \(layout.bytesPerPixel)")
        }
        let space = outputSpace(colorSpace)
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let v = BitmapImport.output(bitmap.pixel(x: x, row: row), premultiplied: true, colorSpace: space)
                let base = data + row * rowBytes + x * layout.bytesPerPixel
                for k in 0..<4 {
                    let value = v[layout.order[k]], at = base + k * layout.component
                    switch (layout.component, format) {
                    case (1, _): at.storeBytes(of: UInt8((Self.unit(value) * 255).rounded()), as: UInt8.self)
                    case (2, .RGBAh): at.storeBytes(of: Float16(value).bitPattern, as: UInt16.self)
                    case (2, _): at.storeBytes(of: UInt16((Self.unit(value) * 65535).rounded()), as: UInt16.self)
                    default: at.storeBytes(of: value, as: Float.self)
                    }
                }
            }
        }
    }

    /// A value clamped to 0…1 and rounded at the integer format's scale later (NaN is 0).
    static func unit(_ v: Float) -> Float { v.isNaN ? 0 : min(1, max(0, v)) }

    /// A bitmap of `rect`: RGBA8, premultiplied, in the context's output colour space.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? {
        createCGImage(image, from: fromRect, format: .RGBA8, colorSpace: outputColorSpace)
    }

    /// A bitmap of `rect` in `format` (RGBA8, RGBA16, RGBAh or RGBAf) and `colorSpace`.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect, format: CIFormat, colorSpace: CGColorSpace?) -> CGImage? {
        let rect = Rect(fromRect)
        guard !rect.isInfinite, !rect.isEmpty, let layout = format.layout, [CIFormat.RGBA8, .RGBA16, .RGBAh, .RGBAf].contains(format) else {
            CIFilter.report("createCGImage: needs a finite, non-empty rectangle and RGBA8, RGBA16, RGBAh or RGBAf (got \(fromRect), format \(format.rawValue))")
            return nil
        }
        let box = PixelRect(covering: rect)
        guard box.width <= 1 << 16, box.height <= 1 << 16 else { return nil }
        let rowBytes = box.width * layout.bytesPerPixel
        var data = Data(count: rowBytes * box.height)
        var failed = false
        data.withUnsafeMutableBytes { raw in
            do {
                try write(image, into: raw.baseAddress!, rowBytes: rowBytes, bounds: fromRect, format: format, colorSpace: colorSpace)
            } catch {
                CIFilter.report("createCGImage: \(error)")
                failed = true
            }
        }
        if failed { return nil }
        return CGImage(width: box.width, height: box.height, bitsPerComponent: layout.component * 8, bitsPerPixel: layout.bytesPerPixel * 8,
                       bytesPerRow: rowBytes, colorSpace: colorSpace, alphaInfo: .premultipliedLast, data: data)
    }

    /// As `createCGImage(_:from:format:colorSpace:)`: Lumen always renders when asked, so
    /// `deferred` changes nothing.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect, format: CIFormat, colorSpace: CGColorSpace?, deferred: Bool) -> CGImage? {
        createCGImage(image, from: fromRect, format: format, colorSpace: colorSpace)
    }

    // MARK: Files and data

    /// The JPEG of the image's extent (quality from `kCGImageDestinationLossyCompressionQuality`, 0…1).
    public func jpegRepresentation(of image: CIImage, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        encoded(image, OutputFormat.jpeg(quality: quality(options) ?? 0.9), colorSpace)
    }
    /// The PNG of the image's extent: 16 bits per channel for RGBA16, RGBAh and RGBAf, else 8.
    public func pngRepresentation(of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        encoded(image, OutputFormat.png(depth: format == .RGBA16 || format == .RGBAh || format == .RGBAf ? 16 : 8), colorSpace)
    }
    /// The HEIC of the image's extent (quality from `kCGImageDestinationLossyCompressionQuality`, default 0.75).
    public func heifRepresentation(of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        encoded(image, OutputFormat.heic(quality: quality(options) ?? 0.75), colorSpace)
    }
    /// The HEIC of the image's extent with 10 bits per channel (quality from
    /// `kCGImageDestinationLossyCompressionQuality`, default 0.75); throws what the encoder throws.
    public func heif10Representation(of image: CIImage, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) throws -> Data {
        let (recipe, format) = forEncoding(image, OutputFormat.heic(quality: quality(options) ?? 0.75, depth: 10), colorSpace)
        return try renderContext.encode(recipe, format: format)
    }
    /// Writes `heif10Representation` to `url` (atomically).
    public func writeHEIF10Representation(of image: CIImage, to url: URL, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) throws {
        try write(image, to: url, OutputFormat.heic(quality: quality(options) ?? 0.75, depth: 10), colorSpace)
    }
    /// The OpenEXR of the image's extent (iOS 14 / macOS 11): linear light with sRGB's
    /// primaries, values above 1 kept, half floats. Throws what the encoder throws.
    public func openEXRRepresentation(of image: CIImage, options: [CIImageRepresentationOption: Any] = [:]) throws -> Data {
        let (recipe, format) = forEncoding(image, OutputFormat(fileFormat: .exr, depth: 16), CGColorSpace(name: CGColorSpace.sRGB)!)
        return try renderContext.encode(recipe, format: format)
    }
    /// Writes `openEXRRepresentation` to `url` (atomically).
    public func writeOpenEXRRepresentation(of image: CIImage, to url: URL, options: [CIImageRepresentationOption: Any] = [:]) throws {
        try write(image, to: url, OutputFormat(fileFormat: .exr, depth: 16), CGColorSpace(name: CGColorSpace.sRGB)!)
    }
    /// The TIFF of the image's extent: 8 bits for RGBA8 and BGRA8, else 16.
    public func tiffRepresentation(of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        encoded(image, OutputFormat.tiff(depth: format == .RGBA8 || format == .BGRA8 ? 8 : 16), colorSpace)
    }

    /// Writes `jpegRepresentation` to `url` (atomically: nothing is left on failure).
    public func writeJPEGRepresentation(of image: CIImage, to url: URL, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) throws {
        try write(image, to: url, OutputFormat.jpeg(quality: quality(options) ?? 0.9), colorSpace)
    }
    /// Writes `pngRepresentation` to `url` (atomically).
    public func writePNGRepresentation(of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) throws {
        try write(image, to: url, OutputFormat.png(depth: format == .RGBA8 || format == .BGRA8 ? 8 : 16), colorSpace)
    }
    /// Writes `heifRepresentation` to `url` (atomically).
    public func writeHEIFRepresentation(of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) throws {
        try write(image, to: url, OutputFormat.heic(quality: quality(options) ?? 0.75), colorSpace)
    }
    /// Writes `tiffRepresentation` to `url` (atomically).
    public func writeTIFFRepresentation(of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) throws {
        try write(image, to: url, OutputFormat.tiff(depth: format == .RGBA8 || format == .BGRA8 ? 8 : 16), colorSpace)
    }

    private func quality(_ options: [CIImageRepresentationOption: Any]) -> Double? {
        let q = options[.lossyCompressionQuality]
        return (q as? NSNumber)?.doubleValue ?? (q as? Double) ?? (q as? CGFloat).map(Double.init) ?? (q as? Float).map(Double.init)
    }

    /// The image as the encoder should see it, and the profile to write: with colour
    /// management off the values pass through (undone from the encoder's sRGB curve).
    private func forEncoding(_ image: CIImage, _ format: OutputFormat, _ colorSpace: CGColorSpace) -> (Image, OutputFormat) {
        var format = format
        format.profile = colorSpace.isWide ? .displayP3 : .sRGB
        let recipe = prepared(image)
        guard workingColorSpace == nil else { return (recipe, format) }
        return ((try? recipe.applyingFilter("sRGBToneCurveToLinear")) ?? recipe, format)
    }

    private func encoded(_ image: CIImage, _ format: OutputFormat, _ colorSpace: CGColorSpace) -> Data? {
        let (recipe, format) = forEncoding(image, format, colorSpace)
        do { return try renderContext.encode(recipe, format: format) } catch {
            CIFilter.report("representation: \(error)")
            return nil
        }
    }

    private func write(_ image: CIImage, to url: URL, _ format: OutputFormat, _ colorSpace: CGColorSpace) throws {
        let (recipe, format) = forEncoding(image, format, colorSpace)
        try renderContext.write(recipe, to: url, format: format)
    }
}
