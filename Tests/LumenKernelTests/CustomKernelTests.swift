import Foundation
import Testing
import Lumen  // as a user's package imports it: public API only

/// Custom kernels written from outside the library, checked against scalar references
/// computed here from the input's working-space pixels, and rendered identically under
/// every schedule.
@Suite struct CustomKernelTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A 64×48 corner of the bundled photo over a logo with alpha, so pixels are
    /// premultiplied with alpha between 0 and 1.
    static let input: Image = {
        let photo = try! Image(contentsOf: root.appendingPathComponent("testdata/photo.jpg"))
            .cropped(to: Rect(x: 300, y: 200, width: 64, height: 48))
            .transformed(by: AffineTransform(translationX: -300, y: -200))
        let logo = try! Image(contentsOf: root.appendingPathComponent("testdata/logo.png"))
        let faded = try! photo.applyingFilter("CIColorMatrix", parameters: ["inputAVector": [0, 0, 0, 0.6]])
        return logo.composited(over: faded)
    }()

    /// Working-space pixels of `image` over `rect`, indexed [x, y] with y up.
    struct Pixels {
        let rect: PixelRect
        let values: [SIMD4<Float>]

        init(_ image: Image, in rect: Rect, context: RenderContext = RenderContext()) throws {
            let bitmap = try context.render(image, in: rect, format: .rgbaFloat)
            self.rect = PixelRect(covering: rect)
            var values: [SIMD4<Float>] = []
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width { values.append(bitmap.pixel(x: x, row: bitmap.height - 1 - y)) }
            }
            self.values = values
        }

        /// Transparent black outside the rectangle, as the renderer defines it.
        subscript(x: Int, y: Int) -> SIMD4<Float> {
            guard x >= rect.x, y >= rect.y, x < rect.maxX, y < rect.maxY else { return .zero }
            return values[(y - rect.y) * rect.width + (x - rect.x)]
        }
    }

    func largestDifference(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
        let d = a - b
        return max(d.max(), (-d).max())
    }

    /// Every schedule the renderer may pick must give identical bits.
    static let schedules: [RenderContext.Options] = [
        .init(threads: 1, tileWidth: 1, tileHeight: 1),
        .init(threads: 2, tileWidth: 7, tileHeight: 13),
        .init(threads: 1),
        .init(threads: 2),
        .init(threads: 3, tileWidth: 16, tileHeight: 5),
        .init(threads: ProcessInfo.processInfo.activeProcessorCount),
    ]

    func expectScheduleInvariant(_ image: Image, in rect: Rect) throws {
        let reference = try RenderContext(.init(threads: 1)).render(image, in: rect, format: .rgbaFloat)
        for options in Self.schedules {
            let other = try RenderContext(options).render(image, in: rect, format: .rgbaFloat)
            #expect(other.samples.elementsEqual(reference.samples) { $0.bitPattern == $1.bitPattern },
                    "tiles \(options.tileWidth)×\(options.tileHeight), \(options.threads) threads")
        }
    }

    @Test func colorKernelInvertsPremultipliedPixels() throws {
        let invert = ColorKernel("test.invert") { p in SIMD4(p.w - p.x, p.w - p.y, p.w - p.z, p.w) }
        let rect = Self.input.extent
        let output = invert.apply(extent: rect, arguments: [Self.input])
        let source = try Pixels(Self.input, in: rect), result = try Pixels(output, in: rect)
        for y in 0..<48 {
            for x in 0..<64 {
                let p = source[x, y]
                #expect(result[x, y] == SIMD4(p.w - p.x, p.w - p.y, p.w - p.z, p.w))
            }
        }
        try expectScheduleInvariant(output, in: rect)
    }

    @Test func colorKernelReadsTwoImagesCoordinatesAndValues() throws {
        // A horizontal wipe: the first image left of x = edge, the second beyond, tinted.
        let wipe = ColorKernel("test.wipe", pixel: { pixel in
            pixel.coordinate.x < Float(pixel.values[0]) ? pixel[0] : pixel[1] * Float(pixel.values[1])
        })
        let other = Image(color: Color(red: 0.2, green: 0.8, blue: 0.4)).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48))
        let output = wipe.apply(extent: Self.input.extent, arguments: [Self.input, other, 20.0, 0.5])
        let a = try Pixels(Self.input, in: Self.input.extent), b = try Pixels(other, in: Self.input.extent)
        let result = try Pixels(output, in: Self.input.extent)
        for y in 0..<48 {
            for x in 0..<64 {
                #expect(result[x, y] == (Float(x) + 0.5 < 20 ? a[x, y] : b[x, y] * 0.5))
            }
        }
        // The values are part of the identity; the function's name is too.
        #expect(output == wipe.apply(extent: Self.input.extent, arguments: [Self.input, other, 20.0, 0.5]))
        #expect(output != wipe.apply(extent: Self.input.extent, arguments: [Self.input, other, 21.0, 0.5]))
        #expect(output != ColorKernel("test.wipe", version: 2, pixel: { $0[0] })
            .apply(extent: Self.input.extent, arguments: [Self.input, other, 20.0, 0.5]))
        try expectScheduleInvariant(output, in: Self.input.extent)
    }

    @Test func rowFormMatchesPixelForm() throws {
        let scale = ColorKernel("test.scale", rows: { span in
            let k = Float(span.values[0]), input = span.input(0)
            for i in 0..<span.count { span.output[i] = input[i] * k }
        })
        let perPixel = ColorKernel("test.scale.pixel", pixel: { $0[0] * Float($0.values[0]) })
        let a = try Pixels(scale.apply(extent: Self.input.extent, arguments: [Self.input, 0.7]), in: Self.input.extent)
        let b = try Pixels(perPixel.apply(extent: Self.input.extent, arguments: [Self.input, 0.7]), in: Self.input.extent)
        #expect(a.values == b.values)
    }

    /// Rotates positions around `values.point(0)` by up to `values[1]` radians, fading to
    /// none at radius `values[2]`.
    static let swirl = WarpKernel("test.swirl", mapping: { d, values in
        let c = values.point(0), v = d - c, r = (v * v).sum().squareRoot()
        let a = values[1] * max(0, 1 - r / values[2])
        let (s, k) = (sin(a), cos(a))
        return c + SIMD2(v.x * k - v.y * s, v.x * s + v.y * k)
    })

    @Test func warpKernelSwirlsWithBilinearSampling() throws {
        let rect = Self.input.extent
        let output = Self.swirl.apply(extent: rect, image: Self.input, regionOfInterest: { $0.insetBy(dx: -20, dy: -20) },
                                      arguments: [Point(x: 32, y: 24), 1.5, 20.0])
        let source = try Pixels(Self.input, in: rect.insetBy(dx: -2, dy: -2)), result = try Pixels(output, in: rect)
        var worst: Float = 0
        for y in 0..<48 {
            for x in 0..<64 {
                // Scalar reference: the same mapping, then bilinear interpolation of centres.
                let d = SIMD2(Double(x) + 0.5, Double(y) + 0.5), c = SIMD2(32.0, 24.0), v = d - c
                let a = 1.5 * max(0, 1 - (v * v).sum().squareRoot() / 20)
                let p = c + SIMD2(v.x * cos(a) - v.y * sin(a), v.x * sin(a) + v.y * cos(a)) - 0.5
                let x0 = Int(p.x.rounded(.down)), y0 = Int(p.y.rounded(.down))
                let fx = Float(p.x - Double(x0)), fy = Float(p.y - Double(y0))
                let expected = (source[x0, y0] * (1 - fx) + source[x0 + 1, y0] * fx) * (1 - fy)
                    + (source[x0, y0 + 1] * (1 - fx) + source[x0 + 1, y0 + 1] * fx) * fy
                worst = max(worst, largestDifference(result[x, y], expected))
            }
        }
        #expect(worst < 1e-6, "largest difference from the scalar reference: \(worst)")
        // Outside the swirl's radius the picture is unchanged.
        #expect(result[2, 2] == source[2, 2] && result[60, 45] == source[60, 45])
        try expectScheduleInvariant(output, in: rect)
    }

    @Test func warpSamplersNearestAndLanczos() throws {
        let shift = WarpKernel("test.shift") { d in d + SIMD2(3, -2) }
        let rect = Self.input.extent
        let nearest = shift.apply(extent: rect, image: Self.input, regionOfInterest: { $0.offsetBy(dx: 3, dy: -2) }, sampling: .nearest)
        let source = try Pixels(Self.input, in: rect.insetBy(dx: -4, dy: -4)), result = try Pixels(nearest, in: rect)
        for y in 0..<48 { for x in 0..<64 { #expect(result[x, y] == source[x + 3, y - 2]) } }
        // A whole-pixel shift through Lanczos-3 hits its taps' zeros: the same pixels.
        let lanczos = shift.apply(extent: rect, image: Self.input, regionOfInterest: { $0.offsetBy(dx: 3, dy: -2) },
                                  sampling: .resampling(.lanczos3))
        let sharp = try Pixels(lanczos, in: rect)
        for y in 0..<48 { for x in 0..<64 { #expect(largestDifference(sharp[x, y], source[x + 3, y - 2]) < 1e-6) } }
        try expectScheduleInvariant(lanczos, in: rect)
    }

    @Test func generalKernelBoxFiltersInsideItsRegionOfInterest() throws {
        let box = Kernel("test.box5") { out, samplers in
            out.forEachRow { y, row, count in
                for i in 0..<count {
                    var sum = SIMD4<Float>.zero
                    for dy in -2...2 { for dx in -2...2 { sum += samplers[0].pixel(out.rect.x + i + dx, y + dy) } }
                    row[i] = sum / 25
                }
            }
        }
        let rect = Self.input.extent.insetBy(dx: -2, dy: -2)
        let output = box.apply(extent: rect, regionOfInterest: { _, r in r.insetBy(dx: -2, dy: -2) }, arguments: [Self.input])
        let source = try Pixels(Self.input, in: Self.input.extent), result = try Pixels(output, in: rect)
        for y in -2..<50 {
            for x in -2..<66 {
                var sum = SIMD4<Float>.zero
                for dy in -2...2 { for dx in -2...2 { sum += source[x + dx, y + dy] } }
                #expect(result[x, y] == sum / 25)
            }
        }
        try expectScheduleInvariant(output, in: rect)
        // The per-pixel form of the same kernel agrees.
        let perPixel = Kernel("test.box5.pixel", pixel: { d, samplers in
            var sum = SIMD4<Float>.zero
            let x = Int(d.x.rounded(.down)), y = Int(d.y.rounded(.down))
            for dy in -2...2 { for dx in -2...2 { sum += samplers[0].pixelOrClear(x + dx, y + dy) } }
            return sum / 25
        }).apply(extent: rect, regionOfInterest: { _, r in r.insetBy(dx: -2, dy: -2) }, arguments: [Self.input])
        #expect(try zip(Pixels(perPixel, in: rect).values, result.values).filter { $0 != $1 }.count == 0)
    }

    /// A kernel written as a value type conforming to the contract the built-ins use.
    struct Threshold: ImageKernel {
        var level: Float
        var name: String { "test.threshold" }
        func render(_ destination: Destination, inputs: [Sampler]) {
            destination.forEachRow { y, out, count in
                let row = inputs[0].row(y, from: destination.rect.x)
                for i in 0..<count { out[i] = row[i].y > level * row[i].w ? SIMD4(1, 1, 1, 1) : SIMD4(0, 0, 0, 1) }
            }
        }
    }

    @Test func valueKernelsUseTheBuiltInContract() throws {
        let binary = Threshold(level: 0.2).apply(to: [Self.input])
        #expect(binary.extent == Self.input.extent)
        #expect(binary == Threshold(level: 0.2).apply(to: [Self.input]))
        #expect(binary != Threshold(level: 0.3).apply(to: [Self.input]))
        let source = try Pixels(Self.input, in: Self.input.extent), result = try Pixels(binary, in: Self.input.extent)
        for y in 0..<48 { for x in 0..<64 { #expect(result[x, y].x == (source[x, y].y > 0.2 * source[x, y].w ? 1 : 0)) } }
        try expectScheduleInvariant(binary, in: Self.input.extent)
    }

    @Test func customKernelsRenderThroughTheCacheAndFiles() throws {
        let invert = ColorKernel("test.invert") { p in SIMD4(p.w - p.x, p.w - p.y, p.w - p.z, p.w) }
        // Opaque (over black), so 8-bit files hold every value exactly.
        let black = Image(color: .black).cropped(to: Self.input.extent)
        let output = invert.apply(extent: Self.input.extent, arguments: [Self.input]).applyingGaussianBlur(sigma: 1.5)
            .cropped(to: Self.input.extent).composited(over: black)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-kernel-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        let context = RenderContext()
        try context.write(output, to: url)
        let back = try context.render(Image(contentsOf: url), format: .rgba8)
        let direct = try context.render(output, format: .rgba8)
        #expect(back.width == direct.width && back.height == direct.height)
        #expect(zip(back.samples, direct.samples).filter { $0 != $1 }.count == 0)
    }
}
