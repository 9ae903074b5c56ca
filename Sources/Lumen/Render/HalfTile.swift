import CKernels

/// A kernel whose every output value is a half float already (it rounds them itself, see
/// `roundToHalves`), so its kept pixels are stored as half floats (`HalfTile`) without
/// loss, and a render gives the same pixels whether the node was kept or computed again
/// tile by tile (a cache too small to keep it). For an approximation's intermediate whose
/// precision the steps after it do not need: the large blur's averaged blocks, which the
/// blur then averages again over dozens of them.
protocol KeptAsHalfFloats: ImageKernel {
    /// Whether this node's output is rounded to half floats and kept that way.
    var keptAsHalfFloats: Bool { get }
}

/// Replaces each of `count` pixels in place by the nearest half floats (held within ±65504).
func roundToHalves(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, level: InstructionSet = .current) {
    CKernels_roundToHalves(level.cLevel, UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: Float.self), 4 * count)
}

/// Kept working-space pixels stored as IEEE half floats (binary16, 8 bytes a pixel instead
/// of a `Tile`'s 16), written once tile by tile, then read into tiles.
///
/// Core Image's own default working format is half float (RGBAh). A half keeps 11
/// significant bits: a value is off by at most 1/2048 of itself (about 0.03 of a code at
/// the top of 8-bit sRGB); values beyond ±65504, the largest half, are held at ±65504. The
/// σ 8 blur of a 2560×1600 photo keeps 1304×824 averaged blocks: 8.2 MiB instead of 16.4.
///
/// The halves live in a `Tile`'s memory, two pixels of halves in each of its pixels, so
/// the aligned, mapped and reused memory and the reasoning that makes it safe to share
/// (disjoint rectangles written by one worker each, then read-only) are `Tile`'s. Only the
/// C conversions read or write the halves.
final class HalfTile: Sendable {
    let rect: PixelRect
    private let storage: Tile

    init(rect: PixelRect) {
        self.rect = rect
        storage = Tile(capacity: (rect.area + 1) / 2)
    }

    var byteCount: Int { storage.capacity * MemoryLayout<SIMD4<Float>>.stride }

    /// The four halves of pixel (x, y), which must lie inside `rect`.
    private func at(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt16> {
        UnsafeMutableRawPointer(storage.pixels).assumingMemoryBound(to: UInt16.self) + 4 * ((y - rect.y) * rect.width + (x - rect.x))
    }

    /// Stores the part of `tile` inside `rect`, each value rounded to the nearest half
    /// (exact for a `KeptAsHalfFloats` kernel's pixels).
    func store(_ tile: Tile, level: InstructionSet = .current) {
        let overlap = rect.intersection(tile.rect)
        guard !overlap.isEmpty else { return }
        for y in overlap.y..<overlap.maxY {
            let source = UnsafeRawPointer(tile.row(y) + (overlap.x - tile.rect.x)).assumingMemoryBound(to: Float.self)
            CKernels_packHalves(level.cLevel, source, at(overlap.x, y), 4 * overlap.width)
        }
    }

    /// Fills the part of `tile` inside `rect` with the stored pixels (exactly, as Float32);
    /// the rest of `tile` is left as it was.
    func load(into tile: Tile, level: InstructionSet = .current) {
        let overlap = rect.intersection(tile.rect)
        guard !overlap.isEmpty else { return }
        for y in overlap.y..<overlap.maxY {
            let target = UnsafeMutableRawPointer(tile.row(y) + (overlap.x - tile.rect.x)).assumingMemoryBound(to: Float.self)
            CKernels_unpackHalves(level.cLevel, at(overlap.x, y), target, 4 * overlap.width)
        }
    }
}
