import Foundation
import Testing
@testable import Lumen

/// Tiles that are views: pixels in memory and kept intermediates are read in place, rows
/// `stride` pixels apart, wider than the tile.
@Suite struct TileViewTests {
    /// Premultiplied values that differ in every channel of every pixel.
    static func pixels(width: Int, height: Int) -> [SIMD4<Float>] {
        (0..<(width * height)).map { i in
            let a = Float((i * 37) % 101) / 100
            return SIMD4(Float((i * 13) % 97) / 96 * a, Float((i * 29) % 89) / 88 * a, Float((i * 7) % 83) / 82 * a, a)
        }
    }

    @Test func aViewReadsAndWritesOnlyItsPartOfTheTile() {
        let whole = Tile(capacity: 10 * 8)
        whole.reset(to: PixelRect(x: -3, y: 5, width: 10, height: 8))
        for y in 5..<13 { for x in -3..<7 { whole.row(y)[x + 3] = SIMD4(Float(x), Float(y), 0, 1) } }
        let view = Tile(viewing: whole, PixelRect(x: 1, y: 7, width: 4, height: 3))
        #expect(view.isView && view.stride == 10)
        #expect(view.pixel(1, 7) == SIMD4(1, 7, 0, 1) && view.pixel(4, 9) == SIMD4(4, 9, 0, 1))
        #expect(view.pixelOrClear(5, 9) == .zero, "outside the view is clear, though the tile holds it")
        view.clear(outside: PixelRect(x: 2, y: 8, width: 2, height: 1))
        for y in 5..<13 {
            for x in -3..<7 {
                let inView = (1..<5).contains(x) && (7..<10).contains(y), kept = (2..<4).contains(x) && y == 8
                let expected = inView && !kept ? SIMD4<Float>.zero : SIMD4(Float(x), Float(y), 0, 1)
                #expect(whole.pixel(x, y) == expected, "(\(x), \(y))")
            }
        }
        // A view of a view looks into the same pixels.
        let inner = Tile(viewing: view, PixelRect(x: 2, y: 8, width: 2, height: 1))
        #expect(inner.stride == 10 && inner.row(8) == whole.row(8) + 5)
        // A view never goes back to the pool: the pool hands out tiles it owns.
        let pool = TilePool()
        pool.give(view)
        #expect(!pool.take(PixelRect(x: 0, y: 0, width: 4, height: 3)).isView)
    }

    /// Read in place, tile by tile, the pixels come out as they went in, bit for bit.
    @Test func pixelsInMemoryRenderAsTheyWereGiven() throws {
        let width = 23, height = 17, values = Self.pixels(width: width, height: height)
        let image = try Image(workingSpacePixels: values, width: width, height: height)
        for (w, h) in [(7, 5), (23, 17), (64, 64)] {
            let bitmap = try RenderContext(.init(threads: 1, tileWidth: w, tileHeight: h)).render(image, format: .rgbaFloat)
            var differing = 0
            for y in 0..<height {
                for x in 0..<width {
                    let p = values[y * width + x], offset = ((height - 1 - y) * width + x) * 4  // the bitmap's rows run from the top
                    if (0..<4).contains(where: { bitmap.samples[offset + $0] != p[$0] }) { differing += 1 }
                }
            }
            #expect(differing == 0, "tiles \(w)×\(h): \(differing) pixels differ")
        }
    }

    /// Kernels that read rows through pointers (the separable passes, the resampler)
    /// read lent pixels, rows a whole image apart, as they read a tile of their own.
    @Test func kernelsReadLentPixelsAsTheirOwn() throws {
        let width = 41, height = 29
        let image = try Image(workingSpacePixels: Self.pixels(width: width, height: height), width: width, height: height)
        try expectTileInvariant(image.applyingGaussianBlur(sigma: 2))
        try expectTileInvariant(image.applyingGaussianBlur(sigma: 7))  // the pyramid: a kept ½-size copy, read in place
        try expectTileInvariant(image.applyingFilter("lanczosScale", parameters: ["scale": 0.4]))
        try expectTileInvariant(image.applyingFilter("motionBlur", parameters: ["radius": 5.0, "angle": 0.3]))
    }
}
