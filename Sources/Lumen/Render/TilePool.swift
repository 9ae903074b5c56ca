import Foundation

/// Reuses tile buffers so that steady-state rendering allocates nothing per tile.
/// Buffers are bucketed by capacity (powers of two); one lock per take/return.
final class TilePool: @unchecked Sendable {
    private var free: [Int: [Tile]] = [:]
    private let lock = NSLock()
    private let maximumPooledPixels: Int
    private var pooledPixels = 0
    private(set) var allocations = 0

    /// Keeps at most `maximumPooledPixels` (default 4 M, 64 MiB) of spare tiles.
    init(maximumPooledPixels: Int = 4 << 20) {
        self.maximumPooledPixels = maximumPooledPixels
    }

    /// A tile for `rect`, contents undefined.
    func take(_ rect: PixelRect) -> Tile {
        let bucket = Self.bucket(for: rect.area)
        lock.lock()
        let tile = free[bucket]?.popLast()
        if let tile { pooledPixels -= tile.capacity } else { allocations += 1 }
        lock.unlock()
        let result = tile ?? Tile(capacity: bucket)
        result.reset(to: rect)
        return result
    }

    /// A tile for `rect` filled with transparent black.
    func takeCleared(_ rect: PixelRect) -> Tile {
        let tile = take(rect)
        tile.clear()
        return tile
    }

    func give(_ tile: Tile) {
        lock.lock()
        defer { lock.unlock() }
        guard pooledPixels + tile.capacity <= maximumPooledPixels else { return }
        pooledPixels += tile.capacity
        free[tile.capacity, default: []].append(tile)
    }

    private static func bucket(for area: Int) -> Int {
        var size = 1024
        while size < area { size <<= 1 }
        return size
    }
}
