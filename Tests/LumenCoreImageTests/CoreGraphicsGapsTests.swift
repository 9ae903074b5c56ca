import Foundation
import LumenCoreImage
import Testing

/// Core Graphics and Core Video API that the corpus's Core Image code uses behind its
/// first error (herme5/ImageProc: `CGVector`, `CGColorSpace.model`, `CGColor.converted`;
/// DivakarSwift/Lepton and NextLevel: `CVPixelBufferPool`).
struct CoreGraphicsGapsTests {
    /// Conversions between the named spaces against published values: sRGB red is
    /// color(display-p3 0.9175 0.2003 0.1386) (WebKit's "Improving Color on the Web");
    /// sRGB 0.5 is linear ((0.5 + 0.055) / 1.055)^2.4 = 0.21404; sRGB (0.2, 0.4, 0.6) has
    /// Rec. 709 luminance 0.12506, 0.3887 once encoded (with the 2.2 gamma as with the sRGB
    /// curve Lumen gives the grey space: 0.38868 and 0.38872).
    @Test func colorsConvertBetweenSpaces() throws {
        let p3 = try #require(CGColorSpace(name: CGColorSpace.displayP3))
        let red = try #require(CGColor(red: 1, green: 0, blue: 0, alpha: 0.5).converted(to: p3, intent: .defaultIntent, options: nil))
        let c = try #require(red.components)
        #expect(c.count == 4 && abs(c[0] - 0.9175) < 0.002 && abs(c[1] - 0.2003) < 0.002 && abs(c[2] - 0.1386) < 0.002 && c[3] == 0.5, "\(c)")
        #expect(red.colorSpace == p3)
        let linear = try #require(CGColorSpace(name: CGColorSpace.linearSRGB))
        let half = try #require(CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1).converted(to: linear, intent: .perceptual, options: nil)?.components)
        #expect(half.count == 4 && abs(half[0] - 0.21404) < 0.0005 && half[0] == half[2], "\(half)")
        let gray = try #require(CGColorSpace(name: CGColorSpace.genericGrayGamma2_2))
        let luma = try #require(CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1).converted(to: gray, intent: .defaultIntent, options: nil)?.components)
        #expect(luma.count == 2 && abs(luma[0] - 0.3887) < 0.003, "\(luma)")
        // Display P3's green lies outside sRGB: clipped in sRGB, kept (negative red) in extended sRGB.
        var components: [CGFloat] = [0, 1, 0, 1]
        let green = try #require(CGColor(colorSpace: p3, components: &components))
        let clipped = try #require(green.converted(to: CGColorSpaceCreateDeviceRGB(), intent: .defaultIntent, options: nil)?.components)
        let extendedSRGB = try #require(CGColorSpace(name: CGColorSpace.extendedSRGB))
        let extended = try #require(green.converted(to: extendedSRGB, intent: .defaultIntent, options: nil)?.components)
        #expect(clipped[0] == 0 && clipped[1] == 1 && extended[0] < -0.1 && extended[1] > 1, "\(clipped) \(extended)")
        #expect(p3.model == .rgb && gray.model == .monochrome)
        // Transparent colours keep their colour; a conversion to the colour's own space is exact.
        let clear = try #require(CGColor(red: 1, green: 0, blue: 0, alpha: 0).converted(to: p3, intent: .defaultIntent, options: nil)?.components)
        #expect(abs(clear[0] - 0.9175) < 0.002 && clear[3] == 0, "\(clear)")
        #expect(green.converted(to: p3, intent: .defaultIntent, options: nil)?.components == [0, 1, 0, 1])
    }

    @Test func vectorsAreValues() {
        let v = CGVector(dx: 3, dy: -1.5)
        #expect(v == CGVector(dx: 3.0, dy: -1.5) && v != .zero && CGVector() == .zero)
        #expect(v.dx == 3 && v.dy == -1.5 && "\(v)" == "(3.0, -1.5)")
    }

    /// A pool made from pixel-buffer attributes hands out buffers of its size and format,
    /// which Core Image renders into; attributes that describe no buffer are refused.
    @Test func pixelBufferPoolsMakeBuffersCoreImageRendersInto() throws {
        let attributes: [String: Any] = [kCVPixelBufferWidthKey as String: 8, kCVPixelBufferHeightKey as String: 4,
                                         kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        var pool: CVPixelBufferPool?
        #expect(CVPixelBufferPoolCreate(kCFAllocatorDefault, nil, attributes as CFDictionary, &pool) == kCVReturnSuccess)
        var buffer: CVPixelBuffer?
        let made = try #require(pool)
        #expect(CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, made, &buffer) == kCVReturnSuccess)
        let pixels = try #require(buffer)
        #expect(CVPixelBufferGetWidth(pixels) == 8 && CVPixelBufferGetHeight(pixels) == 4 && CVPixelBufferGetPixelFormatType(pixels) == kCVPixelFormatType_32BGRA)
        CIContext().render(CIImage(color: CIColor(red: 1, green: 0.5, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 8, height: 4)), to: pixels)
        let base = try #require(CVPixelBufferGetBaseAddress(pixels)).assumingMemoryBound(to: UInt8.self)
        #expect([base[0], base[1], base[2], base[3]] == [0, 128, 255, 255])  // B, G, R, A; sRGB 0.5 → 128
        var other: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, made, &other) == kCVReturnSuccess && other !== pixels)
        #expect((CVPixelBufferPoolGetPixelBufferAttributes(made)?.object(forKey: "Width") as? NSNumber)?.intValue == 8)

        var refused: CVPixelBufferPool?
        var huge = attributes
        huge[kCVPixelBufferWidthKey as String] = 100_000
        #expect(CVPixelBufferPoolCreate(nil, nil, huge as CFDictionary, &refused) == kCVReturnInvalidPixelBufferAttributes)
        #expect(CVPixelBufferPoolCreate(nil, nil, [kCVPixelBufferWidthKey as String: 8] as CFDictionary, &refused) == kCVReturnInvalidPixelBufferAttributes)
        var unknown = attributes
        unknown[kCVPixelBufferPixelFormatTypeKey as String] = 0x3432_3076  // '420v', planar YUV
        #expect(CVPixelBufferPoolCreate(nil, nil, unknown as CFDictionary, &refused) == kCVReturnInvalidPixelFormat)
        #expect(refused == nil)
    }
}
