import CKernels

/// The inner loops of separable filters (convolutions and resampling). The Swift loops
/// here are the baseline, written so the compiler keeps several independent accumulators
/// in vector registers; on a machine with AVX2 or AVX-512 (`InstructionSet.current`) each
/// function hands its row to the C target `CKernels` instead. Every output pixel sums its
/// taps in the same order whatever the tile, so results do not depend on the schedule.
enum SeparableKernel {
    @inline(__always)
    private static func floats(_ p: UnsafePointer<SIMD4<Float>>) -> UnsafePointer<Float> {
        UnsafeRawPointer(p).assumingMemoryBound(to: Float.self)
    }

    @inline(__always)
    private static func floats(_ p: UnsafeMutablePointer<SIMD4<Float>>) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer(p).assumingMemoryBound(to: Float.self)
    }

    @inline(__always)
    private static func floatRows(_ rows: UnsafeBufferPointer<UnsafePointer<SIMD4<Float>>>) -> UnsafePointer<UnsafePointer<Float>?> {
        UnsafeRawPointer(rows.baseAddress!).assumingMemoryBound(to: UnsafePointer<Float>?.self)
    }

    /// out[i] = Σₖ source[i + k] · w[k] for i in 0..<count.
    @inline(__always)
    static func convolveRow(_ source: UnsafePointer<SIMD4<Float>>, weights w: UnsafeBufferPointer<Float>,
                            into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, level: InstructionSet = .current) {
        if level > .baseline, count > 0, w.count > 0 {
            return CKernels_convolveRow(level.cLevel, floats(source), w.baseAddress!, w.count, floats(out), count)
        }
        let n = w.count
        var i = 0
        while i + 4 <= count {
            var a = SIMD4<Float>.zero, b = SIMD4<Float>.zero, c = SIMD4<Float>.zero, d = SIMD4<Float>.zero
            let s = source + i
            for k in 0..<n {
                let weight = w[k]
                a += s[k] * weight
                b += s[k + 1] * weight
                c += s[k + 2] * weight
                d += s[k + 3] * weight
            }
            out[i] = a; out[i + 1] = b; out[i + 2] = c; out[i + 3] = d
            i += 4
        }
        while i < count {
            var a = SIMD4<Float>.zero
            for k in 0..<n { a += source[i + k] * w[k] }
            out[i] = a
            i += 1
        }
    }

    /// out[i] = Σₖ rowAt(k)[i] · w[k] for i in 0..<count: a vertical pass over `w.count` rows.
    @inline(__always)
    static func convolveColumns(rowAt: (Int) -> UnsafePointer<SIMD4<Float>>, weights w: UnsafeBufferPointer<Float>,
                                into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, level: InstructionSet = .current) {
        withUnsafeTemporaryAllocation(of: UnsafePointer<SIMD4<Float>>.self, capacity: w.count) { rows in
            for k in 0..<w.count { rows[k] = rowAt(k) }
            convolveColumns(rows: UnsafeBufferPointer(rows), weights: w, into: out, count: count, level: level)
        }
    }

    static func convolveColumns(rows: UnsafeBufferPointer<UnsafePointer<SIMD4<Float>>>, weights w: UnsafeBufferPointer<Float>,
                                into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, level: InstructionSet = .current) {
        if level > .baseline, count > 0, w.count > 0 {
            return CKernels_convolveColumns(level.cLevel, floatRows(rows), w.baseAddress!, w.count, floats(out), count)
        }
        let n = w.count
        var i = 0
        while i + 8 <= count {
            var a0 = SIMD4<Float>.zero, a1 = SIMD4<Float>.zero, a2 = SIMD4<Float>.zero, a3 = SIMD4<Float>.zero
            var a4 = SIMD4<Float>.zero, a5 = SIMD4<Float>.zero, a6 = SIMD4<Float>.zero, a7 = SIMD4<Float>.zero
            for k in 0..<n {
                let s = rows[k] + i, weight = w[k]
                a0 += s[0] * weight; a1 += s[1] * weight; a2 += s[2] * weight; a3 += s[3] * weight
                a4 += s[4] * weight; a5 += s[5] * weight; a6 += s[6] * weight; a7 += s[7] * weight
            }
            out[i] = a0; out[i + 1] = a1; out[i + 2] = a2; out[i + 3] = a3
            out[i + 4] = a4; out[i + 5] = a5; out[i + 6] = a6; out[i + 7] = a7
            i += 8
        }
        while i < count {
            var a = SIMD4<Float>.zero
            for k in 0..<n { a += rows[k][i] * w[k] }
            out[i] = a
            i += 1
        }
    }

    /// `convolveRow` for a symmetric kernel of odd length (w[k] = w[n−1−k]): mirrored
    /// taps are added before multiplying, so each pair costs one multiply.
    @inline(__always)
    static func convolveRowSymmetric(_ source: UnsafePointer<SIMD4<Float>>, weights w: UnsafeBufferPointer<Float>,
                                     into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, level: InstructionSet = .current) {
        if level > .baseline, count > 0, w.count > 0 {
            return CKernels_convolveRowSymmetric(level.cLevel, floats(source), w.baseAddress!, w.count, floats(out), count)
        }
        let n = w.count, c = n / 2
        var i = 0
        while i + 4 <= count {
            let s = source + i
            var a = s[c] * w[c], b = s[c + 1] * w[c], e = s[c + 2] * w[c], d = s[c + 3] * w[c]
            for k in 0..<c {
                let weight = w[k], m = n - 1 - k
                a += (s[k] + s[m]) * weight
                b += (s[k + 1] + s[m + 1]) * weight
                e += (s[k + 2] + s[m + 2]) * weight
                d += (s[k + 3] + s[m + 3]) * weight
            }
            out[i] = a; out[i + 1] = b; out[i + 2] = e; out[i + 3] = d
            i += 4
        }
        while i < count {
            let s = source + i
            var a = s[c] * w[c]
            for k in 0..<c { a += (s[k] + s[n - 1 - k]) * w[k] }
            out[i] = a
            i += 1
        }
    }

    /// `convolveColumns` for a symmetric kernel of odd length: rows k and n−1−k are added
    /// before multiplying.
    static func convolveColumnsSymmetric(rows: UnsafeBufferPointer<UnsafePointer<SIMD4<Float>>>, weights w: UnsafeBufferPointer<Float>,
                                         into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, level: InstructionSet = .current) {
        if level > .baseline, count > 0, w.count > 0 {
            return CKernels_convolveColumnsSymmetric(level.cLevel, floatRows(rows), w.baseAddress!, w.count, floats(out), count)
        }
        let n = w.count, c = n / 2
        var i = 0
        while i + 8 <= count {
            let center = rows[c] + i, wc = w[c]
            var a0 = center[0] * wc, a1 = center[1] * wc, a2 = center[2] * wc, a3 = center[3] * wc
            var a4 = center[4] * wc, a5 = center[5] * wc, a6 = center[6] * wc, a7 = center[7] * wc
            for k in 0..<c {
                let p = rows[k] + i, q = rows[n - 1 - k] + i, weight = w[k]
                a0 += (p[0] + q[0]) * weight; a1 += (p[1] + q[1]) * weight; a2 += (p[2] + q[2]) * weight; a3 += (p[3] + q[3]) * weight
                a4 += (p[4] + q[4]) * weight; a5 += (p[5] + q[5]) * weight; a6 += (p[6] + q[6]) * weight; a7 += (p[7] + q[7]) * weight
            }
            out[i] = a0; out[i + 1] = a1; out[i + 2] = a2; out[i + 3] = a3
            out[i + 4] = a4; out[i + 5] = a5; out[i + 6] = a6; out[i + 7] = a7
            i += 8
        }
        while i < count {
            var a = rows[c][i] * w[c]
            for k in 0..<c { a += (rows[k][i] + rows[n - 1 - k][i]) * w[k] }
            out[i] = a
            i += 1
        }
    }

    /// A resampling pass along a row: out[i] = Σₖ source[starts[i] + k] · weights[i·taps + k]
    /// for i in 0..<count, each source index clamped to lo…hi. `period` (1 or 2) says that
    /// pixel i's weights are pixel (i mod period)'s (`ResamplingTaps.period`), which the
    /// vector kernel uses to spread them once a row; the sums are the same.
    static func resampleRow(_ source: UnsafePointer<SIMD4<Float>>, starts: UnsafePointer<Int>, weights: UnsafePointer<Float>, taps n: Int,
                            lo: Int, hi: Int, into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int,
                            period: Int? = nil, level: InstructionSet = .current) {
        if level > .baseline, count > 0, n > 0 {
            if let period {
                return CKernels_resampleRowPeriodic(level.cLevel, floats(source), starts, weights, n, period, lo, hi, floats(out), count)
            }
            return CKernels_resampleRow(level.cLevel, floats(source), starts, weights, n, lo, hi, floats(out), count)
        }
        // Everything the inner loop reads is a local pointer or value: how fast it runs must
        // not depend on what the optimizer makes of a kernel's `self` (a change elsewhere in
        // the module once cost it 40 %).
        for i in 0..<count {
            let first = starts[i], w = weights + i * n
            var sum = SIMD4<Float>.zero
            if first >= lo && first + n - 1 <= hi {
                let p = source + first
                for k in 0..<n { sum += p[k] * w[k] }
            } else {
                for k in 0..<n { sum += source[min(max(first + k, lo), hi)] * w[k] }
            }
            out[i] = sum
        }
    }

    /// `resampleRow` over `rows` rows, `sourceStride` and `outStride` pixels apart, all with
    /// the same starts and weights (a tile's rows): the same sums. The vector kernel takes four
    /// rows at a time, making each output's spread weights once for the four.
    static func resampleRows(_ source: UnsafePointer<SIMD4<Float>>, sourceStride: Int, starts: UnsafePointer<Int>,
                             weights: UnsafePointer<Float>, taps n: Int, lo: Int, hi: Int,
                             into out: UnsafeMutablePointer<SIMD4<Float>>, outStride: Int, count: Int, rows: Int,
                             level: InstructionSet = .current) {
        if level > .baseline, count > 0, n > 0, rows > 0 {
            return CKernels_resampleRows(level.cLevel, floats(source), 4 * sourceStride, starts, weights, n, lo, hi,
                                         floats(out), 4 * outStride, count, rows)
        }
        for r in 0..<rows {
            resampleRow(source + r * sourceStride, starts: starts, weights: weights, taps: n, lo: lo, hi: hi,
                        into: out + r * outStride, count: count, level: level)
        }
    }

    /// A vertical pass over `height` output rows at once: output row y (at out + y·stride)
    /// is Σₖ rows[y + k] · w[k]; `rows` holds height + w.count − 1 input rows.
    static func convolveColumns(rows: UnsafeBufferPointer<UnsafePointer<SIMD4<Float>>>, weights w: UnsafeBufferPointer<Float>,
                                symmetric: Bool, into out: UnsafeMutablePointer<SIMD4<Float>>, stride: Int, height: Int, count: Int,
                                level: InstructionSet = .current) {
        precondition(rows.count >= height + w.count - 1)
        if level > .baseline, count > 0, w.count > 0, height > 0 {
            return CKernels_convolveColumnsBlock(level.cLevel, floatRows(rows), w.baseAddress!, w.count, symmetric ? 1 : 0,
                                                 floats(out), 4 * stride, height, count)
        }
        for y in 0..<height {
            let window = UnsafeBufferPointer(rebasing: rows[y..<(y + w.count)])
            if symmetric {
                convolveColumnsSymmetric(rows: window, weights: w, into: out + y * stride, count: count, level: level)
            } else {
                convolveColumns(rows: window, weights: w, into: out + y * stride, count: count, level: level)
            }
        }
    }
}
