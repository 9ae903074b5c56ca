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

    /// Renders (64×64 from the corner) the graphs `graphs` makes of photo.jpg's dilation,
    /// once with the photo as an upload (its release reported to `freed`) and once from its
    /// file, each on a fresh context: the two contexts and the upload's size.
    static func render(_ graphs: (Image) -> [Image], freed: LockedValue<Bool>) throws -> (upload: RenderContext, file: RenderContext, size: Int) {
        let (fromUpload, fromFile) = (RenderContext(), RenderContext())
        let data = try upload(freed)
        for (context, image) in [(fromUpload, try Image(data: data)), (fromFile, try Image(contentsOf: Paths.testdata("photo.jpg")))] {
            for graph in graphs(try image.applyingFilter("morphologyMaximum", parameters: ["radius": 2])) {
                _ = try context.render(graph, in: Rect(x: 0, y: 0, width: 64, height: 64), format: .rgba8)
            }
        }
        return (fromUpload, fromFile, data.count)
    }

    /// The decoded upload is kept (a second render of it would not decode again), and its
    /// bytes count; once the entries are gone, nothing else holds them, though the cache
    /// saw the graph.
    @Test func aGraphSeenOnceDoesNotKeepItsUploadAlive() throws {
        let freed = LockedValue(false)
        let (upload, file, size) = try Self.render({ [$0] }, freed: freed)
        #expect(file.cache.statistics.entries == upload.cache.statistics.entries)
        #expect(upload.cache.statistics.bytes - file.cache.statistics.bytes == size * upload.cache.statistics.entries,
                "each entry counts the upload's bytes: \(upload.cache.statistics), from the file \(file.cache.statistics)")
        upload.cache.removeAll()
        #expect(freed.withLock { $0 }, "the upload's bytes were freed with the entries")
    }

    /// A second render reading the dilation keeps it (seen before): that entry holds the
    /// upload too, and counts it.
    @Test func aKeptEntryCountsTheUploadItKeepsAlive() throws {
        let freed = LockedValue(false)
        let (upload, file, size) = try Self.render({ [$0, $0.applying("colorInvert")] }, freed: freed)
        #expect(upload.cache.statistics.entries >= 2 && file.cache.statistics.entries == upload.cache.statistics.entries,
                "the decoded photo and the dilation: \(upload.cache.statistics)")
        #expect(upload.cache.statistics.bytes - file.cache.statistics.bytes == size * upload.cache.statistics.entries)
        #expect(!freed.withLock { $0 }, "the kept entries' keys hold the upload")
        upload.cache.removeAll()
        #expect(freed.withLock { $0 }, "and let it go with the entries")
    }

    /// A graph that reaches the upload along two paths (a dilation of the photo over the
    /// photo, dilated again) counts it once, as it holds it once: a sum over paths would
    /// count it twice, and over many paths would make the graph look too large to keep.
    @Test func anUploadReachedTwiceCountsOnce() throws {
        let freed = LockedValue(false)
        let twice: (Image) -> [Image] = { dilated in
            let photo = Image(dilated.node.inputs[0])  // what the dilation reads: the photo
            let both = (try? dilated.composited(over: photo).applyingFilter("morphologyMaximum", parameters: ["radius": 1])) ?? dilated
            return [both, both.applying("colorInvert")]  // the second render keeps `both`, seen before
        }
        let (upload, file, size) = try Self.render(twice, freed: freed)
        #expect(upload.cache.statistics.entries >= 2 && file.cache.statistics.entries == upload.cache.statistics.entries, "\(upload.cache.statistics)")
        #expect(upload.cache.statistics.bytes - file.cache.statistics.bytes == size * upload.cache.statistics.entries)
    }
}
