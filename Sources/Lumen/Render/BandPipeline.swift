import LumenPlatform

/// The path from rows that arrive in file order from one thread (a decoder's bands) to an
/// encoder, which is a band sink (`ImageEncoder.write`); tiles that several threads render
/// go through `BandSlots` instead. Bands are filled, in file order, into one buffer while
/// the encoder writes another on its own thread, so decoding and encoding overlap and
/// memory stays at two bands. With a `stage`, each band is also worked on in its buffer
/// on a third thread between the two, in a third buffer: decoding, the stage and encoding
/// then share the cores however their costs fall. A stage that may run anywhere is also
/// run by the filling thread when it would wait for one (`handOver`).
final class BandPipeline {
    private let bytesPerRow: Int
    private let writer: BandWriter
    private var buffers: [PixelMemory] = []
    /// Rows a buffer gathers; each holds `extraRows` more for the stage.
    private var capacity = 0
    private let extraRows: Int
    private var which = 0
    private let bufferCount: Int
    private let gatherRows: Int
    /// Rows filled into `buffers[which]` and not yet handed over.
    private var pending: (firstRow: Int, rowCount: Int)? = nil

    /// `gatherRows`: consecutive bands are gathered into one buffer until it holds that
    /// many rows, so a decoder's small bands (16 rows for JPEG) reach the encoder (and the
    /// stage) a few at a time: each hand-over wakes a thread, and a 2560×1600 JPEG copied
    /// in 64-row bands took 0.80× the wall time of 16-row ones (farm-bench, 11 pairs).
    /// `extraRows`: room after each band's rows that the stage may write into (a stage whose
    /// rows lag its input's writes the last band's last rows there).
    /// `stageRunsAnywhere`: the stage may work on bands in any order and on any thread (a
    /// kernel whose rows are independent); see `handOver`.
    /// `rows`: the image's height, when known: the band that ends the image is then kept
    /// for `finish` to encode on the calling thread.
    init(bytesPerRow: Int, sink: any ImageEncoder, stage: BandStage? = nil, stageRunsAnywhere: Bool = false, gatherRows: Int = 1,
         extraRows: Int = 0, rows: Int? = nil) {
        self.bytesPerRow = bytesPerRow
        self.rows = rows
        self.gatherRows = max(1, gatherRows)
        self.extraRows = max(0, extraRows)
        self.stageRunsAnywhere = stage != nil && stageRunsAnywhere
        bufferCount = stage == nil ? 2 : 3
        writer = BandWriter(sink: sink, stage: stage, inFlight: bufferCount - 1)
    }

    private let stageRunsAnywhere: Bool
    private let rows: Int?

    deinit {
        writer.drain()
        buffers.forEach { $0.release() }
    }

    /// Lets `fill` write `rowCount` rows into a buffer no band in flight is in, while the
    /// bands in flight (one, or two with a stage) are worked on and written from the
    /// others; once the buffer holds `gatherRows` rows, waits until the oldest band in
    /// flight is done if all are busy, and hands the rows over. (Waiting before the fill,
    /// as this once did, left the encoder and the render taking turns: every band's
    /// encoding was time the render's threads sat idle.)
    func submit(firstRow: Int, rowCount: Int, fill: (UnsafeMutableRawPointer) throws -> Void) throws {
        if let pending, pending.firstRow + pending.rowCount != firstRow || pending.rowCount + rowCount > capacity {
            try handOver()
        }
        if pending == nil, max(rowCount, gatherRows) > capacity {
            try writer.waitUntilDone()  // no buffer may be in flight when they are replaced
            capacity = max(rowCount, gatherRows)
            buffers.forEach { $0.release() }
            buffers = (0..<bufferCount).map { [capacity, extraRows, bytesPerRow] _ in
                PixelMemory(byteCount: (capacity + extraRows) * bytesPerRow, alignment: 64)
            }
        }
        let gathered = pending?.rowCount ?? 0
        try fill(buffers[which].base + gathered * bytesPerRow)
        pending = (pending?.firstRow ?? firstRow, gathered + rowCount)
        if gathered + rowCount >= gatherRows && firstRow + rowCount != rows { try handOver() }
    }

    /// Hands the gathered rows to the writer, once fewer bands than buffers are in flight.
    /// When every other buffer is in flight and the stage may run anywhere, this thread
    /// works on its band itself rather than wait: the stage's thread is then behind (the
    /// encoder may be waiting for it, a core idle), and the band, already worked on,
    /// passes through the stage's queue untouched, in its turn.
    private func handOver() throws {
        guard let rows = takePending() else { return }
        which = (which + 1) % bufferCount
        if stageRunsAnywhere, try !writer.takeRoomIfFree() {
            let staged = writer.stage(rows)
            try writer.waitForRoom()
            return writer.write(staged, staged: true)
        }
        if !stageRunsAnywhere { try writer.waitForRoom() }  // the oldest band in flight, when every other buffer holds one
        writer.write(rows)
    }

    /// Encodes the rows still gathered and reports any encoder error. They (the band that
    /// ends the image, when the pipeline knows its `rows`) are worked on and encoded on
    /// this thread, after the bands in flight: this thread would only wait for them otherwise.
    func finish() throws {
        try writer.waitUntilDone()
        if let rows = takePending() { try writer.writeHere(rows) }
    }

    /// The rows gathered in the current buffer, which no longer count as gathered.
    private func takePending() -> RowBand? {
        guard let band = pending else { return nil }
        pending = nil
        return RowBand(firstRow: band.firstRow, rowCount: band.rowCount, bytesPerRow: bytesPerRow, base: UnsafeRawPointer(buffers[which].base))
    }

    /// Waits without reporting (cleanup after another error).
    func drain() { writer.drain() }
}

/// Work done on each band in its buffer (its `base` may be written through, and the
/// pipeline's `extraRows` after its rows), on the pipeline's stage thread, before the band
/// is encoded. Returns the rows to encode: the band itself, or rows of that buffer that
/// follow on from the previous band's (none when `rowCount` is 0).
typealias BandStage = @Sendable (RowBand) -> RowBand

/// Hands bands to an encoder on a serial background queue, through the stage's own serial
/// queue first when there is one; at most `inFlight` bands at a time. `waitUntilDone`
/// waits for all and rethrows what the encoder threw.
final class BandWriter: Sendable {
    /// The encoder, touched only by the band being written (the queue is serial).
    private let sink: LockedValue<any ImageEncoder>
    private let stage: BandStage?
    private let failure = LockedValue<Error?>(nil)
    private let queue = DispatchQueue(label: "lumen.band-writer")
    private let stageQueue = DispatchQueue(label: "lumen.band-stage")
    private let group = DispatchGroup()
    private let room: DispatchSemaphore

    init(sink: any ImageEncoder, stage: BandStage? = nil, inFlight: Int = 1) {
        self.sink = LockedValue(sink)
        self.stage = stage
        room = DispatchSemaphore(value: inFlight)
    }

    /// Queues `band` for the stage (unless `staged`: worked on already) and the encoder.
    func write(_ band: RowBand, staged: Bool = false) {
        group.enter()
        let encode: @Sendable (RowBand) -> Void = { band in
            defer { self.room.signal(); self.group.leave() }
            guard band.rowCount > 0, self.failure.withLock({ $0 == nil }) else { return }
            do { try self.sink.withLock { try $0.write(band) } } catch { self.failure.withLock { $0 = error } }
        }
        guard let stage else { return queue.async { encode(band) } }
        stageQueue.async {
            let out = !staged && self.failure.withLock({ $0 == nil }) ? stage(band) : band
            self.queue.async { encode(out) }
        }
    }

    /// The stage's work on `band`, on the caller's thread (a stage that may run anywhere).
    func stage(_ band: RowBand) -> RowBand {
        guard let stage, failure.withLock({ $0 == nil }) else { return band }
        return stage(band)
    }

    /// Takes a place for a band if one is free now, without waiting; reports any encoder error.
    func takeRoomIfFree() throws -> Bool {
        guard room.wait(timeout: .now()) == .success else { return false }
        if let failure = failure.withLock({ $0 }) {
            room.signal()
            throw failure
        }
        return true
    }

    /// Waits until fewer than `inFlight` bands are in flight, and reports any encoder error.
    func waitForRoom() throws {
        room.wait()
        if let failure = failure.withLock({ $0 }) {
            room.signal()
            throw failure
        }
    }

    /// Works on and encodes `band` on the caller's thread, once no band is in flight
    /// (`waitUntilDone` has returned).
    func writeHere(_ band: RowBand) throws {
        let rows = stage(band)
        guard rows.rowCount > 0 else { return }
        try sink.withLock { try $0.write(rows) }
    }

    func waitUntilDone() throws {
        group.wait()
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    /// Waits without reporting (cleanup after another error).
    func drain() { group.wait() }
}

/// The buffers that tiles rendered on several threads are converted into, band by band,
/// and the thread that encodes them in order. Band `b` is converted into buffer
/// `b % count` once band `b − count` is encoded; the writer's thread encodes each band
/// once all its tiles are converted, so the render's threads go on to the next band's
/// tiles instead of waiting for the last tile of each (with a wait at every band, a
/// 2560×1600 blur kept its two cores 1.6 busy). Nothing is handed over under the lock
/// the threads share: queueing each band to the writer from the thread that finished it,
/// under that lock, woke a thread inside it and left the others waiting for the lock (a
/// 16384² render idled its cores 11 % of the time). The band that ends the image is
/// encoded by `finish`, on the calling thread: it would only wait otherwise, and an
/// image of one band (a QR code) then never starts the writer's thread at all (4–5 % of
/// such a process's CPU samples).
final class BandSlots: Sendable {
    private struct Stopped: Error {}

    private struct State {
        var buffers: [PixelMemory]
        /// Tiles of each band not yet converted.
        var remaining: [Int]
        /// Bands the writer has encoded (always the first ones).
        var written = 0
        var failure: Error?
        /// Whether the writer's thread is running.
        var writing: Bool
    }
    private let state: LockedValue<State>
    private let sink: LockedValue<any ImageEncoder>
    private let bytesPerRow: Int
    /// Each band's first file row and row count.
    private let bands: [(firstRow: Int, rowCount: Int)]
    /// Runs for each band, in order, once its tiles are converted (on the writer's thread;
    /// for the last band, in `finish`).
    private let bandFinished: @Sendable (Int) -> Void

    /// `tiles[b]`: how many tiles band `b` is cut into.
    init(bands: [(firstRow: Int, rowCount: Int)], tiles: [Int], bytesPerRow: Int, sink: any ImageEncoder, buffers count: Int = 3,
         bandFinished: @escaping @Sendable (Int) -> Void) {
        precondition(bands.count == tiles.count && !bands.isEmpty && count > 0)
        self.bands = bands
        self.bytesPerRow = bytesPerRow
        self.bandFinished = bandFinished
        self.sink = LockedValue(sink)
        let rows = bands.map(\.rowCount).max() ?? 0
        let buffers = (0..<min(count, bands.count)).map { _ in PixelMemory(byteCount: rows * bytesPerRow, alignment: 64) }
        state = LockedValue(State(buffers: buffers, remaining: tiles, writing: bands.count > 1))
        if bands.count > 1 { detachThread { [self] in writeBands() } }
    }

    deinit { state.withLock { $0.buffers.forEach { $0.release() } } }

    /// Band `band`'s buffer (its first row at the start), once the band that used it
    /// before is encoded; throws if the render or the encoder has failed meanwhile.
    func buffer(for band: Int) throws -> UnsafeMutableRawPointer {
        try state.withLock(waitingUntil: { $0.written > band - $0.buffers.count || $0.failure != nil }) { s in
            if let failure = s.failure { throw failure }
            return s.buffers[band % s.buffers.count].base
        }
    }

    /// One of `band`'s tiles is converted.
    func converted(tileOf band: Int) {
        let whole = state.withLock { s in
            s.remaining[band] -= 1
            return s.remaining[band] == 0
        }
        if whole { state.wakeWaiters() }
    }

    /// The render has failed: the writer and the threads waiting for a buffer stop, with `error`.
    func fail(_ error: Error) {
        state.withLock { s in if s.failure == nil { s.failure = error } }
        state.wakeWaiters()
    }

    /// Once every tile is converted: waits for the writer's bands, then encodes the last
    /// one on this thread; throws what the encoder threw.
    func finish() throws {
        let last = bands.count - 1
        let base = try state.withLock(waitingUntil: { $0.written >= last || $0.failure != nil }) { s in
            if let failure = s.failure { throw failure }
            precondition(s.remaining[last] == 0, "bands left unconverted")
            return s.buffers[last % s.buffers.count].base
        }
        bandFinished(last)
        try sink.withLock { try $0.write(rows(of: last, at: base)) }
    }

    /// Stops the writer's thread if it is still waiting for bands (the render failed
    /// before `finish`), and waits until it has.
    func drain() {
        let last = bands.count - 1
        state.withLock { s in if s.writing && s.written < last && s.failure == nil { s.failure = Stopped() } }
        state.wakeWaiters()
        state.withLock(waitingUntil: { !$0.writing }) { _ in }
    }

    /// The writer's thread: every band but the last, in order, once converted.
    private func writeBands() {
        for band in 0..<(bands.count - 1) {
            let base = state.withLock(waitingUntil: { $0.remaining[band] == 0 || $0.failure != nil }) { s in
                s.failure == nil ? s.buffers[band % s.buffers.count].base : nil
            }
            guard let base else { break }
            bandFinished(band)
            do { try sink.withLock { try $0.write(rows(of: band, at: base)) } } catch {
                fail(error)
                break
            }
            state.withLock { $0.written += 1 }
            state.wakeWaiters()
        }
        state.withLock { $0.writing = false }
        state.wakeWaiters()
    }

    private func rows(of band: Int, at base: UnsafeMutableRawPointer) -> RowBand {
        RowBand(firstRow: bands[band].firstRow, rowCount: bands[band].rowCount, bytesPerRow: bytesPerRow, base: UnsafeRawPointer(base))
    }
}
