import LumenPlatform

/// Rows of a decoded source that tiles read: a whole region decoded once and shared
/// through the cache (`DecodingRaster`), or a window that streams through a large file
/// (`SourceStream`). File rows run top-down, starting at 0.
protocol DecodedRows: AnyObject, Sendable {
    var raster: PixelRaster { get }
    /// Blocks until file rows `..<end` are decoded; rethrows a decode error.
    func waitForRows(through end: Int) throws
    /// The stored row holding file row `row` (which must be decoded and kept).
    func rowPointer(fileRow row: Int) -> UnsafeMutableRawPointer
}

/// A large source read the way libvips's sequential access does: one decode, top to
/// bottom, on a background thread, into a ring of `capacity` rows. The renderer
/// releases rows no later step needs; the decoder waits for room, so memory stays at
/// the window however large the file is, and nothing is decoded twice.
final class SourceStream: DecodedRows, @unchecked Sendable {  // a raster being filled; progress is published under `condition`
    let raster: PixelRaster
    /// File rows the render needs: `rows.lowerBound` is stored first.
    let rows: Range<Int>
    private let capacity: Int
    private let condition = Condition()
    private var decodedEnd: Int
    private var releasedStart: Int
    private var failure: Error?
    private var cancelled = false
    /// The fewest decoded rows a waiting reader needs: publishing fewer wakes nobody.
    private var wakeAt = Int.max

    init(decoder: any ImageDecoder, reduction: Int, rows: Range<Int>, capacity: Int) {
        let layout = decoder.layout(reduction: reduction)
        let rows = rows.clamped(to: 0..<layout.height)
        self.rows = rows
        self.capacity = max(1, min(capacity, rows.count))
        raster = PixelRaster(width: layout.width, height: self.capacity, channels: layout.channels,
                             depth: layout.depth, alphaPremultiplied: layout.alphaPremultiplied)
        decodedEnd = rows.lowerBound
        releasedStart = rows.lowerBound
    }

    /// Starts the decoder thread.
    func start(_ decoder: any ImageDecoder, reduction: Int, warnings: DecodeWarnings) {
        detachThread { [self] in
            do {
                try DecodeWarnings.$current.withValue(warnings) {
                try decoder.forEachBand(reduction: reduction, rows: rows) { band in
                    let first = max(band.firstRow, rows.lowerBound), last = min(band.firstRow + band.rowCount, rows.upperBound)
                    guard first < last else { return }
                    for row in first..<last {
                        try waitForRoom(for: row)
                        rowPointer(fileRow: row).copyMemory(from: band.base + (row - band.firstRow) * band.bytesPerRow,
                                                            byteCount: raster.bytesPerRow)
                        // Publish in small groups: waking readers per row would cost more than it saves.
                        if (row + 1 - rows.lowerBound) % 8 == 0 || row + 1 == last { publish(row + 1) }
                    }
                }
                }
                publish(rows.upperBound)
            } catch {
                condition.lock()
                if failure == nil { failure = error }
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    private struct Cancelled: Error {}

    private func waitForRoom(for row: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        while row - releasedStart >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
    }

    /// Readers are woken only once a waiting one's rows are in: woken at every group of 8
    /// rows, they took about 400 context switches a 1280-pixel thumbnail, each a few microseconds
    /// taken from the decoder's core (the render's critical path).
    private func publish(_ end: Int) {
        condition.lock()
        decodedEnd = max(decodedEnd, end)
        if decodedEnd >= wakeAt {
            wakeAt = .max  // the readers still short of their rows say so again
            condition.broadcast()
        }
        condition.unlock()
    }

    func waitForRows(through end: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        let needed = min(end, rows.upperBound)
        while decodedEnd < needed && failure == nil {
            wakeAt = min(wakeAt, needed)
            condition.wait()
        }
        if let failure { throw failure }
    }

    func rowPointer(fileRow row: Int) -> UnsafeMutableRawPointer {
        precondition(rows.contains(row), "source rows not planned")
        return raster.rowPointer((row - rows.lowerBound) % capacity)
    }

    /// Rows before `row` will not be read again: the decoder may reuse their slots.
    func release(before row: Int) {
        condition.lock()
        releasedStart = max(releasedStart, row)
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the decoder early (the render is over or failed).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
