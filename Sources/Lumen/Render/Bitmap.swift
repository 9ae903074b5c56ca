/// Rendered pixels handed back to the caller: RGBA, rows top first (as in files),
/// unpremultiplied sRGB for the integer formats, working space for `.rgbaFloat`.
public struct Bitmap: Sendable, Equatable {
    /// How a bitmap stores its samples.
    public enum Format: Sendable, Equatable {
        /// 8 bits per channel, unpremultiplied sRGB.
        case rgba8
        /// 16 bits per channel, unpremultiplied sRGB.
        case rgba16
        /// Float32 per channel, linear premultiplied (the working space).
        case rgbaFloat
    }

    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// How `samples` are encoded.
    public let format: Format
    /// Channel values, 4 per pixel, row-major from the top row: 0…255, 0…65535 or floats.
    public internal(set) var samples: [Float]

    init(width: Int, height: Int, format: Format) {
        self.width = width
        self.height = height
        self.format = format
        samples = [Float](repeating: 0, count: width * height * 4)
    }

    /// The RGBA value at column `x`, row `row` (0 = top).
    public func pixel(x: Int, row: Int) -> SIMD4<Float> {
        let i = (row * width + x) * 4
        return SIMD4(samples[i], samples[i + 1], samples[i + 2], samples[i + 3])
    }
}
