import Foundation
import Testing
@testable import Lumen

/// Every level of the separable inner loops (the Swift baseline and, where this machine has
/// them, the AVX2 + FMA and AVX-512 versions in CKernels) against a double-precision
/// reference, over counts and tap numbers that reach each loop's tails. The bound is the
/// rounding of n Float32 multiply-adds: n · 2⁻²³ · Σ|w·x|. CI also runs the whole suite
/// with LUMEN_SIMD=baseline.
@Suite struct VectorKernelTests {
    static let levels = [InstructionSet.baseline, .avx2, .avx512].filter { $0 <= .machine }
    static let counts = [1, 2, 3, 5, 15, 16, 17, 31, 33, 64, 100]
    static let tapCounts = [1, 2, 3, 4, 5, 7, 25, 49]

    /// Deterministic values in [−1, 2) (premultiplied linear light may exceed 1 and go below 0).
    struct Values {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24) * 3 - 1
        }
        mutating func pixels(_ count: Int) -> [SIMD4<Float>] { (0..<count).map { _ in SIMD4(next(), next(), next(), next()) } }
    }

    static func weights(_ n: Int, symmetric: Bool, values: inout Values) -> [Float] {
        var w = (0..<n).map { _ in values.next() }
        if symmetric { for k in 0..<(n / 2) { w[n - 1 - k] = w[k] } }
        return w
    }

    /// Checks `got` against Σₖ tap(i, k) · w(i, k) in Double.
    static func expectClose(_ got: [SIMD4<Float>], taps n: Int, level: InstructionSet, _ what: String,
                            term: (Int, Int) -> (SIMD4<Float>, Float)) {
        for i in got.indices {
            var exact = SIMD4<Double>.zero, magnitude = SIMD4<Double>.zero
            for k in 0..<n {
                let (x, w) = term(i, k)
                let product = SIMD4<Double>(x) * Double(w)
                exact += product
                magnitude += product.replacing(with: -product, where: product .< 0)
            }
            let bound = magnitude * Double(n + 1) * 0x1p-23 + 1e-30
            let error = SIMD4<Double>(got[i]) - exact
            if any(error .> bound) || any(error .< -bound) {
                Issue.record("\(what) at \(level), pixel \(i) of \(got.count), \(n) taps: \(got[i]) against \(exact)")
                return
            }
        }
    }

    @Test(arguments: levels) func horizontalConvolution(level: InstructionSet) {
        var values = Values(state: 1)
        for symmetric in [false, true] {
            for n in Self.tapCounts where !symmetric || n % 2 == 1 {
                let w = Self.weights(n, symmetric: symmetric, values: &values)
                for count in Self.counts {
                    let source = values.pixels(count + n - 1)
                    var out = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: count)
                    source.withUnsafeBufferPointer { s in w.withUnsafeBufferPointer { wp in out.withUnsafeMutableBufferPointer { o in
                        if symmetric {
                            SeparableKernel.convolveRowSymmetric(s.baseAddress!, weights: wp, into: o.baseAddress!, count: count, level: level)
                        } else {
                            SeparableKernel.convolveRow(s.baseAddress!, weights: wp, into: o.baseAddress!, count: count, level: level)
                        }
                    } } }
                    Self.expectClose(out, taps: n, level: level, symmetric ? "convolveRowSymmetric" : "convolveRow") { i, k in (source[i + k], w[k]) }
                }
            }
        }
    }

    @Test(arguments: levels) func verticalConvolution(level: InstructionSet) {
        var values = Values(state: 2)
        for symmetric in [false, true] {
            for n in Self.tapCounts where !symmetric || n % 2 == 1 {
                let w = Self.weights(n, symmetric: symmetric, values: &values)
                for count in Self.counts {
                    let rows = (0..<n).map { _ in values.pixels(count) }
                    var out = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: count)
                    Self.withRowPointers(rows) { pointers in w.withUnsafeBufferPointer { wp in out.withUnsafeMutableBufferPointer { o in
                        if symmetric {
                            SeparableKernel.convolveColumnsSymmetric(rows: pointers, weights: wp, into: o.baseAddress!, count: count, level: level)
                        } else {
                            SeparableKernel.convolveColumns(rows: pointers, weights: wp, into: o.baseAddress!, count: count, level: level)
                        }
                    } } }
                    Self.expectClose(out, taps: n, level: level, symmetric ? "convolveColumnsSymmetric" : "convolveColumns") { i, k in (rows[k][i], w[k]) }
                }
            }
        }
    }

    /// The block form (many output rows, strips of columns) gives each row what the row form gives.
    @Test(arguments: levels) func verticalConvolutionOverABlockOfRows(level: InstructionSet) {
        var values = Values(state: 3)
        for (n, symmetric) in [(5, true), (25, true), (4, false), (49, true)] {
            let w = Self.weights(n, symmetric: symmetric, values: &values)
            for (count, height) in [(1, 1), (17, 3), (33, 40), (100, 7)] {
                let rows = (0..<(height + n - 1)).map { _ in values.pixels(count) }
                var out = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: count * height)
                Self.withRowPointers(rows) { pointers in w.withUnsafeBufferPointer { wp in out.withUnsafeMutableBufferPointer { o in
                    SeparableKernel.convolveColumns(rows: pointers, weights: wp, symmetric: symmetric, into: o.baseAddress!,
                                                    stride: count, height: height, count: count, level: level)
                } } }
                Self.expectClose(out, taps: n, level: level, "convolveColumns over \(height) rows") { i, k in (rows[i / count + k][i % count], w[k]) }
            }
        }
    }

    @Test(arguments: levels) func resampling(level: InstructionSet) {
        var values = Values(state: 4)
        for n in [1, 2, 3, 4, 5, 7, 8, 13, 25] {
            for count in Self.counts {
                let width = count + n + 9, lo = 2, hi = width - 3
                let source = values.pixels(width)
                // Starts that run off both ends (clamped to lo…hi) and ones well inside.
                // Runs of four inside, as a row's middle has.
                let starts = (0..<count).map { i in i % 8 < 4 ? lo + i % 5 : (i * 7 + n) % (width + 2 * n) - n }
                let w = (0..<(count * n)).map { _ in values.next() }
                var out = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: count)
                source.withUnsafeBufferPointer { s in starts.withUnsafeBufferPointer { st in w.withUnsafeBufferPointer { wp in
                    out.withUnsafeMutableBufferPointer { o in
                        SeparableKernel.resampleRow(s.baseAddress!, starts: st.baseAddress!, weights: wp.baseAddress!, taps: n,
                                                    lo: lo, hi: hi, into: o.baseAddress!, count: count, level: level)
                    }
                } } }
                Self.expectClose(out, taps: n, level: level, "resampleRow") { i, k in (source[min(max(starts[i] + k, lo), hi)], w[i * n + k]) }
                // Each pixel alone gives the bits it got among its neighbours (the AVX2 loop
                // runs four at a time): a result must not depend on where a tile starts.
                for i in 0..<count {
                    var alone = SIMD4<Float>(repeating: .nan)
                    source.withUnsafeBufferPointer { s in starts.withUnsafeBufferPointer { st in w.withUnsafeBufferPointer { wp in
                        SeparableKernel.resampleRow(s.baseAddress!, starts: st.baseAddress! + i, weights: wp.baseAddress! + i * n, taps: n,
                                                    lo: lo, hi: hi, into: &alone, count: 1, level: level)
                    } } }
                    if (0..<4).contains(where: { alone[$0].bitPattern != out[i][$0].bitPattern }) {
                        Issue.record("resampleRow at \(level), \(n) taps: pixel \(i) of \(count) alone \(alone), among others \(out[i])")
                        break
                    }
                }
            }
        }
    }

    /// Weights that repeat every pixel (a whole-factor reduction) or every two (an exact 2×
    /// enlargement) take a kernel of their own, which must give the general one's bits:
    /// each pixel's sum in the same order, clamped ends included, at every count.
    @Test(arguments: levels) func periodicResamplingIsTheGeneralKernelBitForBit(level: InstructionSet) {
        var values = Values(state: 11)
        for period in [1, 2] {
            for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17] {
                for count in Self.counts + [7, 36] {
                    // A halving's outputs two input pixels apart, a doubling's two to a pixel.
                    let first = { (i: Int) in (period == 1 ? 2 * i : i / 2) - n / 2 - 1 }
                    let width = first(count) + n + 12, lo = 1, hi = width - 2
                    let source = values.pixels(width)
                    let phases = (0..<(period * n)).map { _ in values.next() }
                    let w = (0..<(count * n)).map { phases[($0 / n) % period * n + $0 % n] }
                    let starts = (0..<count).map(first)  // running off both ends
                    var general = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: count), periodic = general
                    source.withUnsafeBufferPointer { s in starts.withUnsafeBufferPointer { st in w.withUnsafeBufferPointer { wp in
                        general.withUnsafeMutableBufferPointer { o in
                            SeparableKernel.resampleRow(s.baseAddress!, starts: st.baseAddress!, weights: wp.baseAddress!, taps: n,
                                                        lo: lo, hi: hi, into: o.baseAddress!, count: count, level: level)
                        }
                        periodic.withUnsafeMutableBufferPointer { o in
                            SeparableKernel.resampleRow(s.baseAddress!, starts: st.baseAddress!, weights: wp.baseAddress!, taps: n,
                                                        lo: lo, hi: hi, into: o.baseAddress!, count: count, period: period, level: level)
                        }
                    } } }
                    let differing = (0..<count).first { i in (0..<4).contains { general[i][$0].bitPattern != periodic[i][$0].bitPattern } }
                    #expect(differing == nil, "\(level), period \(period), \(n) taps, \(count) pixels: pixel \(differing ?? -1) differs")
                }
            }
        }
    }

    /// A tile's rows resampled together (four at a time, sharing each output's spread
    /// weights) give each row's own bits, whatever the row count, strides and clamped ends.
    @Test(arguments: levels) func rowsResampledTogetherAreEachRowAlone(level: InstructionSet) {
        var values = Values(state: 13)
        for n in [1, 2, 5, 12, 33] {
            for (count, rows) in [(1, 1), (3, 4), (17, 5), (33, 9), (64, 8)] {
                let width = count * 3 + n + 8, lo = 2, hi = width - 3
                let sourceStride = width + 3, outStride = count + 5
                let source = values.pixels(sourceStride * rows)
                let starts = (0..<count).map { $0 * 3 - n / 2 - 1 }  // a 3x reduction's, off both ends
                let w = (0..<(count * n)).map { _ in values.next() }
                var together = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: outStride * rows), alone = together
                source.withUnsafeBufferPointer { s in starts.withUnsafeBufferPointer { st in w.withUnsafeBufferPointer { wp in
                    together.withUnsafeMutableBufferPointer { o in
                        SeparableKernel.resampleRows(s.baseAddress!, sourceStride: sourceStride, starts: st.baseAddress!, weights: wp.baseAddress!,
                                                     taps: n, lo: lo, hi: hi, into: o.baseAddress!, outStride: outStride, count: count, rows: rows,
                                                     level: level)
                    }
                    alone.withUnsafeMutableBufferPointer { o in
                        for r in 0..<rows {
                            SeparableKernel.resampleRow(s.baseAddress! + r * sourceStride, starts: st.baseAddress!, weights: wp.baseAddress!,
                                                        taps: n, lo: lo, hi: hi, into: o.baseAddress! + r * outStride, count: count, level: level)
                        }
                    }
                } } }
                let differing = (0..<(outStride * rows)).first { i in (0..<4).contains { together[i][$0].bitPattern != alone[i][$0].bitPattern } }
                #expect(differing == nil, "\(level), \(n) taps, \(rows) rows of \(count): pixel \(differing ?? -1) differs")
            }
        }
    }

    @Test func wholeReductionsAndExactDoublingsHavePeriodicTaps() {
        let catmullRom = ResamplingKernel.cubic(b: 0, c: 0.5)
        #expect(ResamplingTaps(kernel: catmullRom, inputCount: 100, outputCount: 200, offset: -24).period == 2)
        #expect(ResamplingTaps(kernel: .lanczos3, inputCount: 64, outputCount: 128).period == 2)
        #expect(ResamplingTaps(kernel: .lanczos3, inputCount: 128, outputCount: 64).period == 1)
        #expect(ResamplingTaps(kernel: .lanczos3, inputCount: 2560, outputCount: 1280).taps == 12)
        #expect(ResamplingTaps(kernel: catmullRom, inputCount: 100, outputCount: 150).period == nil)
        #expect(ResamplingTaps(kernel: catmullRom, inputCount: 100, outputCount: 300).period == nil)
        #expect(ResamplingTaps(kernel: .lanczos3, inputCount: 100, outputCount: 233, offset: 0.3).period == nil)
    }

    @Test func theLevelInUseIsTheMachinesOrLower() {
        #expect(InstructionSet.current <= InstructionSet.machine)
        if let asked = ProcessInfo.processInfo.environment["LUMEN_SIMD"], let level = InstructionSet(name: asked) {
            #expect(InstructionSet.current == min(level, .machine))
        }
    }

    static func withRowPointers<R>(_ rows: [[SIMD4<Float>]], _ body: (UnsafeBufferPointer<UnsafePointer<SIMD4<Float>>>) -> R) -> R {
        let buffers = rows.map { row -> UnsafeMutablePointer<SIMD4<Float>> in
            let p = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, row.count))
            p.initialize(from: row, count: row.count)
            return p
        }
        defer { buffers.forEach { $0.deallocate() } }
        let pointers = buffers.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer(body)
    }
}
