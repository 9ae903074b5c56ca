import LumenPlatform

/// Reuses tile buffers so that steady-state rendering allocates nothing per tile.
/// Buffers are bucketed by capacity (powers of two); one lock per take/return.
final class TilePool: Sendable {
    private struct Spare {
        var free: [Int: [Tile]] = [:]
        var pooledPixels = 0
    }

    private let spare = LockedValue(Spare())
    private let maximumPooledPixels: Int

    /// Keeps at most `maximumPooledPixels` (default 4 M, 64 MiB) of spare tiles.
    init(maximumPooledPixels: Int = 4 << 20) {
        self.maximumPooledPixels = maximumPooledPixels
    }

    /// A tile for `rect`, contents undefined.
    func take(_ rect: PixelRect) -> Tile {
        let bucket = Self.bucket(for: rect.area)
        let tile = spare.withLock { spare in
            let tile = spare.free[bucket]?.popLast()
            if let tile { spare.pooledPixels -= tile.capacity }
            return tile
        }
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

    /// Takes back a tile from `take`; a view (see `Tile`) is let go.
    func give(_ tile: Tile) {
        guard !tile.isView else { return }
        spare.withLock { spare in
            guard spare.pooledPixels + tile.capacity <= maximumPooledPixels else { return }
            spare.pooledPixels += tile.capacity
            spare.free[tile.capacity, default: []].append(tile)
        }
    }

    private static func bucket(for area: Int) -> Int {
        var size = 1024
        while size < area { size <<= 1 }
        return size
    }
}
