import LumenPlatform

/// The render cache of one `RenderContext`: decoded sources and the intermediates worth
/// keeping (blurs, resamples, generated masks), keyed by node identity, bounded in
/// bytes, least recently used evicted first. Safe to share between concurrent renders;
/// concurrent requests for the same missing entry compute it once.
public final class RenderCache: Sendable {
    /// Counters since the cache was made.
    public struct Statistics: Sendable, Equatable, CustomStringConvertible {
        /// Lookups that found their entry.
        public var hits = 0
        /// Lookups that had to compute or decode.
        public var misses = 0
        /// Entries dropped to stay within the byte limit.
        public var evictions = 0
        /// Bytes held now.
        public var bytes = 0
        /// Entries held now.
        public var entries = 0
        /// The most the cache holds.
        public var byteLimit = 0
        /// One line with every counter, as `--explain` prints it.
        public var description: String {
            "cache: \(hits) hits, \(misses) misses, \(evictions) evictions, \(entries) entries, \(bytes)/\(byteLimit) bytes"
        }
    }

    /// What the cache holds for one node.
    enum Entry: Sendable {
        /// Decoded file rows `firstRow ..< firstRow + raster.height`, possibly still arriving.
        case raster(DecodingRaster)
        /// Rendered working-space pixels of a region.
        case pixels(Tile)
        /// The same, stored as half floats (a `KeptAsHalfFloats` kernel's).
        case halfPixels(HalfTile)

        var byteCount: Int {
            switch self {
            case let .raster(decoding): return decoding.raster.byteCount
            case let .pixels(tile): return tile.capacity * MemoryLayout<SIMD4<Float>>.stride
            case let .halfPixels(tile): return tile.byteCount
            }
        }

        /// The rectangle of pixels held (nil for decoded rows).
        var pixelRect: PixelRect? {
            switch self {
            case .raster: return nil
            case let .pixels(tile): return tile.rect
            case let .halfPixels(tile): return tile.rect
            }
        }
    }

    /// Everything mutable, behind one lock: the LRU store, the computations in flight,
    /// the identities seen, and the counters (read together, so statistics are consistent).
    private struct State {
        var storage: LRUCache<NodeIdentity, Entry>
        var inFlight: [NodeIdentity: InFlight] = [:]
        /// Digests only: an identity kept here would keep its graph, and an upload's bytes, alive.
        var seen: Set<NodeIdentity.Digest> = []
        /// The sources a render has decoded (digests), to keep them whole when rendered again.
        var decoded: Set<NodeIdentity.Digest> = []
        var hits = 0
        var misses = 0
    }

    /// A computation other callers wait for: its thread holds `lock` until it is done.
    private final class InFlight: Sendable {
        let lock = Lock()
    }

    private let state: LockedValue<State>
    /// The most bytes the cache holds; the least recently used entries go first past it.
    public let byteLimit: Int

    /// A cache holding at most `byteLimit` bytes (256 MiB by default).
    public init(byteLimit: Int = 256 << 20) {
        self.byteLimit = byteLimit
        state = LockedValue(State(storage: LRUCache(costLimit: byteLimit)))
    }

    /// The counters now, read together under the cache's lock.
    public var statistics: Statistics {
        state.withLock { s in
            Statistics(hits: s.hits, misses: s.misses, evictions: s.storage.evictions, bytes: s.storage.totalCost,
                       entries: s.storage.count, byteLimit: s.storage.costLimit)
        }
    }

    /// Empties the cache and forgets which sources were decoded (the counters are kept).
    public func removeAll() {
        state.withLock { s in
            s.storage.removeAll()
            s.decoded.removeAll()
        }
    }

    /// Drops whatever is kept for the nodes of `image`'s graph (e.g. a batch input that
    /// will not be read again).
    public func removeValues(for image: Image) {
        var stack = [image.node]
        while let node = stack.popLast() {
            removeValue(for: node.identity)
            stack += node.inputs
        }
    }

    func removeValue(for key: NodeIdentity) { state.withLock { $0.storage.removeValue(for: key) } }

    /// Returns the cached entry for `key` if `isUsable` accepts it; otherwise computes one,
    /// stores it if it fits, and returns it. Concurrent callers for one key wait for the
    /// first instead of computing again.
    func entry(for key: NodeIdentity, isUsable: (Entry) -> Bool, compute: () throws -> Entry) throws -> Entry {
        enum Next { case found(Entry), wait(InFlight), compute(InFlight) }
        while true {
            let next: Next = state.withLock { s in
                if let cached = s.storage.value(for: key), isUsable(cached) {
                    s.hits += 1
                    return .found(cached)
                }
                if let other = s.inFlight[key] { return .wait(other) }
                let mine = InFlight()
                mine.lock.lock()
                s.inFlight[key] = mine
                s.misses += 1
                return .compute(mine)
            }
            switch next {
            case let .found(entry):
                return entry
            case let .wait(other):
                other.lock.lock()  // until the computing thread is done
                other.lock.unlock()
            case let .compute(mine):
                defer {
                    state.withLock { $0.inFlight[key] = nil }
                    mine.lock.unlock()
                }
                let computed = try compute()
                // The key keeps its graph alive: an upload's encoded bytes count with the pixels.
                state.withLock { _ = $0.storage.set(computed, for: key, cost: computed.byteCount + key.retainedBytes) }
                return computed
            }
        }
    }

    /// Whether the cache holds decoded rows of `key` covering `rows`.
    func holdsRows(_ key: NodeIdentity, _ rows: Range<Int>) -> Bool {
        state.withLock { s in
            guard case let .raster(d)? = s.storage.value(for: key) else { return false }
            return d.firstRow <= rows.lowerBound && d.firstRow + d.raster.height >= rows.upperBound
        }
    }

    /// Records that a render decodes the source `key`; true when one on this cache did
    /// before, or a caller said it will (`expectRenders`): the source is worth keeping whole.
    func isDecodedAgain(_ key: NodeIdentity) -> Bool {
        state.withLock { Self.note(key.digest, in: &$0.decoded) }
    }

    /// Inserts `digest` into `set` (bounded: past 4,096 digests it starts again); true
    /// when it was there already.
    private static func note(_ digest: NodeIdentity.Digest, in set: inout Set<NodeIdentity.Digest>) -> Bool {
        if set.contains(digest) { return true }
        if set.count > 4096 { set.removeAll(keepingCapacity: true) }
        set.insert(digest)
        return false
    }

    /// Says that `image` will be rendered more than once (a preview, then the picture), so
    /// its sources are decoded whole into the cache on the first render instead of
    /// streaming through it twice.
    public func expectRenders(of image: Image) {
        var stack = [image.node], seen: Set<ObjectIdentifier> = []
        var digests: [NodeIdentity.Digest] = []
        while let node = stack.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            if node.kernel is any RowSource { digests.append(node.identity.digest) }
            stack += node.inputs
        }
        state.withLock { s in
            if s.decoded.count + digests.count > 4096 { s.decoded.removeAll(keepingCapacity: true) }
            s.decoded.formUnion(digests)
        }
    }

    /// Records that a render used `key`; returns true when it was seen before, i.e. the
    /// intermediate is being reused and is worth keeping.
    func noteUse(of key: NodeIdentity) -> Bool {
        state.withLock { Self.note(key.digest, in: &$0.seen) }
    }

}
