import Foundation

/// Encoded outputs by their ETag, least recently used dropped first, bounded in bytes.
final class OutputCache: @unchecked Sendable {  // all state under `lock`
    struct Entry { let body: Data; let contentType: String }
    private final class Node {
        let key: String
        let entry: Entry
        var newer: Node?
        weak var older: Node?
        init(_ key: String, _ entry: Entry) { self.key = key; self.entry = entry }
    }

    let byteLimit: Int
    private let lock = NSLock()
    private var nodes: [String: Node] = [:]
    private var newest: Node?
    private var oldest: Node?
    private var bytes = 0
    private(set) var hits = 0
    private(set) var misses = 0

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    func value(for key: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        guard let node = nodes[key] else { misses += 1; return nil }
        hits += 1
        unlink(node)
        link(node)
        return node.entry
    }

    func set(_ entry: Entry, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        if let old = nodes.removeValue(forKey: key) { unlink(old); bytes -= old.entry.body.count }
        guard entry.body.count <= byteLimit / 8 else { return }  // one output never takes most of the cache
        let node = Node(key, entry)
        nodes[key] = node
        link(node)
        bytes += entry.body.count
        while bytes > byteLimit, let victim = oldest {
            unlink(victim)
            nodes.removeValue(forKey: victim.key)
            bytes -= victim.entry.body.count
        }
    }

    var statistics: (bytes: Int, count: Int, hits: Int, misses: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (bytes, nodes.count, hits, misses)
    }

    private func link(_ node: Node) {
        node.older = newest
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }

    private func unlink(_ node: Node) {
        if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { newer.older = node.older } else { newest = node.older }
        node.newer = nil
        node.older = nil
    }
}
