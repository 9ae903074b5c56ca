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
