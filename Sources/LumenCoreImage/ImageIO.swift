// The part of ImageIO that Core Image code uses next to its renders: reading an image file
// into a CGImage (CGImageSource) and encoding CGImages as PNG, JPEG, HEIC, TIFF or WebP
// (CGImageDestination), on Lumen's codecs. `import CoreImage` brings ImageIO with it on
// Apple platforms (CGImagePropertyOrientation, kCGImageDestinationLossyCompressionQuality).
import Foundation
import Lumen
#if !canImport(ImageIO)

/// The property key of the EXIF orientation (1…8) in `CIImage.properties` and ImageIO's dictionaries.
public let kCGImagePropertyOrientation = "Orientation" as CFString
/// The property key of the image's width in pixels.
public let kCGImagePropertyPixelWidth = "PixelWidth" as CFString
/// The property key of the image's height in pixels.
public let kCGImagePropertyPixelHeight = "PixelHeight" as CFString

/// An image file to read: its bytes, decoded on demand.
public final class CGImageSource: @unchecked Sendable {
    let data: Data

    init(data: Data) { self.data = data }
}

/// A source over an image file's bytes; nil when `data` is empty.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    data.length == 0 ? nil : CGImageSource(data: Data(referencing: data))
}

/// A source over the file at `url`; nil when it cannot be read.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard let bytes = try? Data(contentsOf: url as URL), !bytes.isEmpty else { return nil }
    return CGImageSource(data: bytes)
}

/// The number of images in the source: 1 when the bytes decode, else 0 (frames of an
/// animation are not counted separately here).
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int {
    (try? ImageFile.header(of: isrc.data)) == nil ? 0 : 1
}

/// The image at `index` (only 0) as an 8-bit RGBA sRGB bitmap, stored as the file stores it
/// (the EXIF orientation is not applied, as ImageIO does); nil when it does not decode.
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    guard index == 0, let image = CIImage(data: isrc.data) else { return nil }
    return CIContext(options: [.cacheIntermediates: false]).createCGImage(image, from: image.extent)
}

/// The properties of the image at `index` (`PixelWidth`, `Orientation`, `{Exif}`…), as
/// `CIImage.properties` gives them.
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CFDictionary? {
    guard index == 0, let image = CIImage(data: isrc.data) else { return nil }
    return image.properties as NSDictionary
}

/// Thumbnail option: the longest side in pixels (never enlarged); without it the thumbnail is
/// as large as the image.
public let kCGImageSourceThumbnailMaxPixelSize = "kCGImageSourceThumbnailMaxPixelSize" as CFString
/// Thumbnail option: turn the thumbnail upright by the image's EXIF orientation (default false).
public let kCGImageSourceCreateThumbnailWithTransform = "kCGImageSourceCreateThumbnailWithTransform" as CFString
/// Thumbnail option: make it from the full image even when the file embeds a preview.
public let kCGImageSourceCreateThumbnailFromImageAlways = "kCGImageSourceCreateThumbnailFromImageAlways" as CFString
/// Thumbnail option: make it from the full image when the file embeds no preview (default
/// false: then only an embedded preview is returned).
public let kCGImageSourceCreateThumbnailFromImageIfAbsent = "kCGImageSourceCreateThumbnailFromImageIfAbsent" as CFString

/// A thumbnail of the image at `index` (only 0), as ImageIO makes one: the file's embedded
/// preview (HEIC, AVIF) unless `kCGImageSourceCreateThumbnailFromImageAlways` asks for the
/// full image (or `…FromImageIfAbsent` allows it when there is none), its longest side at
/// most `kCGImageSourceThumbnailMaxPixelSize` (shrink-on-load and Lanczos, as
/// `lumen thumbnail`), upright when `kCGImageSourceCreateThumbnailWithTransform` says so.
/// Nil when the bytes do not decode or no thumbnail may be made.
public func CGImageSourceCreateThumbnailAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    func value(_ key: CFString) -> Any? { options?.object(forKey: key as NSString) }
    func flag(_ key: CFString) -> Bool { (value(key) as? Bool) ?? (value(key) as? NSNumber)?.boolValue ?? false }
    func number(_ key: CFString) -> Double? {
        let v = value(key)
        return (v as? NSNumber)?.doubleValue ?? (v as? Double) ?? (v as? CGFloat).map(Double.init) ?? (v as? Int).map(Double.init)
    }
    guard index == 0 else { return nil }
    let upright = flag(kCGImageSourceCreateThumbnailWithTransform)
    let always = flag(kCGImageSourceCreateThumbnailFromImageAlways), ifAbsent = flag(kCGImageSourceCreateThumbnailFromImageIfAbsent)
    var image: Image
    if !always, let preview = try? Image(data: isrc.data, options: .init(appliesOrientation: upright, embeddedThumbnail: true)) {
        image = preview
    } else if always || ifAbsent, let full = try? Image(data: isrc.data, options: .init(appliesOrientation: upright)) {
        image = full
    } else {
        return nil
    }
    let extent = image.extent
    if let limit = number(kCGImageSourceThumbnailMaxPixelSize), limit.isFinite, limit >= 1, max(extent.width, extent.height) > limit {
        let side = Int(min(limit, 1e6))
        guard let small = try? Thumbnail(width: side, height: side).apply(to: image, context: RenderContext()) else { return nil }
        image = small
    }
    let thumbnail = CIImage(lumenImage: image)
    return CIContext(options: [.cacheIntermediates: false]).createCGImage(thumbnail, from: thumbnail.extent)
}

/// An image file being written: the images added, encoded by `CGImageDestinationFinalize`.
public final class CGImageDestination: @unchecked Sendable {
    let type: String
    let data: NSMutableData?
    let url: URL?
    var images: [(CGImage, Double?)] = []

    init(type: String, data: NSMutableData?, url: URL?) {
        self.type = type; self.data = data; self.url = url
    }

    /// Lumen's format for a uniform type identifier (public.png, public.jpeg, public.heic,
    /// public.tiff, org.webmproject.webp, public.avif), with `quality` for the lossy ones.
    static func format(_ type: String, quality: Double?) -> OutputFormat? {
        switch type {
        case "public.png": return .png
        case "public.jpeg", "public.jpg": return .jpeg(quality: quality ?? 0.9)
        case "public.heic", "public.heif": return .heic(quality: quality ?? 0.75)
        case "public.tiff": return .tiff
        case "org.webmproject.webp", "public.webp": return .webp(quality: quality ?? 0.75)
        case "public.avif": return .avif(quality: quality ?? 0.75)
        default: return nil
        }
    }
}

/// A destination that appends the encoded file to `data`; nil for a type Lumen cannot write.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    guard CGImageDestination.format(type, quality: nil) != nil else {
        CIFilter.report("CGImageDestinationCreateWithData: cannot write '\(type)' (public.png, public.jpeg, public.heic, public.tiff, org.webmproject.webp, public.avif)")
        return nil
    }
    return CGImageDestination(type: type, data: data, url: nil)
}

/// A destination that writes the encoded file to `url`; nil for a type Lumen cannot write.
public func CGImageDestinationCreateWithURL(_ url: CFURL, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    guard CGImageDestination.format(type, quality: nil) != nil else {
        CIFilter.report("CGImageDestinationCreateWithURL: cannot write '\(type)' (public.png, public.jpeg, public.heic, public.tiff, org.webmproject.webp, public.avif)")
        return nil
    }
    return CGImageDestination(type: type, data: nil, url: url as URL)
}

/// Adds an image; `properties` may give `kCGImageDestinationLossyCompressionQuality` (0…1).
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    let q = properties?[kCGImageDestinationLossyCompressionQuality]
    let quality = (q as? NSNumber)?.doubleValue ?? (q as? CGFloat).map(Double.init) ?? (q as? Double)
    idst.images.append((image, quality))
}

/// Encodes the first image added and writes it; false when there is none or encoding fails
/// (the reason on standard error). Only one image per file is written.
@discardableResult
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    guard let (cgImage, quality) = idst.images.first, let format = CGImageDestination.format(idst.type, quality: quality) else { return false }
    let image = CIImage(cgImage: cgImage)
    let context = CIContext(options: [.cacheIntermediates: false])
    var output = format
    output.profile = (cgImage.colorSpace?.isWide ?? false) ? .displayP3 : .sRGB
    do {
        if let url = idst.url {
            try context.renderContext.write(image.lumenImage, to: url, format: output)
        } else {
            idst.data?.append(try context.renderContext.encode(image.lumenImage, format: output))
        }
        return true
    } catch {
        CIFilter.report("CGImageDestinationFinalize: \(error)")
        return false
    }
}
#endif
