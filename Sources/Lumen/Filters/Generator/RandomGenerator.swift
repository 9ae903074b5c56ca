extension FilterDescriptor {
    /// Four independent uniform values in [0, 1) per pixel (R, G, B, A), a fixed function
    /// of the pixel's position (a 64-bit integer hash), so every render agrees.
    static let random = FilterDescriptor(
        name: "random", coreImageName: "CIRandomGenerator", category: .generator,
        summary: "Infinite noise: four independent uniform values per pixel.",
        details: "channel c of pixel (x, y) = hash(x, y, c) / 2⁶⁴, stored as is (not premultiplied).",
        parameters: []
    ) { _ in RandomNoise().apply() }
}

struct RandomNoise: PixelGenerator {
    var name: String { "random" }
    var isOpaque: Bool { false }

    func fill(_ row: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int) {
        for i in 0..<count {
            row[i] = SIMD4(cellNoise(x + i, y &* 4), cellNoise(x + i, y &* 4 &+ 1), cellNoise(x + i, y &* 4 &+ 2), cellNoise(x + i, y &* 4 &+ 3))
        }
    }
}
