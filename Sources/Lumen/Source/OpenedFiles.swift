import LumenPlatform

/// Decoders of files opened recently, so that a file is opened once however many times
/// it is asked for: `Image(contentsOf:)` reads the header, the writer the metadata and the
/// renderer the pixels, all through the decoder the load made (decoders are immutable and
/// decode from their bytes as often as asked). A second load of the same file (a logo
/// shared by every item of a batch) reuses it too. A file is the same while its size and
/// modification time are; an edited file is opened anew.
///
/// Bounded: at most `byteLimit` bytes of files read into memory (files large enough to be
/// mapped count a fixed page budget, since the system can drop their pages) and
/// `countLimit` decoders, least recently used dropped first. A dropped decoder is made
/// again by opening the file.
enum OpenedFiles {
    /// A file as opened: where it is, how it looked, and what was read from it.
    struct Key: Hashable, Sendable {
        let url: URL
        let stamp: String
        let frame: Int
        let thumbnail: Bool
        var development: RAWDevelopment? = nil
    }

    static let byteLimit = 64 << 20
    static let countLimit = 64
    /// What a mapped file is counted as: its pages belong to the system's file cache.
    private static let mappedCost = 1 << 20

    private static let store = LockedValue(LRUCache<Key, any ImageDecoder>(costLimit: byteLimit, countLimit: countLimit))

    /// The size and modification time that identify a file's current content.
    static func stamp(of url: URL) -> String {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return "" }
        return "\(status.st_size)@\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// The decoder of `key`'s file: the kept one, or a new one (kept for next time).
    static func decoder(for key: Key) throws -> any ImageDecoder {
        if let kept = store.withLock({ $0.value(for: key) }) {
            return kept
        }
        let decoder = try ImageFile.decoder(for: key.url, frame: key.frame, thumbnail: key.thumbnail, development: key.development)
        let size = Int(key.stamp.prefix { $0 != "@" }) ?? 0
        let cost = ImageFile.mappingOptions(key.url.path).isEmpty ? max(size, 4096) : mappedCost
        store.withLock { _ = $0.set(decoder, for: key, cost: cost) }
        return decoder
    }
}
