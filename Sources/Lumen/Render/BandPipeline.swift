import Foundation

/// The one path from rows to an encoder, which is a band sink (`ImageEncoder.write`).
/// Bands are filled, in file order, into one of two buffers while the encoder writes the
/// other on its own thread, so computing (or decoding) and encoding overlap and memory
/// stays at two bands.
final class BandPipeline {
    private let bytesPerRow: Int
    private let writer: BandWriter
    private var buffers: [PixelMemory] = []
    private var capacity = 0
    private var which = 0

    init(bytesPerRow: Int, sink: any ImageEncoder) {
        self.bytesPerRow = bytesPerRow
        writer = BandWriter(sink: sink)
    }

    deinit {
        writer.drain()
        buffers.forEach { $0.release() }
    }

    /// Lets `fill` write `rowCount` rows into the buffer the encoder is not reading, while
    /// it writes the band in flight from the other; then waits for that band and hands this
    /// one over as rows `firstRow…`. (Waiting before the fill, as this once did, left the
    /// encoder and the render taking turns: every band's encoding was time the render's
    /// threads sat idle.)
    func submit(firstRow: Int, rowCount: Int, fill: (UnsafeMutableRawPointer) throws -> Void) throws {
        let bytes = rowCount * bytesPerRow
        if bytes > capacity {
            try writer.waitUntilDone()  // neither buffer may be in flight when they are replaced
            buffers.forEach { $0.release() }
            buffers = [PixelMemory(byteCount: bytes, alignment: 64), PixelMemory(byteCount: bytes, alignment: 64)]
            capacity = bytes
        }
        let buffer = buffers[which].base
        which ^= 1
        try fill(buffer)
        try writer.waitUntilDone()  // the band in flight, in the other buffer
        writer.write(RowBand(firstRow: firstRow, rowCount: rowCount, bytesPerRow: bytesPerRow, base: UnsafeRawPointer(buffer)))
    }

    /// Waits for the last band and reports any encoder error.
    func finish() throws { try writer.waitUntilDone() }

    /// Waits without reporting (cleanup after another error).
    func drain() { writer.drain() }
}

/// Hands bands to an encoder on a serial background queue, one band in flight at a time;
/// `waitUntilDone` waits for it and rethrows what the encoder threw.
final class BandWriter: Sendable {
    /// The encoder, touched only by the band in flight (the queue is serial).
    private let sink: LockedValue<any ImageEncoder>
    private let failure = LockedValue<Error?>(nil)
    private let queue = DispatchQueue(label: "lumen.band-writer")
    private let group = DispatchGroup()

    init(sink: any ImageEncoder) { self.sink = LockedValue(sink) }

    func write(_ band: RowBand) {
        group.enter()
        queue.async {
            defer { self.group.leave() }
            guard self.failure.withLock({ $0 == nil }) else { return }
            do { try self.sink.withLock { try $0.write(band) } } catch { self.failure.withLock { $0 = error } }
        }
    }

    func waitUntilDone() throws {
        group.wait()
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    /// Waits without reporting (cleanup after another error).
    func drain() { group.wait() }
}
