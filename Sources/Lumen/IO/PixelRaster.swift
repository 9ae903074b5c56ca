/// Decoded pixels as the file stores them: 1–4 interleaved channels (gray, gray+alpha,
/// RGB, RGBA) of 8 or 16 bits, or 32-bit floats in linear light (OpenEXR), rows top
/// first. Immutable once filled.
public final class PixelRaster: @unchecked Sendable {  // raw pixel memory: filled by one decoder thread, rows read only once published
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Interleaved channels per pixel: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    public let channels: Int
    /// Bits per channel: 8 or 16 (codes), or 32 (linear-light Float32).
    public let depth: Int
    /// True when the last channel is alpha that is already premultiplied (associated).
    public let alphaPremultiplied: Bool
    /// Bytes from one row to the next (no padding).
    public let bytesPerRow: Int
    let storage: UnsafeMutableRawPointer
    private let memory: PixelMemory

    init(width: Int, height: Int, channels: Int, depth: Int, alphaPremultiplied: Bool = false) {
        self.width = width
        self.height = height
        self.channels = channels
        self.depth = depth
        self.alphaPremultiplied = alphaPremultiplied
        self.bytesPerRow = width * channels * (depth / 8)
        self.memory = PixelMemory(byteCount: bytesPerRow * height, alignment: 64)
        self.storage = memory.base
    }

    deinit { memory.release() }

    /// Whether the last channel is alpha (2 or 4 channels).
    public var hasAlpha: Bool { channels == 2 || channels == 4 }
    /// Bytes of pixel data.
    public var byteCount: Int { bytesPerRow * height }

    /// The start of row `row` (0 = top).
    func rowPointer(_ row: Int) -> UnsafeMutableRawPointer { storage + row * bytesPerRow }

    /// One channel value scaled to 0…1 (tests and tools; not for hot loops).
    public func value(x: Int, row: Int, channel: Int) -> Double {
        let index = (row * width + x) * channels + channel
        if depth == 32 { return Double(storage.assumingMemoryBound(to: Float.self)[index]) }
        if depth == 16 { return Double(storage.assumingMemoryBound(to: UInt16.self)[index]) / 65535 }
        return Double(storage.assumingMemoryBound(to: UInt8.self)[index]) / 255
    }

    /// One channel value as stored (0…255 or 0…65535; a float raster's value × 65535, rounded).
    public func sample(x: Int, row: Int, channel: Int) -> Int {
        let index = (row * width + x) * channels + channel
        if depth == 32 {
            let v = Double(storage.assumingMemoryBound(to: Float.self)[index]) * 65535
            return v.isFinite ? Int(max(-1e15, min(1e15, v)).rounded()) : 0
        }
        if depth == 16 { return Int(storage.assumingMemoryBound(to: UInt16.self)[index]) }
        return Int(storage.assumingMemoryBound(to: UInt8.self)[index])
    }
}
