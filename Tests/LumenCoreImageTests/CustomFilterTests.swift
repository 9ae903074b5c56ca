import Foundation
import Testing
import LumenCoreImage

/// A custom filter as Apple's documentation writes one: a CIFilter subclass with its own
/// inputs and outputImage, registered by name.
final class HazeRemoval: CIFilter, @unchecked Sendable {
    var inputImage: CIImage?
    var inputAmount: CGFloat = 0.5

    override var outputImage: CIImage? {
        guard let inputImage else { return nil }
        return inputImage.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: inputAmount])
    }
    override func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case kCIInputImageKey: inputImage = value as? CIImage
        case "inputAmount": inputAmount = (value as? NSNumber).map { CGFloat($0.doubleValue) } ?? inputAmount
        default: super.setValue(value, forKey: key)
        }
    }
}

final class HazeVendor: CIFilterConstructor {
    func filter(withName name: String) -> CIFilter? { name == "HazeRemoval" ? HazeRemoval() : nil }
}

@Suite struct CustomFilterTests {
    @Test func aSubclassRegisteredByNameWorksLikeABuiltIn() throws {
        CIFilter.registerName("HazeRemoval", constructor: HazeVendor(), classAttributes: [kCIAttributeFilterCategories: [kCICategoryColorAdjustment]])
        let photo = try #require(CIImage(contentsOf: CoreImageRecipeTests.photoURL))
        let filter = try #require(CIFilter(name: "HazeRemoval"))
        filter.setValue(photo, forKey: kCIInputImageKey)
        filter.setValue(1.0, forKey: "inputAmount")
        let output = try #require(filter.outputImage)
        let direct = photo.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 1.0])
        let context = CIContext()
        #expect(context.pngRepresentation(of: output, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!)
                == context.pngRepresentation(of: direct, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!))
        #expect(CIFilter.filterNames(inCategory: kCICategoryColorAdjustment).contains("HazeRemoval"))
        #expect(HazeRemoval().name == "HazeRemoval")
    }

    @Test func alphaAndOrientationHelpers() throws {
        let colour = CIImage(color: CIColor(red: 0.6, green: 0.2, blue: 0.4, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        let context = CIContext()
        var a = [Float](repeating: 0, count: 4), b = [Float](repeating: 0, count: 4)
        context.render(colour, toBitmap: &a, rowBytes: 16, bounds: colour.extent, format: .RGBAf, colorSpace: nil)
        context.render(colour.unpremultiplyingAlpha(), toBitmap: &b, rowBytes: 16, bounds: colour.extent, format: .RGBAf, colorSpace: nil)
        #expect(abs(b[0] * 0.5 - a[0]) < 1e-6 && b[3] == 0.5)
        context.render(colour.unpremultiplyingAlpha().premultiplyingAlpha(), toBitmap: &b, rowBytes: 16, bounds: colour.extent, format: .RGBAf, colorSpace: nil)
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 })
        // orientationTransform(for:) moves the extent as oriented(_:) does, and a marked pixel with it.
        let marked = CIImage(color: .red).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
            .composited(over: CIImage(color: .blue).cropped(to: CGRect(x: 0, y: 0, width: 6, height: 4)))
        for raw in UInt32(1)...8 {
            let o = try #require(CGImagePropertyOrientation(rawValue: raw))
            let t = marked.orientationTransform(for: o)
            let turned = marked.oriented(o)
            #expect(marked.extent.applying(t) == turned.extent, "\(o)")
            let p = CGPoint(x: 0.5, y: 0.5).applying(t)
            var pixel = [UInt8](repeating: 0, count: 4)
            context.render(turned, toBitmap: &pixel, rowBytes: 4, bounds: CGRect(x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1), format: .RGBA8,
                           colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
            #expect(pixel == [255, 0, 0, 255], "orientation \(raw): the marked corner lands at \(p), found \(pixel)")
        }
    }
}
