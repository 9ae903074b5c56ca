import LumenPlatform

/// A least-recently-used map bounded by the total cost (bytes) of its values. Not
/// thread-safe by itself: `RenderCache` keeps it inside its lock box.
final class LRUCache<Key: Hashable, Value> {
    private final class Entry {
        let key: Key
        let value: Value
        let cost: Int
        var newer: Entry?
        weak var older: Entry?
        init(key: Key, value: Value, cost: Int) { self.key = key; self.value = value; self.cost = cost }
    }

    private var entries: [Key: Entry] = [:]
    private var newest: Entry?  // head: most recently used
    private var oldest: Entry?  // tail
    private(set) var totalCost = 0
    var costLimit: Int
    /// At most this many entries (default: no bound but the cost).
    let countLimit: Int
    private(set) var evictions = 0

    init(costLimit: Int, countLimit: Int = .max) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    func value(for key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        moveToNewest(entry)
        return entry.value
    }

    /// Stores `value`; returns false (storing nothing) when it alone exceeds the limit.
    @discardableResult
    func set(_ value: Value, for key: Key, cost: Int) -> Bool {
        if let old = entries.removeValue(forKey: key) { unlink(old); totalCost -= old.cost }
        guard cost <= costLimit else { return false }
        let entry = Entry(key: key, value: value, cost: cost)
        entries[key] = entry
        linkAsNewest(entry)
        totalCost += cost
        trim()
        return true
    }

    func removeValue(for key: Key) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        unlink(entry)
        totalCost -= entry.cost
    }

    func removeAll() {
        entries.removeAll()
        newest = nil
        oldest = nil
        totalCost = 0
    }

    var count: Int { entries.count }

    private func trim() {
        while totalCost > costLimit || entries.count > countLimit, let victim = oldest {
            unlink(victim)
            entries.removeValue(forKey: victim.key)
            totalCost -= victim.cost
            evictions += 1
        }
    }

    private func unlink(_ entry: Entry) {
        let (older, newer) = (entry.older, entry.newer)
        if let older { older.newer = newer } else { oldest = newer }
        if let newer { newer.older = older } else { newest = older }
        entry.older = nil
        entry.newer = nil
    }

    private func linkAsNewest(_ entry: Entry) {
        entry.older = newest
        newest?.newer = entry
        newest = entry
        if oldest == nil { oldest = entry }
    }

    private func moveToNewest(_ entry: Entry) {
        guard newest !== entry else { return }
        unlink(entry)
        linkAsNewest(entry)
    }
}
