import Foundation
import Testing
import Lumen
import LumenCoreImage

/// Core Image code as Apple's documentation writes it (the Core Image Programming Guide's
/// recipes and the CIFilter reference), compiled against LumenCoreImage and checked
/// against the same recipe through Lumen or against an independent decoder.
@Suite struct CoreImageRecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let photoURL = root.appendingPathComponent("testdata/photo.jpg")

    /// Processing Images, "Creating a filter chain": sepia, then bloom, then crop.
    @Test func filterChainEqualsTheSameRecipeThroughLumen() throws {
        let context = CIContext()
        let image = try #require(CIImage(contentsOf: Self.photoURL))
        let sepia = try #require(CIFilter(name: "CISepiaTone"))
        sepia.setValue(image, forKey: kCIInputImageKey)
        sepia.setValue(0.8, forKey: kCIInputIntensityKey)
        let bloom = try #require(CIFilter(name: "CIBloom"))
        bloom.setValue(sepia.outputImage, forKey: kCIInputImageKey)
        bloom.setValue(2.5, forKey: kCIInputRadiusKey)
        bloom.setValue(1.0, forKey: kCIInputIntensityKey)
        let cropped = try #require(bloom.outputImage).cropped(to: CGRect(x: 0, y: 0, width: 160, height: 100))
        let jpeg = try #require(context.jpegRepresentation(of: cropped, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!,
                                                           options: [.lossyCompressionQuality: 0.8]))
        // The same recipe through Lumen, byte for byte.
        let lumen = try Image(contentsOf: Self.photoURL, options: .init(appliesOrientation: false))
            .applyingFilter("sepiaTone", parameters: ["intensity": 0.8])
            .applyingFilter("bloom", parameters: ["radius": 2.5, "intensity": 1.0])
            .cropped(to: Rect(x: 0, y: 0, width: 160, height: 100))
        var format = OutputFormat.jpeg(quality: 0.8)
        format.profile = .sRGB
        #expect(jpeg == (try RenderContext().encode(lumen, format: format)))
        #expect(cropped.extent == CGRect(x: 0, y: 0, width: 160, height: 100))
    }

    /// "Generating a QR code": CIQRCodeGenerator, recoloured with CIFalseColor and scaled
    /// up, read back by an independent decoder (zxing-cpp).
    @Test func aRecolouredScaledQRCodeDecodes() throws {
        let message = "https://developer.apple.com/documentation/coreimage"
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data(message.utf8)
        qr.correctionLevel = "Q"
        let symbol = try #require(qr.outputImage)
        let colours = CIFilter.falseColor()
        colours.inputImage = symbol
        colours.color0 = CIColor(red: 0.1, green: 0.1, blue: 0.4)
        colours.color1 = CIColor(red: 1, green: 0.95, blue: 0.8)
        let scaled = try #require(colours.outputImage).samplingNearest().transformed(by: CGAffineTransform(scaleX: 8, y: 8))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ci-qr-\(UUID().uuidString).png")
        try CIContext().writePNGRepresentation(of: scaled, to: url, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!)
        let decoded = try Self.script("decode-barcodes.py", [url.path])
        #expect(decoded.contains(message.utf8.map { String(format: "%02x", $0) }.joined()), "\(decoded)")
        #expect(symbol.extent.width == symbol.extent.height && symbol.extent.width > 20)
    }

    /// "Applying a photo effect" with the typed factory, written as JPEG data.
    @Test func photoEffectThroughTheTypedFactory() throws {
        let image = try #require(CIImage(contentsOf: Self.photoURL))
        let noir = CIFilter.photoEffectNoir()
        noir.inputImage = image
        let output = try #require(noir.outputImage)
        let data = try #require(CIContext().jpegRepresentation(of: output, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!))
        let back = try #require(CIImage(data: data))
        #expect(back.extent == image.extent)
        // Noir is grey: render a few pixels and check r = g = b.
        var pixels = [UInt8](repeating: 0, count: 4 * 16)
        CIContext().render(back, toBitmap: &pixels, rowBytes: 16, bounds: CGRect(x: 300, y: 200, width: 4, height: 4), format: .RGBA8,
                           colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        for i in stride(from: 0, to: pixels.count, by: 4) { #expect(abs(Int(pixels[i]) - Int(pixels[i + 1])) <= 2 && pixels[i + 3] == 255) }
    }

    /// "Writing a custom colour kernel": a Swift closure where Apple code has Metal or CIKL.
    @Test func customColourKernel() throws {
        let swap = CIColorKernel(name: "test.swapRedBlue", single: { p in SIMD4(p.z, p.y, p.x, p.w) })
        let image = try #require(CIImage(contentsOf: Self.photoURL))
        let swapped = try #require(swap.apply(extent: image.extent, arguments: [image]))
        let context = CIContext()
        var a = [Float](repeating: 0, count: 4), b = [Float](repeating: 0, count: 4)
        context.render(image, toBitmap: &a, rowBytes: 16, bounds: CGRect(x: 100, y: 100, width: 1, height: 1), format: .RGBAf, colorSpace: nil)
        context.render(swapped, toBitmap: &b, rowBytes: 16, bounds: CGRect(x: 100, y: 100, width: 1, height: 1), format: .RGBAf, colorSpace: nil)
        #expect(a[0] == b[2] && a[2] == b[0] && a[1] == b[1] && a[0] != a[2])
        // Kernel source strings cannot be compiled here, and say so.
        #expect(CIKernel(source: "kernel vec4 k(__sample s) { return s; }") == nil)
        #expect(throws: (any Error).self) { _ = try CIKernel(functionName: "k", fromMetalLibraryData: Data()) }
    }

    /// "Rendering to a bitmap": RGBA8 is premultiplied sRGB, as Core Image writes it.
    @Test func renderToBitmapFormats() throws {
        let colour = CIImage(color: CIColor(red: 0.5, green: 0.25, blue: 1, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        let context = CIContext()
        var rgba8 = [UInt8](repeating: 0, count: 16), bgra8 = [UInt8](repeating: 0, count: 16)
        context.render(colour, toBitmap: &rgba8, rowBytes: 8, bounds: colour.extent, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        context.render(colour, toBitmap: &bgra8, rowBytes: 8, bounds: colour.extent, format: .BGRA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        // 0.5 alpha × (0.5, 0.25, 1): half of 127.5 may round either way.
        func near(_ a: [UInt8], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs(Int($0) - $1) <= 1 } }
        #expect(near(Array(rgba8.prefix(4)), [64, 32, 128, 128]), "\(rgba8)")
        #expect(near(Array(bgra8.prefix(4)), [128, 32, 64, 128]), "\(bgra8)")
        #expect(rgba8[0] == bgra8[2] && rgba8[2] == bgra8[0] && rgba8[3] == 128)
        var half = [UInt16](repeating: 0, count: 16), floats = [Float](repeating: 0, count: 16)
        context.render(colour, toBitmap: &half, rowBytes: 16, bounds: colour.extent, format: .RGBAh, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        context.render(colour, toBitmap: &floats, rowBytes: 32, bounds: colour.extent, format: .RGBAf, colorSpace: nil)
        #expect(abs(Float(Float16(bitPattern: half[0])) - 0.25) < 1e-3)
        var sixteen = [UInt16](repeating: 0, count: 16)
        context.render(colour, toBitmap: &sixteen, rowBytes: 16, bounds: colour.extent, format: .RGBA16, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(abs(Int(sixteen[0]) - 16384) <= 1 && abs(Int(sixteen[3]) - 32768) <= 1, "\(sixteen.prefix(4))")
        #expect(abs(floats[0] - 0.5 * 0.21404114) < 1e-5 && floats[3] == 0.5)  // linear, premultiplied
        let cg = try #require(context.createCGImage(colour, from: colour.extent))
        #expect(cg.width == 2 && cg.height == 2 && cg.bitsPerComponent == 8 && cg.bytesPerRow == 8)
        #expect(Array(cg.data.prefix(4)) == Array(rgba8.prefix(4)))
        // And back: a CGImage and raw bitmap data become images with the same pixels.
        let again = CIImage(cgImage: cg)
        var round = [UInt8](repeating: 0, count: 16)
        context.render(again, toBitmap: &round, rowBytes: 8, bounds: again.extent, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(round == rgba8)
        let raw = CIImage(bitmapData: Data(bgra8), bytesPerRow: 8, size: CGSize(width: 2, height: 2), format: .BGRA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        var fromRaw = [UInt8](repeating: 0, count: 16)
        context.render(raw, toBitmap: &fromRaw, rowBytes: 8, bounds: raw.extent, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(fromRaw == rgba8)
    }

    /// `.nearestSampling` makes a file's enlargement repeat pixels (every 2×2 block of a
    /// 2× scale is one source pixel, exactly), where the default interpolates; asking
    /// for a depth map or a portrait matte, which Lumen does not read, gives nil.
    @Test func imageOptionsNearestSamplingAndAuxiliaryImages() throws {
        let nearest = try #require(CIImage(contentsOf: Self.photoURL, options: [.nearestSampling: true]))
        let linear = try #require(CIImage(contentsOf: Self.photoURL))
        let context = CIContext()
        let rect = CGRect(x: 0, y: 0, width: 32, height: 32)
        var source = [UInt8](repeating: 0, count: 16 * 16 * 4)
        context.render(nearest, toBitmap: &source, rowBytes: 64, bounds: CGRect(x: 0, y: 0, width: 16, height: 16), format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        var a = [UInt8](repeating: 0, count: 32 * 32 * 4), b = a
        let double = CGAffineTransform(scaleX: 2, y: 2)
        context.render(nearest.transformed(by: double), toBitmap: &a, rowBytes: 128, bounds: rect, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        context.render(linear.transformed(by: double), toBitmap: &b, rowBytes: 128, bounds: rect, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        var repeated = true
        for y in 0..<32 { for x in 0..<32 { for c in 0..<4 where a[(y * 32 + x) * 4 + c] != source[((y / 2) * 16 + x / 2) * 4 + c] { repeated = false } } }
        #expect(repeated, "nearest sampling repeats each source pixel in a 2×2 block")
        #expect(a != b, "the default interpolates")
        for option in [CIImageOption.auxiliaryDepth, .auxiliaryDisparity, .auxiliaryPortraitEffectsMatte] {
            #expect(CIImage(contentsOf: Self.photoURL, options: [option: true]) == nil, "\(option.rawValue)")
            #expect(CIImage(contentsOf: Self.photoURL, options: [option: false]) != nil)
        }
    }

    /// A context without colour management (`workingColorSpace: NSNull()`) passes stored
    /// values through: the decoded file comes out as the file's own 8-bit values.
    @Test func nullWorkingSpacePassesStoredValues() throws {
        let image = try #require(CIImage(contentsOf: Self.photoURL))
        let plain = CIContext(options: [.workingColorSpace: NSNull()])
        let managed = CIContext()
        var a = [UInt8](repeating: 0, count: 64 * 4), b = [UInt8](repeating: 0, count: 64 * 4)
        let rect = CGRect(x: 200, y: 100, width: 8, height: 8)
        plain.render(image, toBitmap: &a, rowBytes: 32, bounds: rect, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        managed.render(image, toBitmap: &b, rowBytes: 32, bounds: rect, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "an unfiltered image is the same either way")
        // Filtered, the two differ: exposure doubles stored codes without management, linear light with.
        let brighter = image.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 1])
        plain.render(brighter, toBitmap: &a, rowBytes: 32, bounds: rect, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        managed.render(brighter, toBitmap: &b, rowBytes: 32, bounds: rect, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        var original = [UInt8](repeating: 0, count: 64 * 4)
        managed.render(image, toBitmap: &original, rowBytes: 32, bounds: rect, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        for i in stride(from: 0, to: 256, by: 4) where original[i] < 100 {
            #expect(abs(Int(a[i]) - 2 * Int(original[i])) <= 2, "stored code doubled: \(original[i]) → \(a[i])")
            #expect(b[i] > a[i] || original[i] < 3, "linear doubling is brighter in codes: \(b[i]) vs \(a[i])")
        }
    }

    static func script(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/\(name)").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name) failed (scripts/setup installs what it needs)")
        return output
    }
}
