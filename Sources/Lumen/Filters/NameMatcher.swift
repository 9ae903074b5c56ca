/// Finds the names closest to a misspelt one (for "did you mean" messages).
enum NameMatcher {
    static func nearest(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
        let lowered = name.lowercased()
        let scored = candidates.map { ($0, distance(lowered, $0.lowercased())) }
        let threshold = max(2, lowered.count / 3)
        return scored.filter { $0.1 <= threshold || $0.0.lowercased().hasPrefix(lowered) || lowered.hasPrefix($0.0.lowercased()) }
            .sorted { $0.1 < $1.1 }.prefix(limit).map(\.0)
    }

    /// Levenshtein edit distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
