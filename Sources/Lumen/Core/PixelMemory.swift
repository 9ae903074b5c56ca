#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory for one pixel buffer: a decoded raster, a kept intermediate, a tile, a band or
/// a picture gathered for an encoder.
///
/// Buffers of a mebibyte or more are mapped from the kernel, and a few released ones are
/// kept for the next render to reuse (`Spares`). Through malloc, glibc raised its mapping
/// threshold to the size of each large block freed, so later rasters came from whichever
/// thread's arena asked and stayed there: a process rendering 2560×1600 σ 8 blurs one
/// after another grew from 39 to 60 MiB, with never more than 36 MiB allocated. Unmapping
/// every buffer instead cost each render its page faults again (7,500 of them, 1.2× the
/// blur's time in this VM), hence the spares.
struct PixelMemory {
    /// From this size on, buffers are mapped.
    static let mappedFrom = 1 << 20

    let base: UnsafeMutableRawPointer
    /// Bytes usable from `base`: at least what was asked for (a spare may be larger).
    let byteCount: Int
    private let isMapped: Bool
    private let spares: Spares

    /// Uninitialized memory of at least `byteCount` bytes (and at least one), aligned to
    /// `alignment` (at most a page); a large one comes from `spares` when one fits.
    init(byteCount: Int, alignment: Int, spares: Spares = .shared) {
        let wanted = max(1, byteCount)
        if wanted >= Self.mappedFrom, alignment <= 4096 {
            if let spare = spares.take(atLeast: wanted) {
                (base, self.byteCount, isMapped, self.spares) = (spare.base, spare.byteCount, true, spares)
                return
            }
            if let mapped = mmap(nil, wanted, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
               mapped != MAP_FAILED {
                (base, self.byteCount, isMapped, self.spares) = (mapped, wanted, true, spares)
                return
            }
        }
        (base, self.byteCount, isMapped) = (.allocate(byteCount: wanted, alignment: alignment), wanted, false)
        self.spares = spares
    }

    /// Gives the memory back; `base` must not be used afterwards.
    func release() {
        if isMapped { spares.keep(base, byteCount: byteCount) } else { base.deallocate() }
    }
}

/// Released mappings kept for reuse: at most `count` of them and `totalBytes` in all,
/// the oldest unmapped first. A request takes the smallest spare that holds it and is not
/// more than twice its size, so a small raster does not pin a large one.
final class Spares: Sendable {
    static let shared = Spares(count: 4, totalBytes: 128 << 20)

    private struct Spare { let address: UInt; let byteCount: Int }
    private let kept = LockedValue<[Spare]>([])
    private let count: Int
    private let totalBytes: Int

    init(count: Int, totalBytes: Int) {
        self.count = count
        self.totalBytes = totalBytes
    }

    /// Bytes held now.
    var byteCount: Int { kept.withLock { $0.reduce(0) { $0 + $1.byteCount } } }

    func take(atLeast byteCount: Int) -> (base: UnsafeMutableRawPointer, byteCount: Int)? {
        kept.withLock { spares in
            let fitting = spares.indices.filter { spares[$0].byteCount >= byteCount && spares[$0].byteCount / 2 <= byteCount }
            guard let best = fitting.min(by: { spares[$0].byteCount < spares[$1].byteCount }),
                  let base = UnsafeMutableRawPointer(bitPattern: spares[best].address) else { return nil }
            return (base, spares.remove(at: best).byteCount)
        }
    }

    func keep(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        guard byteCount <= totalBytes else { munmap(base, byteCount); return }  // it would push out every spare, then itself
        let unmapped: [Spare] = kept.withLock { spares in
            spares.append(Spare(address: UInt(bitPattern: base), byteCount: byteCount))
            var dropped: [Spare] = []
            while spares.count > count || spares.reduce(0, { $0 + $1.byteCount }) > totalBytes {
                dropped.append(spares.removeFirst())
            }
            return dropped
        }
        for spare in unmapped { munmap(UnsafeMutableRawPointer(bitPattern: spare.address), spare.byteCount) }
    }
}
