import Foundation
import Testing
import Lumen
@testable import LumenCoreImage

/// CIFilter's surface: names, key-value coding with every value type Core Image code
/// passes, attributes in Apple's shape, and every typed factory.
@Suite struct CIFilterAPITests {
    static let photo = CIImage(contentsOf: CoreImageRecipeTests.photoURL)!

    @Test func unknownNamesGiveNil() {
        #expect(CIFilter(name: "CINoSuchFilter") == nil)
        #expect(CIFilter(name: "CIGaussianBlur")?.name == "CIGaussianBlur")
        // Lumen's own orientation operation is not a Core Image filter.
        #expect(CIFilter(name: "orientation") == nil)
    }

    @Test func keyValueCodingTakesEveryCoreImageValueType() throws {
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        for value: Any in [CGFloat(3), Float(3), Double(3), Int(3), NSNumber(value: 3)] {
            blur.setValue(value, forKey: kCIInputRadiusKey)
            #expect((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue == 3, "\(type(of: value))")
        }
        let vignette = try #require(CIFilter(name: "CIVignetteEffect"))
        vignette.setValue(CIVector(x: 10, y: 20), forKey: kCIInputCenterKey)
        #expect((vignette.value(forKey: kCIInputCenterKey) as? CIVector)?.cgPointValue == CGPoint(x: 10, y: 20))
        vignette.setValue(CGPoint(x: 5, y: 6), forKey: "inputCenter")
        #expect((vignette.value(forKey: "center") as? CIVector)?.cgPointValue == CGPoint(x: 5, y: 6))
        let mono = try #require(CIFilter(name: "CIColorMonochrome"))
        mono.setValue(CIColor(red: 0.2, green: 0.4, blue: 0.6), forKey: kCIInputColorKey)
        let colour = try #require(mono.value(forKey: kCIInputColorKey) as? CIColor)
        #expect(abs(colour.green - 0.4) < 1e-9)
        let transform = try #require(CIFilter(name: "CIAffineTransform"))
        transform.setValue(CGAffineTransform(scaleX: 2, y: 3), forKey: kCIInputTransformKey)
        #expect((transform.value(forKey: kCIInputTransformKey) as? CGAffineTransform) == CGAffineTransform(scaleX: 2, y: 3))
        transform.setValue(NSValue(cgAffineTransform: CGAffineTransform(rotationAngle: 0.5)), forKey: kCIInputTransformKey)  // the iOS idiom
        #expect((transform.value(forKey: kCIInputTransformKey) as? CGAffineTransform) == CGAffineTransform(rotationAngle: 0.5))
        transform.setValue(CGAffineTransform(scaleX: 2, y: 3), forKey: kCIInputTransformKey)
        let qr = try #require(CIFilter(name: "CIQRCodeGenerator"))
        qr.setValue(Data("hi".utf8), forKey: "inputMessage")
        qr.setValue("H", forKey: "inputCorrectionLevel")
        #expect(qr.value(forKey: "inputMessage") as? Data == Data("hi".utf8))
        #expect(qr.value(forKey: "inputCorrectionLevel") as? String == "H")
        transform.setValue(Self.photo, forKey: kCIInputImageKey)
        #expect(transform.outputImage?.extent == CGRect(x: 0, y: 0, width: 1280, height: 1200))
    }

    @Test func anUnknownKeyOrAWrongTypeLeavesNoOutputUntilFixed() throws {
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        blur.setValue(Self.photo, forKey: kCIInputImageKey)
        blur.setValue(1, forKey: "inputNoSuchKey")
        #expect(blur.outputImage == nil)
        blur.setDefaults()
        blur.setValue(Self.photo, forKey: kCIInputImageKey)
        #expect(blur.outputImage != nil)
        blur.setValue(Date(), forKey: kCIInputRadiusKey)  // a type Core Image would reject
        #expect(blur.outputImage == nil)
        blur.setValue(2, forKey: kCIInputRadiusKey)
        #expect(blur.outputImage != nil)
    }

    @Test func attributesHaveApplesShape() throws {
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        let attributes = blur.attributes
        #expect(attributes[kCIAttributeFilterName] as? String == "CIGaussianBlur")
        #expect(attributes[kCIAttributeFilterDisplayName] as? String == "Gaussian Blur")
        let categories = try #require(attributes[kCIAttributeFilterCategories] as? [String])
        #expect(categories.contains(kCICategoryBlur) && categories.contains(kCICategoryBuiltIn))
        let radius = try #require(attributes[kCIInputRadiusKey] as? [String: Any])
        #expect(radius[kCIAttributeClass] as? String == "NSNumber")
        #expect(radius[kCIAttributeType] as? String == kCIAttributeTypeScalar || radius[kCIAttributeType] as? String == kCIAttributeTypeDistance)
        #expect((radius[kCIAttributeDefault] as? NSNumber)?.doubleValue == 10)
        #expect((radius[kCIAttributeMin] as? NSNumber)?.doubleValue == 0)
        #expect((radius[kCIAttributeIdentity] as? NSNumber)?.doubleValue == 0)
        let image = try #require(attributes[kCIInputImageKey] as? [String: Any])
        #expect(image[kCIAttributeClass] as? String == "CIImage" && image[kCIAttributeType] as? String == kCIAttributeTypeImage)
        #expect(blur.inputKeys == [kCIInputImageKey, kCIInputRadiusKey] && blur.outputKeys == [kCIOutputImageKey])
        #expect(CIFilter.localizedName(forFilterName: "CIQRCodeGenerator") == "QR Code Generator")
    }

    @Test func filterNamesByCategory() {
        // The built-ins (CustomFilterTests may register a filter of its own at the same time).
        let all = CIFilter.filterNames(inCategory: kCICategoryBuiltIn)
        #expect(all.count == 237 && all.allSatisfy { $0.hasPrefix("CI") })
        #expect(Set(all).isSubset(of: CIFilter.filterNames(inCategory: nil)))
        let blurs = CIFilter.filterNames(inCategory: kCICategoryBlur)
        #expect(blurs.contains("CIGaussianBlur") && !blurs.contains("CISepiaTone"))
        #expect(CIFilter.filterNames(inCategories: [kCICategoryBuiltIn, kCICategoryGenerator]).contains("CIQRCodeGenerator"))
        #expect(CIFilter.filterNames(inCategory: kCICategoryStillImage).count >= 237)
    }

    @Test func typedFactoriesSetAndReadTypedValues() throws {
        let blur = CIFilter.gaussianBlur()
        #expect(blur.radius == 10)
        blur.radius = 4
        blur.inputImage = Self.photo
        #expect(blur.radius == 4 && blur.value(forKey: kCIInputRadiusKey) as? NSNumber == NSNumber(value: 4.0))
        #expect(blur.outputImage != nil)
        let correction = CIFilter.perspectiveCorrection()
        correction.topLeft = CGPoint(x: 10, y: 300)
        #expect(correction.topLeft == CGPoint(x: 10, y: 300) && correction.crop == true)
        let crop = CIFilter.areaAverage()
        crop.extent = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(crop.extent == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    /// PDF417's keys as Apple declares them (all `Float`, compactStyle and
    /// alwaysSpecifyCompaction too), set typed and by key. Twenty digits in one column at
    /// level 0 take 1 + 18 + 2 rows in byte compaction (901, 15 + 2 codewords) and
    /// 1 + 8 + 2 in numeric (902, 7): 3 pixels a row plus the 4-pixel quiet zone.
    @Test func pdf417TakesApplesCompactionKeys() throws {
        let pdf = CIFilter.pdf417BarcodeGenerator()
        pdf.message = Data("12345678901234567890".utf8)
        pdf.dataColumns = 1
        pdf.correctionLevel = 0
        pdf.compactStyle = 0
        pdf.alwaysSpecifyCompaction = 1
        pdf.compactionMode = 3
        #expect(try #require(pdf.outputImage).extent.height == 3 * 21 + 4)
        pdf.setValue(1, forKey: "inputCompactionMode")
        #expect(pdf.compactionMode == 1)
        #expect(try #require(pdf.outputImage).extent.height == 3 * 11 + 4)
        let named = try #require(CIFilter(name: "CIPDF417BarcodeGenerator", parameters: [
            "inputMessage": Data("1234a".utf8), "inputCompactionMode": 1]))
        #expect(named.outputImage == nil)  // numeric compaction cannot hold the 'a'
    }

    /// Every typed factory (`CIFilter.gaussianBlur()`…) builds its filter, which renders a
    /// small piece with every image input given the photo.
    @Test func everyFactoryRendersOnce() throws {
        let context = CIContext()
        let names = CIFilter.filterNames(inCategory: kCICategoryBuiltIn)
        #expect(Set(CIFilter.builtinFactories.keys) == Set(names))
        var failures: [String] = []
        for name in names {
            let factory = try #require(CIFilter.builtinFactories[name])
            let filter = factory()
            #expect(filter.name == name)
            for key in filter.inputKeys {
                let attribute = filter.attributes[key] as? [String: Any]
                if attribute?[kCIAttributeClass] as? String == "CIImage" { filter.setValue(Self.photo, forKey: key) }
            }
            // Content that draws something: a message, a text, a small palette.
            if filter.inputKeys.contains("inputMessage") { filter.setValue(Data("Lumen".utf8), forKey: "inputMessage") }
            if filter.inputKeys.contains("inputText") { filter.setValue("Lumen", forKey: "inputText") }
            if filter.inputKeys.contains("inputPaletteImage") {
                filter.setValue(Self.photo.cropped(to: CGRect(x: 0, y: 0, width: 6, height: 1)), forKey: "inputPaletteImage")
            }
            if name == "CIDroste" {  // its default inset is for a 600 × 600 picture
                filter.setValue(CIVector(x: 250, y: 150), forKey: "inputInsetPoint0")
                filter.setValue(CIVector(x: 390, y: 250), forKey: "inputInsetPoint1")
            }
            guard let output = filter.outputImage else { failures.append("\(name): no output"); continue }
            let e = output.extent
            let rect = e.isInfinite ? CGRect(x: 0, y: 0, width: 8, height: 8) : CGRect(x: e.minX, y: e.minY, width: min(8, e.width), height: min(8, e.height))
            guard !rect.isEmpty, context.createCGImage(output, from: rect) != nil else { failures.append("\(name): no pixels in \(e)"); continue }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// CIFilterBuiltins.swift is what the registry generates now (one declaration per filter).
    @Test func generatedFactoriesAreUpToDate() throws {
        let root = CoreImageRecipeTests.root
        let lumen = root.appendingPathComponent(".build/debug/lumen")
        try #require(FileManager.default.isExecutableFile(atPath: lumen.path), "swift test builds the lumen tool with the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(lumen.path)' filters --json | python3 '\(root.path)/scripts/generate-ci-builtins.py' '\(root.path)/Sources/LumenCoreImage/CIFilterBuiltins.swift' --check"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "regenerate Sources/LumenCoreImage/CIFilterBuiltins.swift (see its header)")
    }
}

/// `CIImage.properties` against exiftool, an independent EXIF reader.
@Suite struct ImagePropertiesTests {
    @Test func exifAndTIFFDictionariesMatchExiftool() throws {
        let image = try #require(CIImage(contentsOf: CoreImageRecipeTests.photoURL))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["exiftool", "-j", "-n", "-Make", "-Model", "-ExposureTime", "-FNumber", "-ISO", "-FocalLength", "-DateTimeOriginal", "-Orientation",
                             CoreImageRecipeTests.photoURL.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let json = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let reference = try #require((try JSONSerialization.jsonObject(with: json) as? [[String: Any]])?.first)
        #expect(reference["Make"] as? String == "Canon" && reference["ISO"] != nil && reference["FNumber"] != nil, "exiftool: \(reference)")
        let tiff = try #require(image.properties["{TIFF}"] as? [String: Any])
        let exif = try #require(image.properties["{Exif}"] as? [String: Any])
        #expect(tiff["Make"] as? String == reference["Make"] as? String)
        #expect(tiff["Model"] as? String == reference["Model"] as? String)
        #expect(abs((exif["ExposureTime"] as? Double ?? 0) - (reference["ExposureTime"] as? Double ?? -1)) < 1e-9)
        #expect(abs((exif["FNumber"] as? Double ?? 0) - (reference["FNumber"] as? Double ?? -1)) < 1e-9)
        #expect(exif["ISOSpeedRatings"] as? Int == reference["ISO"] as? Int)
        #expect(abs((exif["FocalLength"] as? Double ?? 0) - (reference["FocalLength"] as? Double ?? -1)) < 1e-9)
        #expect(exif["DateTimeOriginal"] as? String == reference["DateTimeOriginal"] as? String)
        #expect(image.properties["PixelWidth"] as? Int == 640 && image.properties["PixelHeight"] as? Int == 400)
    }
}

/// Absurd sizes and values give nil or empty results with a message, never a crash.
@Suite struct CoreImageBadInputTests {
    @Test func absurdSizesAndValues() throws {
        let context = CIContext()
        for size in [CGSize(width: 1e308, height: 2), CGSize(width: CGFloat.nan, height: 2), CGSize(width: -5, height: 3), CGSize(width: 4, height: 4)] {
            let image = CIImage(bitmapData: Data(count: 16), bytesPerRow: 0, size: size, format: .RGBA8, colorSpace: nil)
            #expect(image.extent.isEmpty, "\(size)")
        }
        let photo = try #require(CIImage(contentsOf: CoreImageRecipeTests.photoURL))
        #expect(context.createCGImage(photo, from: CGRect(x: 0, y: 0, width: 1e12, height: 1e12)) == nil)
        #expect(context.createCGImage(photo, from: .infinite) == nil)
        #expect(context.createCGImage(photo, from: CGRect(x: CGFloat.nan, y: 0, width: 4, height: 4)) == nil)
        var bytes = [UInt8](repeating: 7, count: 16)
        context.render(CIImage(color: .red), toBitmap: &bytes, rowBytes: 16, bounds: CGRect(x: 0, y: 0, width: 1e9, height: 1e9), format: .RGBA8, colorSpace: nil)
        #expect(bytes.allSatisfy { $0 == 7 }, "a refused render writes nothing")
        let blur = CIFilter.gaussianBlur()
        blur.inputImage = photo
        for radius in [Float.nan, .infinity, -1, 1e30] {
            blur.radius = radius
            #expect(blur.outputImage == nil, "radius \(radius)")
        }
        #expect(CIImage(data: Data([0xFF, 0xD8, 0xFF])) == nil)
        #expect(CIImage(contentsOf: URL(fileURLWithPath: "/nonexistent.jpg")) == nil)
    }
}
