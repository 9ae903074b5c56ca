import Foundation
import Testing
@testable import Lumen

/// The large blur's block averages (`BoxShrink`): every level gives the Swift loop's bits,
/// signed zeros included, and the loop is the mean of each block.
@Suite struct BoxShrinkTests {
    @Test(arguments: VectorKernelTests.levels.filter { $0 > .baseline })
    func blockAveragesAreBitIdentical(level: InstructionSet) {
        var values = VectorKernelTests.Values(state: 5)
        for k in [2, 4, 8] {
            for count in [1, 2, 3, 5, 16, 17] {
                var rows = (0..<k).map { _ in values.pixels(k * count) }
                rows[0][0] = SIMD4(-0.0, -0.0, 0, -0.0)  // the sums start from +0, as the Swift loop's do
                if k > 1 { rows[1][0] = SIMD4(-0.0, 0, -0.0, -0.0) }
                rows[0][k * count - 1] = SIMD4(1e30, -1e30, .infinity, 3)
                let pointers = rows.map { row in
                    let p = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: row.count)
                    p.initialize(from: row, count: row.count)
                    return UnsafePointer(p)
                }
                defer { pointers.forEach { $0.deallocate() } }
                var want = [SIMD4<Float>](repeating: .zero, count: count), got = want
                BoxShrink.shrinkRow(pointers, factor: k, into: &want, count: count, level: .baseline)
                BoxShrink.shrinkRow(pointers, factor: k, into: &got, count: count, level: level)
                let bits = { (p: [SIMD4<Float>]) in p.flatMap { [$0.x, $0.y, $0.z, $0.w].map(\.bitPattern) } }
                #expect(bits(got) == bits(want), "\(level), k \(k), \(count) blocks")
                // The mean, to a float's rounding (the baseline is the reference above); the
                // last block holds the extreme values.
                for i in 0..<(count - 1) {
                    var mean = SIMD4<Double>.zero
                    for row in rows { for c in 0..<k { mean += SIMD4<Double>(row[i * k + c]) } }
                    mean /= Double(k * k)
                    let error = SIMD4<Double>(want[i]) - mean
                    #expect(max(max(abs(error.x), abs(error.y)), max(abs(error.z), abs(error.w))) < 1e-5, "k \(k), block \(i)")
                }
            }
        }
    }
}
