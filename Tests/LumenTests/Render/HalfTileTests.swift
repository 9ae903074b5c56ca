import CKernels
import Foundation
import Testing
@testable import Lumen

/// Kept intermediates stored as half floats (`HalfTile`): CKernels' conversions at every
/// level against Swift's own `Float16` (compiler-rt's conversion, not ours), and the large
/// blur's averaged blocks kept that way.
@Suite struct HalfTileTests {
    static let levels = VectorKernelTests.levels

    /// What a float should become: Swift's Float16 of the value held within ±65504.
    static func expectedHalf(_ x: Float) -> UInt16 {
        Float16(x.isNaN ? x : min(max(x, -65504), 65504)).bitPattern
    }

    static func isNaNHalf(_ bits: UInt16) -> Bool { bits & 0x7c00 == 0x7c00 && bits & 0x3ff != 0 }

    /// Every finite half, the midpoints between neighbours (ties, to even) and the floats
    /// beside them, subnormals of both kinds, the edges of the range, and values of every
    /// magnitude from 2⁻⁴⁰ to 2²⁰.
    static let floats: [Float] = {
        var values: [Float] = [0, -0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1, -1,
                               0x1p-25, 0x1.8p-25, 0x1p-24, 65504, -65504, 65519.99, 65520, -65520, 65536, 1e30, -1e30,
                               .greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan, .signalingNaN]
        for h in UInt16(0)..<0x7bff {
            let a = Float(Float16(bitPattern: h)), b = Float(Float16(bitPattern: h + 1))
            let middle = Float((Double(a) + Double(b)) / 2)
            values += [a, -a, middle, -middle, middle.nextUp, middle.nextDown]
        }
        var random = VectorKernelTests.Values(state: 11)
        for i in 0..<6000 { values.append(random.next() * Float(sign: .plus, exponent: i % 61 - 40, significand: 1)) }
        return values
    }()

    @Test(arguments: levels) func floatsPackAsSwiftsFloat16(level: InstructionSet) {
        var packed = [UInt16](repeating: 0, count: Self.floats.count)
        // In pieces of 1 to 17 floats, so every length of the vector loop's tail is met.
        var start = 0, piece = 1
        while start < Self.floats.count {
            let count = min(piece, Self.floats.count - start)
            Self.floats.withUnsafeBufferPointer { f in
                packed.withUnsafeMutableBufferPointer { p in
                    CKernels_packHalves(level.cLevel, f.baseAddress! + start, p.baseAddress! + start, count)
                }
            }
            start += count
            piece = piece % 17 + 1
        }
        var wrong: [(Float, UInt16, UInt16)] = []
        for (x, got) in zip(Self.floats, packed) {
            let want = Self.expectedHalf(x)
            let right = x.isNaN ? Self.isNaNHalf(got) && got & 0x8000 == want & 0x8000 : got == want
            if !right, wrong.count < 5 { wrong.append((x, got, want)) }
        }
        #expect(wrong.isEmpty, "\(level): \(wrong.map { "\($0.0) → \(String($0.1, radix: 16)), not \(String($0.2, radix: 16))" })")
        // Rounding in place is a pack and an unpack.
        var rounded = Self.floats
        CKernels_roundToHalves(level.cLevel, &rounded, rounded.count)
        var unpacked = [Float](repeating: 0, count: packed.count)
        CKernels_unpackHalves(level.cLevel, packed, &unpacked, packed.count)
        #expect(zip(rounded, unpacked).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(level): roundToHalves is not pack then unpack")
        if level > .baseline {
            var baseline = [UInt16](repeating: 0, count: Self.floats.count)
            CKernels_packHalves(InstructionSet.baseline.cLevel, Self.floats, &baseline, Self.floats.count)
            #expect(baseline == packed, "\(level) and the baseline differ (NaN payloads included)")
        }
    }

    @Test(arguments: levels) func everyHalfUnpacksExactly(level: InstructionSet) {
        let halves = (0...UInt16.max).map { $0 }
        var floats = [Float](repeating: 0, count: halves.count)
        CKernels_unpackHalves(level.cLevel, halves, &floats, halves.count)
        let wrong = zip(halves, floats).first { h, f in
            let want = Float(Float16(bitPattern: h))
            return want.isNaN ? !f.isNaN || f.sign != want.sign : f.bitPattern != want.bitPattern
        }
        #expect(wrong == nil, "\(level): half \(String(wrong?.0 ?? 0, radix: 16)) unpacked as \(wrong?.1 ?? 0)")
        // Through a pack: every half that is not a NaN comes back as itself, but infinities,
        // which are held at ±65504.
        var again = [UInt16](repeating: 0, count: halves.count)
        CKernels_packHalves(level.cLevel, floats, &again, floats.count)
        #expect(zip(halves, again).allSatisfy { h, a in
            Self.isNaNHalf(h) || h == a || (h & 0x7fff == 0x7c00 && a == h - 1)
        })
    }

    /// A constant picture blurred with σ 8 keeps its 2×2-averaged blocks as half floats,
    /// 8 bytes a block: the inside of the blur is the half nearest the value (the blur
    /// itself adds ~10⁻⁷), a value past 65504 is held there, finite, and the result does
    /// not depend on tiles or threads.
    @Test func theLargeBlurKeepsItsBlocksAsHalfFloats() throws {
        let (width, height) = (128, 96)
        for value: Float in [0.3, 1e6] {
            let pixels = [SIMD4<Float>](repeating: SIMD4(value, value / 2, 0.7, 1), count: width * height)
            let blurred = try Image(workingSpacePixels: pixels, width: width, height: height).applyingGaussianBlur(sigma: 8)
            let context = RenderContext(.init(threads: 2))
            let bitmap = try context.render(blurred, format: .rgbaFloat)
            // The blocks: 128 + 2·24 by 96 + 2·24, halved; the cache counts the pixels in
            // memory the graph holds beside them.
            #expect(context.cache.statistics.bytes == (176 / 2) * (144 / 2) * 8 + width * height * 16, "\(context.cache.statistics)")
            let want = SIMD4<Float>(Float(Float16(min(value, 65504))), Float(Float16(min(value / 2, 65504))), Float(Float16(Float(0.7))), 1)
            // Rows 68…75, columns 84…91 of the 176×144 bitmap: more than 30 pixels (what the
            // blur reads) inside the picture.
            for row in 68..<76 {
                for x in 84..<92 {
                    let got = bitmap.pixel(x: x, row: row), error = got - want
                    let largest = max(max(abs(error.x), abs(error.y)), max(abs(error.z), abs(error.w)))
                    #expect(got.x.isFinite && largest <= want.max() * 1e-6, "\(value): \(got), not \(want)")
                }
            }
            if value < 1 {
                #expect(abs(bitmap.pixel(x: 88, row: 72).x - value) > 4e-5, "the blocks were kept in Float32")
                try expectTileInvariant(blurred)
            }
        }
    }
}
