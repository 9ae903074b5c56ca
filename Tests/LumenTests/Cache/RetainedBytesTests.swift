import Foundation
import Testing
@testable import Lumen

/// What the render cache keeps alive beyond the pixels it counts. A graph read from bytes
/// in memory (an upload) holds those bytes: the cache must not keep them for merely having
/// seen the graph, and when it keeps an entry of such a graph, the bytes count in its size.
/// Found in `lumen serve`: 150 uploads of one 745 KB photo at different widths left 112 MB
/// resident in the cache's record of graphs it had seen, with 1 MB of entries counted.
@Suite struct RetainedBytesTests {
    /// photo.jpg in a buffer whose release is reported to `freed`.
    static func upload(_ freed: LockedValue<Bool>) throws -> Data {
        let bytes = try Data(contentsOf: Paths.testdata("photo.jpg"))
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
        bytes.copyBytes(to: pointer.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        return Data(bytesNoCopy: pointer, count: bytes.count, deallocator: .custom { pointer, _ in
            pointer.deallocate()
            freed.withLock { $0 = true }
        })
    }

    /// The decoded upload is kept (a second render of it would not decode again), and its
    /// bytes count; once the entries are gone, nothing else holds them.
    @Test func aGraphSeenOnceDoesNotKeepItsUploadAlive() throws {
        let context = RenderContext()
        let freed = LockedValue(false)
        var size = 0
        do {
            let data = try Self.upload(freed)
            size = data.count
            let dilated = try Image(data: data).applyingFilter("morphologyMaximum", parameters: ["radius": 2])
            _ = try context.render(dilated, in: Rect(x: 0, y: 0, width: 64, height: 64), format: .rgba8)
        }
        // The same photo read from its file: the same entries, without the bytes.
        let fromFile = RenderContext()
        let fileGraph = try Image(contentsOf: Paths.testdata("photo.jpg")).applyingFilter("morphologyMaximum", parameters: ["radius": 2])
        _ = try fromFile.render(fileGraph, in: Rect(x: 0, y: 0, width: 64, height: 64), format: .rgba8)
        #expect(fromFile.cache.statistics.entries == context.cache.statistics.entries)
        #expect(context.cache.statistics.bytes - fromFile.cache.statistics.bytes == size * context.cache.statistics.entries,
                "each entry counts the upload's bytes: \(context.cache.statistics), from the file \(fromFile.cache.statistics)")
        context.cache.removeAll()
        #expect(freed.withLock { $0 }, "the upload's bytes were freed with the entries, though the cache saw its graph")
    }

    @Test func aKeptEntryCountsTheUploadItKeepsAlive() throws {
        let context = RenderContext()
        let freed = LockedValue(false)
        var size = 0
        do {
            let data = try Self.upload(freed)
            size = data.count
            let dilated = try Image(data: data).applyingFilter("morphologyMaximum", parameters: ["radius": 2])
            let frame = Rect(x: 0, y: 0, width: 64, height: 64)
            _ = try context.render(dilated, in: frame, format: .rgba8)
            _ = try context.render(dilated.applying("colorInvert"), in: frame, format: .rgba8)  // keeps the dilation, seen before
        }
        let pixels = 64 * 64 * MemoryLayout<SIMD4<Float>>.stride
        #expect(context.cache.statistics.entries >= 1 && context.cache.statistics.bytes >= size + pixels,
                "\(context.cache.statistics), upload \(size) bytes")
        #expect(!freed.withLock { $0 }, "the kept dilation's key holds the upload")
        context.cache.removeAll()
        #expect(freed.withLock { $0 }, "and lets it go with the entry")
    }
}
