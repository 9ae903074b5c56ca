import Foundation
import Testing
@testable import Lumen

/// The band pipeline hands rows to an encoder in order, each band once, through its stage.
/// A stage that may run anywhere is also run by the thread filling the bands when every
/// other buffer is in flight: the encoder must still see every band once, in order, worked
/// on once. The band that ends the image is worked on and encoded by the filling thread
/// itself, after the others.
@Suite struct BandPipelineTests {
    /// Keeps a copy of every row it is given, and the first row of each band, in order.
    final class CollectingEncoder: ImageEncoder, @unchecked Sendable {  // written only from the pipeline's serial encoder queue
        var rows: [[UInt8]] = []
        var firstRows: [Int] = []
        let delay: UInt32

        init(delay: UInt32) { self.delay = delay }

        func write(_ band: RowBand) throws {
            usleep(delay)
            firstRows.append(band.firstRow)
            for row in 0..<band.rowCount {
                let start = band.base + row * band.bytesPerRow
                rows.append(Array(UnsafeRawBufferPointer(start: start, count: band.bytesPerRow)))
            }
        }

        func finish() throws -> Data? { nil }
    }

    /// 200 rows of 8 bytes in bands of 4; the stage adds 1 to every byte (twice would show)
    /// and records the threads it ran on; a slow stage and encoder fill every buffer.
    func run(anywhere: Bool) throws -> (encoder: CollectingEncoder, onFillingThread: Int) {
        let width = 8, height = 200
        let encoder = CollectingEncoder(delay: 500)
        let filling = pthread_self()
        let onFillingThread = LockedValue(0)
        let stage: BandStage = { band in
            usleep(1500)
            if pthread_equal(pthread_self(), filling) != 0 { onFillingThread.withLock { $0 += 1 } }
            let bytes = UnsafeMutableRawPointer(mutating: band.base).assumingMemoryBound(to: UInt8.self)
            for i in 0..<(band.rowCount * band.bytesPerRow) { bytes[i] &+= 1 }
            return band
        }
        let pipeline = BandPipeline(bytesPerRow: width, sink: encoder, stage: stage, stageRunsAnywhere: anywhere, gatherRows: 4, rows: height)
        for row in 0..<height {
            try pipeline.submit(firstRow: row, rowCount: 1) { target in
                for i in 0..<width { target.storeBytes(of: UInt8(truncatingIfNeeded: row &* 7 &+ i), toByteOffset: i, as: UInt8.self) }
            }
        }
        try pipeline.finish()
        #expect(encoder.rows.count == height)
        for (row, bytes) in encoder.rows.enumerated() {
            #expect(bytes == (0..<width).map { UInt8(truncatingIfNeeded: row &* 7 &+ $0 &+ 1) }, "row \(row)")
        }
        #expect(encoder.firstRows == Array(stride(from: 0, to: height, by: 4)))
        return (encoder, onFillingThread.withLock { $0 })
    }

    @Test func aStageThatRunsAnywhereHelpsAndKeepsTheOrder() throws {
        let (_, helped) = try run(anywhere: true)
        #expect(helped > 0, "the filling thread never worked on a band")
    }

    @Test func anOrderedStageRunsOnItsOwnThreadButForTheLastBand() throws {
        let (_, helped) = try run(anywhere: false)
        #expect(helped == 1)
    }

    /// An image of one band (a QR code) is encoded on the filling thread: no writer thread
    /// is woken for it. Without `rows` the band goes to the writer's thread.
    @Test(arguments: [true, false]) func oneBandIsEncodedOnTheFillingThread(knowsRows: Bool) throws {
        final class ThreadRecordingEncoder: ImageEncoder, @unchecked Sendable {  // written only by the pipeline's one band
            let filling = pthread_self()
            var onFillingThread: Bool?
            var rows = 0
            func write(_ band: RowBand) throws {
                onFillingThread = pthread_equal(pthread_self(), filling) != 0
                rows += band.rowCount
            }
            func finish() throws -> Data? { nil }
        }
        let encoder = ThreadRecordingEncoder()
        let pipeline = BandPipeline(bytesPerRow: 4, sink: encoder, rows: knowsRows ? 10 : nil)
        try pipeline.submit(firstRow: 0, rowCount: 10) { target in target.initializeMemory(as: UInt8.self, repeating: 7, count: 40) }
        try pipeline.finish()
        #expect(encoder.rows == 10)
        #expect(encoder.onFillingThread == knowsRows)
    }
}

/// Tiles of several bands converted by several threads at once reach the encoder as whole
/// bands, each once, in order from the top, with every band's rows intact although its
/// buffer was used before; the last band is encoded on the calling thread. A failing tile
/// or encoder stops the threads waiting for a buffer and is what the render throws.
@Suite(.timeLimit(.minutes(1))) struct BandSlotsTests {
    struct Failed: Error, Equatable { let band: Int }

    /// Rows of 8 bytes, bands of 3 rows, each band cut into two tiles of 4 bytes a row.
    final class Encoder: ImageEncoder, @unchecked Sendable {  // written by one band at a time
        let calling = pthread_self()
        var rows: [[UInt8]] = [], firstRows: [Int] = []
        var lastOnCallingThread = false
        let failAt: Int?
        init(failAt: Int? = nil) { self.failAt = failAt }
        func write(_ band: RowBand) throws {
            if band.firstRow == failAt { throw Failed(band: band.firstRow / 3) }
            usleep(1000)  // slower than the tiles: threads wait for buffers
            firstRows.append(band.firstRow)
            lastOnCallingThread = pthread_equal(pthread_self(), calling) != 0
            for row in 0..<band.rowCount {
                rows.append(Array(UnsafeRawBufferPointer(start: band.base + row * band.bytesPerRow, count: band.bytesPerRow)))
            }
        }
        func finish() throws -> Data? { nil }
    }

    static func byte(row: Int, column: Int) -> UInt8 { UInt8(truncatingIfNeeded: row &* 13 &+ column) }

    func render(bands count: Int, threads: Int, encoder: Encoder, failingTileOf failing: Int? = nil) throws -> [Int] {
        let finished = LockedValue<[Int]>([])
        let slots = BandSlots(bands: (0..<count).map { ($0 * 3, 3) }, tiles: Array(repeating: 2, count: count), bytesPerRow: 8,
                              sink: encoder, bandFinished: { band in finished.withLock { $0.append(band) } })
        defer { slots.drain() }
        try forEachConcurrently(2 * count, threads: threads) { index in
            let band = index / 2, half = index % 2
            do {
                if index % 3 == 0 { usleep(50) }  // tiles finish out of order
                if band == failing && half == 0 {
                    usleep(20_000)  // meanwhile the other threads reach bands whose buffers wait for this one
                    throw Failed(band: band)
                }
                let buffer = try slots.buffer(for: band)
                for row in 0..<3 {
                    for column in (4 * half)..<(4 * half + 4) {
                        buffer.storeBytes(of: Self.byte(row: 3 * band + row, column: column), toByteOffset: row * 8 + column, as: UInt8.self)
                    }
                }
            } catch {
                slots.fail(error)
                throw error
            }
            slots.converted(tileOf: band)
        }
        try slots.finish()
        return finished.withLock { $0 }
    }

    @Test(arguments: [1, 2, 4]) func bandsReachTheEncoderWholeAndInOrder(threads: Int) throws {
        for count in [1, 2, 12] {
            let encoder = Encoder()
            let finished = try render(bands: count, threads: threads, encoder: encoder)
            #expect(finished == Array(0..<count))
            #expect(encoder.firstRows == (0..<count).map { 3 * $0 })
            #expect(encoder.rows == (0..<(3 * count)).map { row in (0..<8).map { Self.byte(row: row, column: $0) } })
            #expect(encoder.lastOnCallingThread, "\(count) bands: the last was encoded on the writer's thread")
        }
    }

    @Test func aFailingTileStopsTheRender() {
        #expect(throws: Failed(band: 7)) { try render(bands: 12, threads: 3, encoder: Encoder(), failingTileOf: 7) }
    }

    @Test func aFailingEncoderStopsTheRender() {
        let encoder = Encoder(failAt: 6)
        #expect(throws: Failed(band: 2)) { try render(bands: 12, threads: 3, encoder: encoder) }
        #expect(encoder.firstRows == [0, 3])
    }
}
