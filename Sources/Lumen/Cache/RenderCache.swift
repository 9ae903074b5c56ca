import Foundation

/// The render cache of one `RenderContext`: decoded sources and the intermediates worth
/// keeping (blurs, resamples, generated masks), keyed by node identity, bounded in
/// bytes, least recently used evicted first. Safe to share between concurrent renders;
/// concurrent requests for the same missing entry compute it once.
public final class RenderCache: @unchecked Sendable {
    /// Counters since the cache was made.
    public struct Statistics: Sendable, Equatable, CustomStringConvertible {
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        public var bytes = 0
        public var entries = 0
        public var byteLimit = 0
        public var description: String {
            "cache: \(hits) hits, \(misses) misses, \(evictions) evictions, \(entries) entries, \(bytes)/\(byteLimit) bytes"
        }
    }

    /// What the cache holds for one node.
    enum Entry {
        /// Decoded file rows `firstRow ..< firstRow + raster.height`, possibly still arriving.
        case raster(DecodingRaster)
        /// Rendered working-space pixels of a region.
        case pixels(Tile)

        var byteCount: Int {
            switch self {
            case let .raster(decoding): return decoding.raster.byteCount
            case let .pixels(tile): return tile.capacity * MemoryLayout<SIMD4<Float>>.stride
            }
        }
    }

    private let storage: LRUCache<NodeIdentity, Entry>
    private let lock = NSLock()
    private var inFlight: [NodeIdentity: NSLock] = [:]
    private var seen: Set<NodeIdentity> = []
    private var hits = 0
    private var misses = 0

    public init(byteLimit: Int = 256 << 20) {
        storage = LRUCache(costLimit: byteLimit)
    }

    public var byteLimit: Int { storage.costLimit }

    public var statistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return Statistics(hits: hits, misses: misses, evictions: storage.evictions, bytes: storage.totalCost,
                          entries: storage.count, byteLimit: storage.costLimit)
    }

    public func removeAll() { storage.removeAll() }

    /// Drops whatever is kept for the nodes of `image`'s graph (e.g. a batch input that
    /// will not be read again).
    public func removeValues(for image: Image) {
        var stack = [image.node]
        while let node = stack.popLast() {
            storage.removeValue(for: node.identity)
            stack += node.inputs
        }
    }

    func removeValue(for key: NodeIdentity) { storage.removeValue(for: key) }

    /// Returns the cached entry for `key` if `isUsable` accepts it; otherwise computes one,
    /// stores it if it fits, and returns it. Concurrent callers for one key wait for the
    /// first instead of computing again.
    func entry(for key: NodeIdentity, isUsable: (Entry) -> Bool, compute: () throws -> Entry) throws -> Entry {
        while true {
            if let cached = storage.value(for: key), isUsable(cached) {
                count(hit: true)
                return cached
            }
            lock.lock()
            if let other = inFlight[key] {
                lock.unlock()
                other.lock()  // wait for the computing thread
                other.unlock()
                continue
            }
            let mine = NSLock()
            mine.lock()
            inFlight[key] = mine
            misses += 1
            lock.unlock()
            defer {
                lock.lock()
                inFlight[key] = nil
                lock.unlock()
                mine.unlock()
            }
            let computed = try compute()
            storage.set(computed, for: key, cost: computed.byteCount)
            return computed
        }
    }

    /// Records that a render used `key`; returns true when it was seen before, i.e. the
    /// intermediate is being reused and is worth keeping.
    func noteUse(of key: NodeIdentity) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if seen.contains(key) { return true }
        if seen.count > 4096 { seen.removeAll(keepingCapacity: true) }
        seen.insert(key)
        return false
    }

    func contains(_ key: NodeIdentity) -> Bool { storage.value(for: key) != nil }

    private func count(hit: Bool) {
        lock.lock()
        if hit { hits += 1 } else { misses += 1 }
        lock.unlock()
    }
}
