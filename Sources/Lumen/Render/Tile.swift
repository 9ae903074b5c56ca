/// A rectangle of working-space pixels: linear-light, premultiplied RGBA Float32,
/// rows in ascending y (bottom row first), `rect.width` pixels per row.
final class Tile: @unchecked Sendable {  // raw pixel memory, used by one worker at a time; kept tiles are read-only
    private(set) var rect: PixelRect
    private(set) var pixels: UnsafeMutablePointer<SIMD4<Float>>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        // On a cache line: a row starting mid-line split every other AVX2 load in two.
        self.pixels = UnsafeMutableRawPointer.allocate(byteCount: self.capacity * MemoryLayout<SIMD4<Float>>.stride, alignment: 64)
            .bindMemory(to: SIMD4<Float>.self, capacity: self.capacity)
        self.rect = .empty
    }

    deinit { pixels.deallocate() }

    func reset(to rect: PixelRect) {
        precondition(rect.area <= capacity)
        self.rect = rect
    }

    /// The row at absolute y (must lie inside `rect`).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        pixels + (y - rect.y) * rect.width
    }

    /// The pixel at absolute (x, y) (must lie inside `rect`).
    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        pixels[(y - rect.y) * rect.width + (x - rect.x)]
    }

    /// The pixel at absolute (x, y), or transparent black outside `rect`.
    @inline(__always)
    func pixelOrClear(_ x: Int, _ y: Int) -> SIMD4<Float> {
        guard x >= rect.x, y >= rect.y, x < rect.maxX, y < rect.maxY else { return .zero }
        return pixels[(y - rect.y) * rect.width + (x - rect.x)]
    }

    func clear() { pixels.update(repeating: .zero, count: rect.area) }

    /// Sets every pixel outside `keep` to transparent black.
    func clear(outside keep: PixelRect) {
        let inside = rect.intersection(keep)
        if inside == rect { return }
        if inside.isEmpty { clear(); return }
        for y in rect.y..<rect.maxY {
            let row = self.row(y)
            if y < inside.y || y >= inside.maxY {
                row.update(repeating: .zero, count: rect.width)
            } else {
                (row).update(repeating: .zero, count: inside.x - rect.x)
                (row + (inside.maxX - rect.x)).update(repeating: .zero, count: rect.maxX - inside.maxX)
            }
        }
    }

    /// Copies the overlapping part of `source` into this tile (same coordinates).
    func copy(from source: Tile) {
        let overlap = rect.intersection(source.rect)
        guard !overlap.isEmpty else { return }
        for y in overlap.y..<overlap.maxY {
            (row(y) + (overlap.x - rect.x)).update(from: source.row(y) + (overlap.x - source.rect.x), count: overlap.width)
        }
    }
}
