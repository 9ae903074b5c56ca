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
