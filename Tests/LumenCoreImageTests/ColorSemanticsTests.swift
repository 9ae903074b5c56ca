// Only LumenCoreImage: `import CoreImage` brings Foundation's and Core Graphics' types on
// Apple platforms, so Data, URL and CGFloat must come with this import alone.
import LumenCoreImage
import Testing

/// Core Image's colour rules, each beside the sentence of Apple's documentation it follows.
@Suite struct ColorSemanticsTests {
    /// RGBA8 bytes through `CIImage(bitmapData:…)` and `render(_:toBitmap:…)`.
    func roundTrip(_ bytes: [UInt8], width: Int, context: CIContext, inSpace: CGColorSpace?, outSpace: CGColorSpace?) -> [UInt8] {
        let image = CIImage(bitmapData: Data(bytes), bytesPerRow: width * 4, size: CGSize(width: CGFloat(width), height: 1),
                            format: .RGBA8, colorSpace: inSpace)
        var out = [UInt8](repeating: 0, count: bytes.count)
        context.render(image, toBitmap: &out, rowBytes: width * 4, bounds: image.extent, format: .RGBA8, colorSpace: outSpace)
        return out
    }

    /// Every byte value, opaque, and a few translucent premultiplied pixels.
    var everyValue: [UInt8] {
        var bytes: [UInt8] = []
        for v in 0..<256 {
            let rgba: [UInt8] = [UInt8(v), UInt8(255 - v), UInt8((v * 7) % 256), 255]
            bytes += rgba
        }
        let translucent: [UInt8] = [40, 20, 10, 64, 0, 0, 0, 0]
        return bytes + translucent
    }

    /// "The value of this option can be either: … An NSNull instance to request that Core
    /// Image perform no color management." (CIContextOption.workingColorSpace)
    @Test func aNullWorkingSpaceChangesNoValue() throws {
        let context = CIContext(options: [.workingColorSpace: NSNull()])
        let bytes = everyValue, width = bytes.count / 4
        let sRGB = CGColorSpace(name: CGColorSpace.sRGB)
        for (inSpace, outSpace) in [(nil, nil), (sRGB, nil), (nil, sRGB), (sRGB, sRGB)] as [(CGColorSpace?, CGColorSpace?)] {
            #expect(roundTrip(bytes, width: width, context: context, inSpace: inSpace, outSpace: outSpace) == bytes,
                    "in \(String(describing: inSpace?.name)), out \(String(describing: outSpace?.name))")
        }
        // A colour's components are written as they are: 0.3, 0.6, 1 → 76, 153, 255 (0.3 × 255 = 76.5 in Float rounds down, as Core Image gives it).
        let colour = CIImage(color: CIColor(red: 0.3, green: 0.6, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        var pixel = [UInt8](repeating: 0, count: 4)
        context.render(colour, toBitmap: &pixel, rowBytes: 4, bounds: colour.extent, format: .RGBA8, colorSpace: nil)
        #expect(pixel == [76, 153, 255, 255], "\(pixel)")
        // A filter between works on the stored values: inverting 0.3 gives 0.7 (179), not the inverse in linear light.
        let inverted = colour.applyingFilter("CIColorInvert")
        context.render(inverted, toBitmap: &pixel, rowBytes: 4, bounds: colour.extent, format: .RGBA8, colorSpace: nil)
        #expect(pixel == [179, 102, 0, 255], "\(pixel)")
    }

    /// "All input images are color matched from the input's color space to the working
    /// space. All renders are color matched from the working space to the destination's
    /// color space." (CIContextOption.workingColorSpace) — so an sRGB bitmap comes back
    /// as it went in through the default linear working space.
    @Test func aManagedContextMatchesInAndOut() throws {
        let context = CIContext()
        let sRGB = CGColorSpace(name: CGColorSpace.sRGB)
        let bytes = everyValue.prefix(1024).map { $0 }, width = bytes.count / 4
        #expect(roundTrip(bytes, width: width, context: context, inSpace: sRGB, outSpace: sRGB) == bytes)
        // The working space is linear: a mid-grey sRGB byte is ~0.214 there.
        let grey = CIImage(bitmapData: Data([128, 128, 128, 255]), bytesPerRow: 4, size: CGSize(width: 1, height: 1), format: .RGBA8, colorSpace: sRGB)
        var linear = [Float](repeating: 0, count: 4)
        context.render(grey, toBitmap: &linear, rowBytes: 16, bounds: grey.extent, format: .RGBAf, colorSpace: nil)
        #expect(abs(linear[0] - 0.2158605) < 1e-5, "\(linear)")
    }

    /// "An NSNull instance to indicate that the context should not match from the working
    /// space to the destination." (CIContextOption.outputColorSpace)
    @Test func aNullOutputSpaceWritesWorkingValues() throws {
        let context = CIContext(options: [.outputColorSpace: NSNull()])
        #expect(context.outputColorSpace == nil)
        let colour = CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        let cg = try #require(context.createCGImage(colour, from: colour.extent))
        // sRGB 0.5 is linear 0.214: 55 when written without matching, 128 with it.
        #expect(cg.data.first == 55, "\(Array(cg.data))")
        let matched = try #require(CIContext().createCGImage(colour, from: colour.extent))
        #expect(matched.data.first == 128)
    }

    /// "CIColor … init(red:green:blue:) … Creates a color object in the sRGB color space"
    /// — components are sRGB values, whatever the working space.
    @Test func colourComponentsAreSRGB() throws {
        let colour = CIImage(color: CIColor(red: 0.3, green: 0.6, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        var pixel = [UInt8](repeating: 0, count: 4)
        CIContext().render(colour, toBitmap: &pixel, rowBytes: 4, bounds: colour.extent, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(pixel == [76, 153, 255, 255], "\(pixel)")
    }

    /// Kernel initialisers are declared where Apple declares them, and CIKL fails as a
    /// kernel that cannot be built does: nil.
    @Test func kernelSourceInitialisersExistOnEverySubclass() throws {
        #expect(CIColorKernel(source: "kernel vec4 k(__sample s) { return s.bgra; }") == nil)
        #expect(CIWarpKernel(source: "kernel vec2 k() { return destCoord(); }") == nil)
        #expect(CIBlendKernel(source: "kernel vec4 k(__sample a, __sample b) { return a; }") == nil)
    }

    /// CIBlendKernel's built-ins equal the compositing filters they name.
    @Test func builtInBlendKernelsAreTheCompositingFilters() throws {
        let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        let blue = CIImage(color: CIColor(red: 0, green: 0, blue: 1)).cropped(to: CGRect(x: 1, y: 0, width: 2, height: 2))
        let context = CIContext()
        func pixels(_ image: CIImage?) -> [Float] {
            var out = [Float](repeating: -1, count: 3 * 2 * 4)
            if let image { context.render(image, toBitmap: &out, rowBytes: 48, bounds: CGRect(x: 0, y: 0, width: 3, height: 2), format: .RGBAf, colorSpace: nil) }
            return out
        }
        let over = pixels(red.applyingFilter("CISourceOverCompositing", parameters: [kCIInputBackgroundImageKey: blue]))
        #expect(pixels(CIBlendKernel.sourceOver.apply(foreground: red, background: blue)) == over)
        #expect(pixels(CIBlendKernel.destinationOver.apply(foreground: blue, background: red)) == over)
        let multiply = pixels(red.applyingFilter("CIMultiplyBlendMode", parameters: [kCIInputBackgroundImageKey: blue]))
        #expect(pixels(CIBlendKernel.multiply.apply(foreground: red, background: blue)) == multiply)
        // Exclusive or keeps each image only where the other is absent: red alone at x = 0,
        // blue alone at x = 2, and where both are opaque-ish, red's half-alpha leaves blue × 0.5.
        let xor = pixels(CIBlendKernel.exclusiveOr.apply(foreground: red, background: blue))
        #expect(xor[0] > 0.49 && xor[3] == 0.5, "\(xor)")
        #expect(xor[8 + 2] == 1 && xor[8 + 3] == 1, "\(xor)")
        #expect(abs(xor[4 + 2] - 0.5) < 1e-6 && abs(xor[4 + 3] - 0.5) < 1e-6, "\(xor)")
        // A custom blend is a two-input colour kernel, foreground first.
        let average = CIBlendKernel(name: "test.average") { f, b in (f + b) * 0.5 }
        let mixed = pixels(average.apply(foreground: red, background: blue))
        #expect(abs(mixed[4] - 0.25) < 1e-6 && abs(mixed[4 + 2] - 0.5) < 1e-6, "\(mixed)")
    }
}

/// Keys Apple spells otherwise than `input` + the capitalized name.
@Suite struct CoreImageKeySpellingTests {
    @Test func keysAreSpelledAsApplesAre() throws {
        let expected = ["CIGlassDistortion": ["inputTexture"], "CICMYKHalftone": ["inputGCR", "inputUCR"],
                        "CILineOverlay": ["inputNRNoiseLevel", "inputNRSharpness"], "CIExposureAdjust": ["inputEV"]]
        for (name, keys) in expected {
            let filter = try #require(CIFilter(name: name))
            for key in keys { #expect(filter.inputKeys.contains(key), "\(name): \(filter.inputKeys)") }
        }
        // Set through Apple's spelling, read back through the typed property.
        let halftone = CIFilter.cmykHalftone()
        halftone.setValue(0.25, forKey: "inputGCR")
        #expect(halftone.grayComponentReplacement == 0.25)
        let overlay = CIFilter.lineOverlay()
        overlay.setValue(0.01, forKey: "inputNRNoiseLevel")
        #expect(abs(overlay.nrNoiseLevel - 0.01) < 1e-6)
    }
}
