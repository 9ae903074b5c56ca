import Testing
@testable import Lumen

/// Large pixel buffers are mapped, and released ones are reused by later renders instead
/// of being faulted in again or left in malloc's arenas.
@Suite struct PixelMemoryTests {
    @Test func aReleasedMappingIsReusedForTheSameSize() {
        let spares = Spares(count: 4, totalBytes: 64 << 20)
        let first = PixelMemory(byteCount: 3 << 20, alignment: 64, spares: spares)
        first.base.storeBytes(of: 7, as: UInt8.self)
        first.release()
        #expect(spares.byteCount == 3 << 20)
        let second = PixelMemory(byteCount: 3 << 20, alignment: 64, spares: spares)
        #expect(second.base == first.base)
        #expect(spares.byteCount == 0)
        second.release()
    }

    @Test func theSmallestFittingSpareIsTakenAndNeverOneMoreThanTwiceTheSize() {
        let spares = Spares(count: 4, totalBytes: 64 << 20)
        let large = PixelMemory(byteCount: 12 << 20, alignment: 64, spares: spares)
        let medium = PixelMemory(byteCount: 5 << 20, alignment: 64, spares: spares)
        large.release()
        medium.release()
        // 2 MiB: the 5 MiB spare is more than twice that, the 12 MiB one too.
        let small = PixelMemory(byteCount: 2 << 20, alignment: 64, spares: spares)
        #expect(small.base != medium.base && small.base != large.base)
        #expect(small.byteCount == 2 << 20)
        // 4 MiB: both fit; the smaller is taken, and it is the whole spare.
        let four = PixelMemory(byteCount: 4 << 20, alignment: 64, spares: spares)
        #expect(four.base == medium.base)
        #expect(four.byteCount == 5 << 20)
        (four.base + four.byteCount - 1).storeBytes(of: 1, as: UInt8.self)  // all of it is usable
        [small, four].forEach { $0.release() }
    }

    @Test func sparesAreBoundedByCountAndBytesOldestGoingFirst() {
        let spares = Spares(count: 2, totalBytes: 10 << 20)
        let buffers = [4, 4, 4].map { PixelMemory(byteCount: $0 << 20, alignment: 64, spares: spares) }
        buffers.forEach { $0.release() }
        #expect(spares.byteCount == 8 << 20)  // two kept, the first unmapped
        let again = PixelMemory(byteCount: 4 << 20, alignment: 64, spares: spares)
        #expect(again.base != buffers[0].base)
        again.release()
        let big = PixelMemory(byteCount: 9 << 20, alignment: 64, spares: spares)
        big.release()
        #expect(spares.byteCount == 9 << 20)  // 4 + 4 + 9 is over 10 MiB: both 4s went
        let huge = PixelMemory(byteCount: 11 << 20, alignment: 64, spares: spares)
        huge.release()
        #expect(spares.byteCount == 9 << 20)  // more than the bound alone: unmapped, the spare kept
    }

    @Test func smallBuffersComeFromMallocAndAreNotKept() {
        let spares = Spares(count: 4, totalBytes: 64 << 20)
        let small = PixelMemory(byteCount: 4096, alignment: 64, spares: spares)
        #expect(Int(bitPattern: small.base) % 64 == 0)
        small.release()
        #expect(spares.byteCount == 0)
        let none = PixelMemory(byteCount: 0, alignment: 16, spares: spares)
        #expect(none.byteCount == 1)
        none.release()
    }
}
