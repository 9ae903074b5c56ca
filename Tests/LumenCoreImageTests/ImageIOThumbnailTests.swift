import Foundation
import LumenCoreImage
import Testing

/// ImageIO's thumbnails as Apple documents them (CGImageSourceCreateThumbnailAtIndex): "If
/// the image source file contains a thumbnail… the thumbnail is returned"; without one,
/// nothing unless kCGImageSourceCreateThumbnailFromImageIfAbsent or …Always is set;
/// kCGImageSourceThumbnailMaxPixelSize bounds both sides; kCGImageSourceCreateThumbnailWithTransform
/// rotates it by the EXIF orientation.
struct ImageIOThumbnailTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func source(_ path: String) throws -> CGImageSource {
        try #require(CGImageSourceCreateWithURL(root.appendingPathComponent(path) as NSURL, nil))
    }

    @Test func aThumbnailIsMadeOnlyWhenAllowedAndFitsTheMaximum() throws {
        let photo = try Self.source("testdata/photo.jpg")  // 640×400, no embedded preview
        #expect(CGImageSourceCreateThumbnailAtIndex(photo, 0, nil) == nil, "no preview and no permission to make one")
        let options = [kCGImageSourceCreateThumbnailFromImageIfAbsent: true, kCGImageSourceThumbnailMaxPixelSize: 160] as CFDictionary
        let made = try #require(CGImageSourceCreateThumbnailAtIndex(photo, 0, options))
        #expect(made.width == 160 && made.height == 100)
        let whole = try #require(CGImageSourceCreateThumbnailAtIndex(photo, 0, [kCGImageSourceCreateThumbnailFromImageAlways: true] as CFDictionary))
        #expect(whole.width == 640 && whole.height == 400, "no maximum: the image's own size")
    }

    @Test func theTransformTurnsItUpright() throws {
        let rotated = try Self.source("testdata/codecs/orient-6.jpg")  // stored 3×5, EXIF orientation 6: upright 5×3
        let stored = try #require(CGImageSourceCreateThumbnailAtIndex(rotated, 0, [kCGImageSourceCreateThumbnailFromImageAlways: true] as CFDictionary))
        #expect(stored.width == 3 && stored.height == 5, "\(stored.width)×\(stored.height)")
        let upright = try #require(CGImageSourceCreateThumbnailAtIndex(rotated, 0, [kCGImageSourceCreateThumbnailFromImageAlways: true,
                                                                                 kCGImageSourceCreateThumbnailWithTransform: true] as CFDictionary))
        #expect(upright.width == 5 && upright.height == 3, "\(upright.width)×\(upright.height)")
    }

    @Test func anEmbeddedPreviewIsReturnedAsIs() throws {
        let heic = try Self.source("testdata/formats/thumbed.heic")
        let preview = try #require(CGImageSourceCreateThumbnailAtIndex(heic, 0, nil))
        let full = try #require(CGImageSourceCreateImageAtIndex(heic, 0, nil))
        #expect(preview.width < full.width && preview.height < full.height, "\(preview.width)×\(preview.height) of \(full.width)×\(full.height)")
    }

    /// The resize path of Jthora/CosmicCypher's CGImage+Extension.swift (Tests/CoreImageCorpus):
    /// PNG-encode into CFDataCreateMutable's data, then a thumbnail from it.
    @Test func throughMutableDataAsClientCodeDoes() throws {
        let image = try #require(CGImageSourceCreateImageAtIndex(try Self.source("testdata/photo.jpg"), 0, nil))
        let data = try #require(CFDataCreateMutable(nil, 0))
        let destination = try #require(CGImageDestinationCreateWithData(data, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, image, nil)
        #expect(CGImageDestinationFinalize(destination) && CFDataGetLength(data) > 1000)
        let source = try #require(CGImageSourceCreateWithData(data, nil))
        let options = [kCGImageSourceCreateThumbnailWithTransform: true, kCGImageSourceCreateThumbnailFromImageAlways: true,
                       kCGImageSourceThumbnailMaxPixelSize: CGFloat(320)] as CFDictionary
        let small = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, options))
        #expect(small.width == 320 && small.height == 200)
    }
}
