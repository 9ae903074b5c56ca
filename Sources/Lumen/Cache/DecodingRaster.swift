import LumenPlatform

/// A source raster being decoded on a background thread. Renders read rows as soon as
/// the decoder has published them (tiles run top-down, in file order), so decoding and
/// computing overlap; a decode error reaches every waiting tile.
final class DecodingRaster: DecodedRows, @unchecked Sendable {  // a raster being filled: its progress is published under `condition`
    let raster: PixelRaster
    /// The file row stored in the raster's first row.
    let firstRow: Int
    private let condition = Condition()
    private var rowsReady = 0
    private var failure: Error?
    /// The fewest rows a waiting tile needs: publishing fewer wakes nobody (see SourceStream).
    private var wakeAt = Int.max

    init(raster: PixelRaster, firstRow: Int) {
        self.raster = raster
        self.firstRow = firstRow
    }

    /// Starts decoding `rows` of `decoder` into the raster.
    func start(_ decoder: ImageDecoder, reduction: Int, rows: Range<Int>, warnings: DecodeWarnings,
               onFailure: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                // The last row is published only once the decoder has finished and checked
                // the whole stream, so a file damaged after its pixel data still fails.
                let last = self.raster.height
                try DecodeWarnings.$current.withValue(warnings) {
                    try ImageFile.decode(decoder, reduction: reduction, rows: rows, into: self.raster) { ready in
                        self.publish(min(ready, last - 1))
                    }
                }
                self.publish(last)
            } catch {
                self.condition.lock()
                self.failure = error
                self.condition.broadcast()
                self.condition.unlock()
                onFailure()
            }
        }
    }

    private func publish(_ rows: Int) {
        condition.lock()
        rowsReady = max(rowsReady, rows)
        if rowsReady >= wakeAt {
            wakeAt = .max  // the tiles still short of their rows say so again
            condition.broadcast()
        }
        condition.unlock()
    }

    func waitForRows(through end: Int) throws { try waitForRows(end - firstRow) }

    func rowPointer(fileRow row: Int) -> UnsafeMutableRawPointer {
        precondition(row >= firstRow && row - firstRow < raster.height, "source rows not decoded")
        return raster.rowPointer(row - firstRow)
    }

    /// Blocks until raster rows `..<count` are decoded; rethrows a decode error.
    func waitForRows(_ count: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        while rowsReady < count && failure == nil {
            wakeAt = min(wakeAt, count)
            condition.wait()
        }
        if let failure { throw failure }
    }
}
