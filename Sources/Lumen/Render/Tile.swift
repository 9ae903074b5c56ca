/// A rectangle of working-space pixels: linear-light, premultiplied RGBA Float32,
/// rows in ascending y (bottom row first), `stride` pixels apart.
///
/// A tile owns its memory (`stride` is then `rect.width`), or is a view lent by whatever
/// holds the pixels already (a kept intermediate, pixels in memory), read or filled in
/// place without a copy; a view keeps its owner alive and never goes back to the pool.
final class Tile: @unchecked Sendable {  // raw pixel memory, used by one worker at a time; kept tiles are read-only
    private(set) var rect: PixelRect
    private(set) var pixels: UnsafeMutablePointer<SIMD4<Float>>
    /// Pixels from one row's start to the next's.
    private(set) var stride: Int
    /// Pixels the tile owns (0 for a view).
    let capacity: Int
    /// What holds a view's pixels (nil when the tile owns them).
    private let owner: AnyObject?
    /// The tile's own memory (nil for a view).
    private let memory: PixelMemory?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        // On a cache line: a row starting mid-line split every other AVX2 load in two.
        let memory = PixelMemory(byteCount: self.capacity * MemoryLayout<SIMD4<Float>>.stride, alignment: 64)
        self.memory = memory
        self.pixels = memory.base.bindMemory(to: SIMD4<Float>.self, capacity: self.capacity)
        self.rect = .empty
        self.stride = 0
        self.owner = nil
    }

    /// A view of `rect` in pixels that `owner` keeps: `first` is the pixel at (rect.x,
    /// rect.y), rows `stride` pixels apart.
    init(viewing first: UnsafeMutablePointer<SIMD4<Float>>, stride: Int, rect: PixelRect, owner: AnyObject) {
        precondition(stride >= rect.width, "a view's rows overlap")
        self.pixels = first
        self.stride = stride
        self.rect = rect
        self.capacity = 0
        self.owner = owner
        self.memory = nil
    }

    /// A view of the part `rect` of `tile`, which must contain it.
    convenience init(viewing tile: Tile, _ rect: PixelRect) {
        precondition(tile.rect.contains(rect), "a view reaches outside its tile")
        self.init(viewing: tile.row(rect.y) + (rect.x - tile.rect.x), stride: tile.stride, rect: rect, owner: tile.owner ?? tile)
    }

    deinit { memory?.release() }

    /// Whether the pixels belong to another object.
    var isView: Bool { owner != nil }

    func reset(to rect: PixelRect) {
        precondition(!isView && rect.area <= capacity)
        self.rect = rect
        self.stride = rect.width
    }

    /// The row at absolute y (must lie inside `rect`).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        pixels + (y - rect.y) * stride
    }

    /// The pixel at absolute (x, y) (must lie inside `rect`).
    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        pixels[(y - rect.y) * stride + (x - rect.x)]
    }

    /// The pixel at absolute (x, y), or transparent black outside `rect`.
    @inline(__always)
    func pixelOrClear(_ x: Int, _ y: Int) -> SIMD4<Float> {
        guard x >= rect.x, y >= rect.y, x < rect.maxX, y < rect.maxY else { return .zero }
        return pixels[(y - rect.y) * stride + (x - rect.x)]
    }

    func clear() {
        if stride == rect.width { return pixels.update(repeating: .zero, count: rect.area) }
        for y in rect.y..<rect.maxY { row(y).update(repeating: .zero, count: rect.width) }
    }

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
