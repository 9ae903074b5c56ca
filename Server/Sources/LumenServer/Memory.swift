import Foundation

/// Gives freed memory back to the system when the service goes idle (glibc keeps what its
/// per-thread arenas freed; a server that rendered a burst would otherwise sit at its peak),
/// at most every few seconds.
enum MemoryTrim {
    private static let last = LockedValueBox(0.0)

    static func afterRender(idle: Bool) {
        guard idle else { return }
        let now = Date().timeIntervalSinceReferenceDate
        guard last.exchange(if: { now - $0 >= 2 }, with: now) else { return }
        guard let trim = GlibcMalloc.trim else { return }
        DispatchQueue.global(qos: .utility).async { _ = trim(0) }
    }
}

/// glibc's malloc tuning, found at run time (malloc.h is not in Swift's Glibc module; nil
/// on other C libraries).
public enum GlibcMalloc {
    static let trim: (@convention(c) (Int) -> Int32)? = symbol("malloc_trim")
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = symbol("mallopt")

    /// At most `count` malloc arenas (glibc's M_ARENA_MAX); false where glibc is absent.
    @discardableResult
    public static func limitArenas(to count: Int32) -> Bool { mallopt?(-8, count) == 1 }

    /// Allocations of `bytes` or more are mapped and given back to the system when freed
    /// (glibc's M_MMAP_THRESHOLD, which also stops glibc from raising it by itself). Without
    /// it, glibc raised the threshold to the size of the first decoded picture it freed, later
    /// pictures came from the heap, and a server rendering many sizes of many photos sat at
    /// 2.6 GB resident with 195 MB in its caches (430 MB with it).
    @discardableResult
    public static func mapAllocations(from bytes: Int32) -> Bool { mallopt?(-3, bytes) == 1 }

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
