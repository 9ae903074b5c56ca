import Foundation
import Testing
@testable import Lumen

/// The loops whose vector versions give the Swift baseline's results exactly, not within a
/// rounding (VectorKernelTests' bound): the 8-bit expansion through tables, vignetteEffect's
/// row, motionBlur's running sums, the encoder to 8-bit codes and morphology's extremum,
/// compared bit for bit at every level this machine has.
extension VectorKernelTests {
    /// Opaque 8-bit RGB through the decode tables: every code in every channel, at every
    /// count (the vector loop's groups of eight and its tail), gives the scalar loop's bits.
    @Test(arguments: levels) func rgbCodesExpandAsTheScalarLoopDoes(level: InstructionSet) {
        var values = Values(state: 12)
        let curve = TransferFunction.linearFrom8
        let tables = [ChannelTables.srgb,
                      ChannelTables(red: curve.map { $0 * 0.5 }, green: curve.reversed(), blue: (0..<256).map { Float($0) - 100 })]
        for table in tables {
            for count in Self.counts + [8, 9, 10, 11, 12, 24, 256] {
                var bytes = (0..<(3 * count)).map { _ in UInt8(truncatingIfNeeded: Int(values.next() * 1000)) }
                for i in 0..<min(bytes.count, 768) { bytes[i] = UInt8((i / 3 + 85 * (i % 3)) & 255) }  // each code in each channel, the channels apart
                var want = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: count), got = want
                bytes.withUnsafeMutableBufferPointer { b in
                    want.withUnsafeMutableBufferPointer { o in
                        table.expand(b.baseAddress!, channels: 3, count: count, into: o.baseAddress!, level: .baseline)
                    }
                    got.withUnsafeMutableBufferPointer { o in
                        table.expand(b.baseAddress!, channels: 3, count: count, into: o.baseAddress!, level: level)
                    }
                }
                let differing = (0..<count).first { i in (0..<4).contains { want[i][$0].bitPattern != got[i][$0].bitPattern } }
                #expect(differing == nil, "\(level), \(count) pixels: pixel \(differing ?? -1) is \(got[differing ?? 0]), not \(want[differing ?? 0])")
            }
        }
    }

    /// vignetteEffect's row at every level gives the baseline's bits exactly: the same IEEE
    /// operations in the same order (no fused multiply-add), over rows that cross the
    /// unchanged circle, the band and the outside, darkening and lightening, with tails.
    @Test(arguments: levels) func vignetteRowsAreBitIdentical(level: InstructionSet) {
        var values = Values(state: 9)
        let cases: [(center: Double, dy: Float, radius: Float, band: Float, k: Float)] = [
            (40.3, 0, 10, 10, 1), (40.3, 7.5, 10, 25, 0.6), (-3.25, 2, 30, 1, -0.8), (64, 31, 20, 40, -1),
            (17.5, 0.5, 0, 1, 0.25), (1e6, 3, 5, 5, 1), (.nan, 1, 10, 10, 1), (20, 4, 12, 6, .nan),
        ]
        for (center, dy, radius, band, k) in cases {
            for count in Self.counts + [37, 70] {
                let x = Int(values.next() * 40) - 20
                var source = values.pixels(count)
                if count > 3 { source[1].w = 0; source[2] = SIMD4(.infinity, -0.0, 2, 0.5) }
                var want = [SIMD4<Float>](repeating: .zero, count: count), got = want
                source.withUnsafeBufferPointer { s in
                    want.withUnsafeMutableBufferPointer { o in
                        VignetteKernel.row(s.baseAddress!, into: o.baseAddress!, count: count, x: x, centerX: center, dy2: dy * dy,
                                           radius: radius, band: band, intensity: k, level: .baseline)
                    }
                    got.withUnsafeMutableBufferPointer { o in
                        VignetteKernel.row(s.baseAddress!, into: o.baseAddress!, count: count, x: x, centerX: center, dy2: dy * dy,
                                           radius: radius, band: band, intensity: k, level: level)
                    }
                }
                for i in 0..<count {
                    let a = (0..<4).map { want[i][$0].bitPattern }, b = (0..<4).map { got[i][$0].bitPattern }
                    #expect(a == b, "\(level) centre \(center) k \(k) count \(count) pixel \(i): \(want[i]) vs \(got[i])")
                }
            }
        }
    }

    /// motionBlur's box (running sums in double) at every level gives the baseline's bits:
    /// along rows, one to five rows at a time (the vector loop pairs them), windows of 1 to
    /// 41 pixels, infinities and NaN in the input; and down columns, a row in and a row out.
    @Test(arguments: levels) func boxSumsAreBitIdentical(level: InstructionSet) {
        var values = Values(state: 11)
        for rows in 1...5 {
            for count in Self.counts {
                for length in [1, 2, 7, 41] {
                    var source = (0..<rows).map { _ in values.pixels(count + length - 1) }
                    if rows == 3, count > 4 { source[1][3] = SIMD4(.infinity, .nan, -0.0, 1e30) }
                    var want = [[SIMD4<Float>]](repeating: [SIMD4<Float>](repeating: .zero, count: count), count: rows), got = want
                    let scale = 1 / Double(length)
                    for (which, at) in [(0, InstructionSet.baseline), (1, level)] {
                        let pointers = source.map { row in
                            let p = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: row.count)
                            p.initialize(from: row, count: row.count)
                            return p
                        }
                        let outs = (0..<rows).map { _ in UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count) }
                        MotionBlurKernel.boxRows(pointers.map { UnsafePointer($0) }, into: outs, count: count, length: length, scale: scale, level: at)
                        let result = outs.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
                        if which == 0 { want = result } else { got = result }
                        pointers.forEach { $0.deallocate() }
                        outs.forEach { $0.deallocate() }
                    }
                    for k in 0..<rows {
                        for i in 0..<count {
                            let a = (0..<4).map { want[k][i][$0].bitPattern }, b = (0..<4).map { got[k][i][$0].bitPattern }
                            #expect(a == b, "\(level) rows \(rows) count \(count) length \(length): row \(k) pixel \(i)")
                        }
                    }
                }
            }
        }
        for count in Self.counts {
            let entering = values.pixels(count), leaving = values.pixels(count)
            var results: [[SIMD4<Float>]] = []
            for at in [InstructionSet.baseline, level] {
                var sums = [SIMD4<Double>](repeating: SIMD4(0.5, -1, 3, 0), count: count)
                var out = [SIMD4<Float>](repeating: .zero, count: count)
                sums.withUnsafeMutableBufferPointer { s in
                    MotionBlurKernel.boxAccumulate(s.baseAddress!, entering: entering, leaving: nil, count: count, level: at)
                    MotionBlurKernel.boxAccumulate(s.baseAddress!, entering: entering, leaving: leaving, count: count, level: at)
                    out.withUnsafeMutableBufferPointer { MotionBlurKernel.boxStore(s.baseAddress!, scale: 1 / 3, into: $0.baseAddress!, count: count, level: at) }
                }
                results.append(out)
            }
            for i in 0..<count {
                #expect((0..<4).map { results[0][i][$0].bitPattern } == (0..<4).map { results[1][i][$0].bitPattern },
                        "\(level) columns count \(count) pixel \(i)")
            }
        }
    }

    /// 8-bit encoding at every level gives the tables' codes exactly: at and 40 ulps either
    /// side of every midpoint between codes (where the vector path defers to the tables),
    /// through the linear toe, above 1, below 0, NaN, ±∞, −0 and subnormals, with alpha
    /// premultiplied (RGBA) or not (RGB), over counts that reach the tails.
    @Test(arguments: levels) func eightBitCodesAreTheTables(level: InstructionSet) {
        var samples: [Float] = [0, -0.0, 1, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .leastNormalMagnitude,
                                0.0031308, Float(0.0031308).nextUp, Float(0.0031308).nextDown, Float(1).nextDown, 1e-30, -1e-30, 7, 255]
        for c in 0..<255 {
            var v = EncodeTables.shared.threshold[c]
            for _ in 0..<40 { v = v.nextDown }
            for _ in 0..<81 { samples.append(v); v = v.nextUp }
        }
        var values = Values(state: 11)
        for _ in 0..<20_000 { samples.append(values.next() * 0.6 - 0.1) }
        for _ in 0..<4_000 { samples.append((values.next() + 1) * 0.002) }
        // RGB samples with an alpha of 1, then the same colours scaled by varied alphas.
        var pixels: [SIMD4<Float>] = []
        let alphas: [Float] = [0.5, 0, -0.25, 1.5, .nan, 0.003, 1, 0.999]
        for i in stride(from: 0, to: samples.count - 2, by: 3) {
            pixels.append(SIMD4(samples[i], samples[i + 1], samples[i + 2], 1))
            let alpha = alphas[i % 8]
            pixels.append(SIMD4(samples[i] * alpha, samples[i + 1] * alpha, samples[i + 2] * alpha, alpha))
        }
        for channels in [3, 4] {
            for count in Self.counts + [pixels.count] {
                var want = [UInt8](repeating: 0, count: count * channels), got = [UInt8](repeating: 7, count: count * channels)
                pixels.withUnsafeBufferPointer { p in
                    want.withUnsafeMutableBufferPointer { PixelConversion.encode8(p.baseAddress!, count: count, channels: channels, into: $0.baseAddress!, level: .baseline) }
                    got.withUnsafeMutableBufferPointer { PixelConversion.encode8(p.baseAddress!, count: count, channels: channels, into: $0.baseAddress!, level: level) }
                }
                let wrong = want.indices.filter { want[$0] != got[$0] }
                #expect(wrong.isEmpty, "\(level), \(channels) channels, \(count) pixels: \(wrong.count) codes differ, first at \(wrong.first.map { "pixel \($0 / channels) \(pixels[$0 / channels]): \(want[$0]) vs \(got[$0])" } ?? "")")
            }
        }
    }

    /// Morphology's fold gives the same bits at every level, NaNs, infinities and signed
    /// zeros included: each level takes the same comparison and selection in the same order.
    @Test(arguments: levels) func extremaAreBitIdentical(level: InstructionSet) {
        var values = Values(state: 5)
        let specials: [Float] = [.nan, -.nan, .infinity, -.infinity, 0, -0, .leastNonzeroMagnitude, -1]
        for dilate in [true, false] {
            for n in [1, 2, 3, 11, 17] {
                for count in Self.counts {
                    let rows = (0..<n).map { _ in
                        values.pixels(count).map { p in
                            // About one lane in six is special.
                            var p = p
                            for c in 0..<4 where values.next() > 1.5 { p[c] = specials[Int((values.next() + 1) * 2.6) % specials.count] }
                            return p
                        }
                    }
                    func run(_ level: InstructionSet) -> [UInt32] {
                        var out = [SIMD4<Float>](repeating: SIMD4(repeating: 7), count: count)
                        Self.withRowPointers(rows) { pointers in out.withUnsafeMutableBufferPointer { o in
                            Morphology.extremum(pointers.baseAddress!, n, into: o.baseAddress!, count: count, dilate: dilate, level: level)
                        } }
                        return out.flatMap { p in (0..<4).map { p[$0].bitPattern } }
                    }
                    let got = run(level), expected = run(.baseline)
                    #expect(got == expected, "dilate \(dilate), \(n) rows of \(count) at \(level)")
                    // The baseline is the fold itself.
                    for x in 0..<count {
                        var a = rows[0][x]
                        for k in 1..<n { a = dilate ? Maximum.combine(a, rows[k][x]) : Minimum.combine(a, rows[k][x]) }
                        if (0..<4).map({ a[$0].bitPattern }) != Array(expected[(4 * x)..<(4 * x + 4)]) {
                            Issue.record("pixel \(x) of \(count), \(n) rows: \(a) expected")
                            return
                        }
                    }
                }
            }
        }
    }
}

/// The 8-bit encoder gives the nearest sRGB code, against the curve in Double at and on
/// both sides of every midpoint between codes, and saturates (+∞ once stepped past 255 to 0).
@Suite struct EncodeTableTests {
    @Test func nearestCodeAtEveryBoundary() {
        let tables = EncodeTables.shared
        for c in 0..<255 {
            let midpoint = TransferFunction.linear(fromSRGB: (Double(c) + 0.5) / 255)
            for x in [Float(midpoint).nextDown.nextDown, Float(midpoint).nextUp.nextUp, Float(midpoint * 0.999), Float(midpoint * 1.001)] {
                let expected = UInt8((TransferFunction.srgb(fromLinear: Double(x)) * 255).rounded())
                #expect(tables.encode8(x) == expected, "code \(c): \(x) gives \(tables.encode8(x)), not \(expected)")
            }
        }
    }

    @Test func overRangeValuesSaturate() {
        let tables = EncodeTables.shared
        #expect(tables.encode8(.infinity) == 255 && tables.encode8(2) == 255 && tables.encode8(1) == 255)
        #expect(tables.encode8(-.infinity) == 0 && tables.encode8(-1) == 0 && tables.encode8(0) == 0)
    }
}
