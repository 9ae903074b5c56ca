import Foundation
import Lumen

/// Core Image's image: an immutable recipe (a Lumen `Image`) with Core Image's
/// initialisers and methods. Nothing is computed until a `CIContext` renders it.
open class CIImage: NSObject, @unchecked Sendable {
    /// The Lumen recipe behind this image.
    public let lumenImage: Image
    /// The file's metadata with ImageIO's keys (`Orientation`, `PixelWidth`, `{Exif}`…).
    public let properties: [String: Any]
    /// The bitmap this image was made from, when it was made from one.
    public let cgImage: CGImage?
    /// The file or URL this image was read from.
    public let url: URL?
    /// The colour space the source's values were in (nil for generated images).
    public let colorSpace: CGColorSpace?
    /// How far above SDR white the image's values reach (Core Image's `contentHeadroom`): a
    /// gain map's headroom for a file loaded with `.expandToHDR`, else 1. Filters applied to
    /// the image give images of headroom 1 here (Core Image carries it through).
    public internal(set) var contentHeadroom: Float = 1
    /// The parameters of the gain map this image is (loaded with `.auxiliaryHDRGainMap`).
    var gainMapParameters: GainMap?

    /// Wraps a Lumen image (for code that mixes the two APIs).
    public init(lumenImage: Image, properties: [String: Any] = [:], cgImage: CGImage? = nil, url: URL? = nil, colorSpace: CGColorSpace? = nil) {
        self.lumenImage = lumenImage
        self.properties = properties
        self.cgImage = cgImage
        self.url = url
        self.colorSpace = colorSpace
    }

    // MARK: Sources

    /// Reads an image file (JPEG, PNG, TIFF, WebP, HEIC, AVIF, GIF). Like Core Image, the
    /// EXIF orientation is applied only when `.applyOrientationProperty` is true.
    public convenience init?(contentsOf url: URL, options: [CIImageOption: Any]? = nil) {
        if (options?[.auxiliaryHDRGainMap] as? Bool) == true {
            guard let data = try? Data(contentsOf: url) else { return nil }
            self.init(gainMapOf: data, options: options)
            return
        }
        guard !Self.asksForAuxiliaryImage(options) else { return nil }
        let upright = (options?[.applyOrientationProperty] as? Bool) ?? false
        let hdr = (options?[.expandToHDR] as? Bool) ?? false
        guard let image = try? Image(contentsOf: url, options: Image.LoadOptions(appliesOrientation: upright, expandToHDR: hdr)) else { return nil }
        self.init(file: image, options: options, url: url)
        if hdr { contentHeadroom = Float(((try? GainMap.read(contentsOf: url)) ?? nil)?.headroom ?? 1) }
    }

    /// Decodes an image file's bytes, as `init(contentsOf:options:)` reads a file.
    public convenience init?(data: Data, options: [CIImageOption: Any]? = nil) {
        if (options?[.auxiliaryHDRGainMap] as? Bool) == true {
            self.init(gainMapOf: data, options: options)
            return
        }
        guard !Self.asksForAuxiliaryImage(options) else { return nil }
        let upright = (options?[.applyOrientationProperty] as? Bool) ?? false
        let hdr = (options?[.expandToHDR] as? Bool) ?? false
        guard let image = try? Image(data: data, options: Image.LoadOptions(appliesOrientation: upright, expandToHDR: hdr)) else { return nil }
        self.init(file: image, options: options, url: nil, data: data)
        if hdr { contentHeadroom = Float(((try? GainMap.read(from: data)) ?? nil)?.headroom ?? 1) }
    }

    private convenience init(file image: Image, options: [CIImageOption: Any]?, url: URL?, data: Data? = nil) {
        var properties: [String: Any] = [:]
        if let header = image.fileHeader {
            let metadata = url.flatMap { try? ImageFile.metadata(at: $0) } ?? data.flatMap { try? ImageFile.metadata(of: $0) }
            properties = ImageProperties.properties(header: header, metadata: metadata)
        }
        if let given = options?[.properties] as? [String: Any] { properties = given }
        let image = (options?[.nearestSampling] as? Bool) == true ? image.samplingNearest() : image
        self.init(lumenImage: image, properties: properties, url: url, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
    }

    /// Whether `options` ask for a depth map, disparity map or portrait matte, which
    /// Lumen's decoders do not read: Core Image returns nil for a file without one.
    private static func asksForAuxiliaryImage(_ options: [CIImageOption: Any]?) -> Bool {
        [CIImageOption.auxiliaryDepth, .auxiliaryDisparity, .auxiliaryPortraitEffectsMatte].contains { (options?[$0] as? Bool) == true }
    }

    /// An image of a bitmap (its values in the bitmap's colour space; sRGB by default).
    public convenience init(cgImage: CGImage, options: [CIImageOption: Any]? = nil) {
        let layout = BitmapImport.layout(of: cgImage)
        let space = (options?[.colorSpace] as? CGColorSpace) ?? cgImage.colorSpace
        let imported = (try? BitmapImport.image(layout.data, bytesPerRow: layout.bytesPerRow, width: cgImage.width, height: cgImage.height,
                                             format: layout.format, colorSpace: space, premultiplied: layout.premultiplied,
                                             opaque: layout.opaque)) ?? Image.empty
        let image = (options?[.nearestSampling] as? Bool) == true ? imported.samplingNearest() : imported
        self.init(lumenImage: image, cgImage: cgImage, colorSpace: space)
    }

    /// An image of raw pixels: `size` of them, `bytesPerRow` apart, rows from the top, in
    /// `format` (RGBA8, BGRA8, ARGB8, ABGR8, RGBA16, RGBAh, RGBAf), premultiplied as Core
    /// Image expects, values in `colorSpace` (nil: taken as they are, linear).
    public convenience init(bitmapData data: Data, bytesPerRow: Int, size: CGSize, format: CIFormat, colorSpace: CGColorSpace?) {
        let width = Int(exactly: size.width.rounded()) ?? 0, height = Int(exactly: size.height.rounded()) ?? 0
        let image = (try? BitmapImport.image(data, bytesPerRow: bytesPerRow, width: width, height: height, format: format,
                                             colorSpace: colorSpace, premultiplied: true, opaque: false)) ?? Image.empty
        self.init(lumenImage: image, colorSpace: colorSpace)
    }

    /// An infinite image of one colour.
    public convenience init(color: CIColor) {
        self.init(lumenImage: Image(color: color.lumen))
    }

    /// An image with no pixels.
    public class func empty() -> CIImage { CIImage(lumenImage: .empty) }

    /// An infinite opaque black image.
    public static var black: CIImage { CIImage(color: .black) }
    /// An infinite opaque white image.
    public static var white: CIImage { CIImage(color: .white) }
    /// An infinite opaque grey image.
    public static var gray: CIImage { CIImage(color: .gray) }
    /// An infinite opaque red image.
    public static var red: CIImage { CIImage(color: .red) }
    /// An infinite opaque green image.
    public static var green: CIImage { CIImage(color: .green) }
    /// An infinite opaque blue image.
    public static var blue: CIImage { CIImage(color: .blue) }
    /// An infinite opaque cyan image.
    public static var cyan: CIImage { CIImage(color: .cyan) }
    /// An infinite opaque magenta image.
    public static var magenta: CIImage { CIImage(color: .magenta) }
    /// An infinite opaque yellow image.
    public static var yellow: CIImage { CIImage(color: .yellow) }
    /// An infinite transparent image.
    public static var clear: CIImage { CIImage(color: .clear) }

    // MARK: Geometry

    /// Where the image has pixels (`CGRect.infinite` for generators).
    public var extent: CGRect { CGRect(lumenImage.extent) }

    func derived(_ image: Image) -> CIImage {
        CIImage(lumenImage: image, properties: properties, cgImage: nil, url: url, colorSpace: colorSpace)
    }

    /// The image mapped through `matrix`, sampled bilinearly (or nearest after `samplingNearest()`).
    public func transformed(by matrix: CGAffineTransform) -> CIImage { derived(lumenImage.transformed(by: matrix.lumen)) }
    /// Lumen's transform always samples bilinearly; `highQualityDownsample` uses Lanczos for
    /// pure downscales, as Core Image does.
    public func transformed(by matrix: CGAffineTransform, highQualityDownsample: Bool) -> CIImage {
        if highQualityDownsample, matrix.b == 0, matrix.c == 0, matrix.a > 0, matrix.a < 1, matrix.d > 0, matrix.d < 1,
           let scaled = try? lumenImage.applyingLanczosScale(Double(matrix.d), aspectRatio: Double(matrix.a / matrix.d)) {
            return derived(scaled.transformed(by: CGAffineTransform(translationX: matrix.tx, y: matrix.ty).lumen))
        }
        return transformed(by: matrix)
    }
    /// The part of the image inside `rect`; the extent becomes the intersection.
    public func cropped(to rect: CGRect) -> CIImage { derived(lumenImage.cropped(to: Rect(rect))) }
    /// An infinite image: each edge pixel repeated outwards.
    public func clampedToExtent() -> CIImage { derived(lumenImage.clampedToExtent()) }
    /// Cropped to `rect`, then its edge pixels repeated outwards.
    public func clamped(to rect: CGRect) -> CIImage { derived(lumenImage.cropped(to: Rect(rect)).clampedToExtent()) }
    /// The image turned and mirrored as the EXIF orientation says, placed at the origin.
    public func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage { derived(lumenImage.oriented(Int(orientation.rawValue))) }
    /// As `oriented(_:)` with an EXIF orientation number; values outside 1…8 leave the image unchanged.
    public func oriented(forExifOrientation orientation: Int32) -> CIImage {
        guard (1...8).contains(orientation) else { return self }
        return derived(lumenImage.oriented(Int(orientation)))
    }
    /// Transforms built on this image sample the nearest pixel (no interpolation), for pixel art and masks.
    public func samplingNearest() -> CIImage { derived(lumenImage.samplingNearest()) }
    /// Transforms built on this image interpolate bilinearly (the default).
    public func samplingLinear() -> CIImage { derived(lumenImage.samplingLinear()) }

    // MARK: Filters

    /// The image with a filter applied (`inputImage` = self). An unknown filter or a bad
    /// value gives an empty image and a message on standard error: Core Image raises an
    /// Objective-C exception there, which Swift on Linux does not have.
    public func applyingFilter(_ filterName: String, parameters params: [String: Any]) -> CIImage {
        guard let filter = CIFilter(name: filterName) else {
            CIFilter.report("applyingFilter: no filter named '\(filterName)'")
            return .empty()
        }
        filter.setValue(self, forKey: kCIInputImageKey)
        for (key, value) in params { filter.setValue(value, forKey: key) }
        guard let output = filter.outputImage else { return .empty() }
        return derived(output.lumenImage)
    }
    /// The image with a filter applied at its default values.
    public func applyingFilter(_ filterName: String) -> CIImage { applyingFilter(filterName, parameters: [:]) }

    /// This image over `dest` (source-over).
    public func composited(over dest: CIImage) -> CIImage { derived(lumenImage.composited(over: dest.lumenImage)) }
    /// A Gaussian blur with standard deviation `sigma`; the extent grows by 3σ each side.
    public func applyingGaussianBlur(sigma: Double) -> CIImage { derived(lumenImage.applyingGaussianBlur(sigma: sigma)) }
    /// Alpha set to 1 inside `extent` (the premultiplied colour values kept, as Core Image does).
    public func settingAlphaOne(in extent: CGRect) -> CIImage {
        let r = Rect(extent)
        let kernel = ColorKernel("settingAlphaOne", pixel: { px in
            let p = px[0], c = px.coordinate, v = px.values
            let inside = Double(c.x) >= v[0] && Double(c.x) < v[0] + v[2] && Double(c.y) >= v[1] && Double(c.y) < v[1] + v[3]
            return inside ? SIMD4(p.x, p.y, p.z, 1) : p
        })
        return derived(kernel.apply(extent: lumenImage.extent.union(r), arguments: [lumenImage, r.x, r.y, r.width, r.height]))
    }

    /// Colour values multiplied by alpha (for an image made of straight-alpha values).
    public func premultiplyingAlpha() -> CIImage {
        derived(ColorKernel("premultiplyingAlpha") { p in SIMD4(p.x * p.w, p.y * p.w, p.z * p.w, p.w) }
            .apply(extent: lumenImage.extent, arguments: [lumenImage]))
    }
    /// Colour values divided by alpha (0 where alpha is 0).
    public func unpremultiplyingAlpha() -> CIImage {
        derived(ColorKernel("unpremultiplyingAlpha") { p in p.w > 0 ? SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w) : .zero }
            .apply(extent: lumenImage.extent, arguments: [lumenImage]))
    }
    /// Lumen decides what to keep by itself (its render cache); the image is unchanged.
    public func insertingIntermediate() -> CIImage { self }
    /// Unchanged, as `insertingIntermediate()`.
    public func insertingIntermediate(cache: Bool) -> CIImage { self }

    /// The transform that `oriented(_:)` applies to this image's extent.
    public func orientationTransform(for orientation: CGImagePropertyOrientation) -> CGAffineTransform {
        let w = extent.width, h = extent.height
        switch orientation {
        case .up: return .identity
        case .upMirrored: return CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .down: return CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .downMirrored: return CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .leftMirrored: return CGAffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .right: return CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        case .rightMirrored: return CGAffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .left: return CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        }
    }

    /// Values in `colorSpace` brought into the working space (sRGB-encoded spaces are
    /// linearised; linear ones are already working values).
    public func matchedToWorkingSpace(from colorSpace: CGColorSpace) -> CIImage? {
        if colorSpace.isLinear && !colorSpace.isWide { return self }
        return derived(ColorKernel("matchedToWorkingSpace.\(colorSpace.nameString)") { p in
            BitmapImport.working(p, premultiplied: true, colorSpace: colorSpace)
        }.apply(extent: lumenImage.extent, arguments: [lumenImage]))
    }
    /// Working-space values expressed in `colorSpace`.
    public func matchedFromWorkingSpace(to colorSpace: CGColorSpace) -> CIImage? {
        if colorSpace.isLinear && !colorSpace.isWide { return self }
        return derived(ColorKernel("matchedFromWorkingSpace.\(colorSpace.nameString)") { p in
            BitmapImport.output(p, premultiplied: true, colorSpace: colorSpace)
        }.apply(extent: lumenImage.extent, arguments: [lumenImage]))
    }

    /// The recipe's top node and the extent.
    public override var description: String { "<CIImage \(lumenImage) extent \(extent)>" }
}

extension CGRect {
    /// Core Image's extent for a Lumen rectangle (`CGRect.infinite` for infinite ones).
    init(_ r: Rect) {
        self = r.isInfinite ? .infinite : CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
    }
}

extension Rect {
    init(_ r: CGRect) {
        if r.isInfinite { self = .infinite; return }
        if r.isNull { self = .zero; return }
        let s = r.standardized
        self.init(x: Double(s.origin.x), y: Double(s.origin.y), width: Double(s.size.width), height: Double(s.size.height))
    }
}
