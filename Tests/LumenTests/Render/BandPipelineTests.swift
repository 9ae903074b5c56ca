import Foundation
import Testing
@testable import Lumen

/// The band pipeline hands rows to an encoder in order, each band once, through its stage.
/// A stage that may run anywhere is also run by the thread filling the bands when every
/// other buffer is in flight: the encoder must still see every band once, in order, worked
/// on once.
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
        let pipeline = BandPipeline(bytesPerRow: width, sink: encoder, stage: stage, stageRunsAnywhere: anywhere, gatherRows: 4)
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

    @Test func anOrderedStageRunsOnItsOwnThread() throws {
        let (_, helped) = try run(anywhere: false)
        #expect(helped == 0)
    }
}
