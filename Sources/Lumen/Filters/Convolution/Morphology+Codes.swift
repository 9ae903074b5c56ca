/// Dilation and erosion on an 8-bit file's codes. A channel's maximum commutes with its
/// decode table when the table never decreases: max T(cᵢ) = T(max cᵢ), so the working-space
/// path's code for a pixel is the table's code (`ChannelTables.codes`) of its neighbours'
/// largest code, and the same for the minimum. Outside the picture is transparent black,
/// value 0: with every table value at least 0 it never wins a maximum (the pixel's own
/// value is in its disc), and it wins a minimum exactly as code 0 does when code 0 decodes
/// to 0 (the working space's transparent black and an opaque 0 both encode as code 0).
extension Morphology: CodeRowKernel {
    /// Bytes the code path's ring of row extrema may take; a larger element over a wider
    /// picture goes through the tiles.
    static let codeRingBytes = 64 << 20

    /// Elements within `directReach`, over tables that never decrease, hold no negative
    /// value, and (erosion) decode code 0 to 0. The same bytes at every level.
    func codeRowStream(tables: ChannelTables, width: Int, height: Int, level: InstructionSet) -> (any CodeRowStream)? {
        let (rx, ry) = shape.reach, runs = shape.runs, dilate = operation == .dilate
        guard rx <= Self.directReach.x, ry <= Self.directReach.y, width > 0 else { return nil }
        for table in [tables.red, tables.green, tables.blue] {
            guard table.allSatisfy({ $0.isFinite && $0 >= 0 }), zip(table, table.dropFirst()).allSatisfy({ $0 <= $1 }),
                  dilate || table[0] == 0 else { return nil }
        }
        guard Set(runs).count * runs.count * 3 * width <= Self.codeRingBytes else { return nil }
        return MorphologyCodeRows(runs: runs, width: width, dilate: dilate, codes: tables.mappedCodes)
    }
}

/// `Morphology.runDirect`'s fold on RGB codes, a row at a time: each input row's run
/// extrema for every distinct run half-width, from a doubling table along the row, kept in
/// a ring of 2ry + 1 rows; each output row folds the ring's rows, `ry` rows after its own
/// input row came in. Rows and columns outside the picture are code 0.
final class MorphologyCodeRows: CodeRowStream {
    let lag: Int
    let heldBytes: Int
    private let width, rx: Int
    private let dilate: Bool
    private let codes: [UInt8]?
    private let plan: Morphology.DirectFold
    /// The input row with rx zero pixels either side (3 bytes a pixel).
    private let padded: UnsafeMutablePointer<UInt8>
    /// D_{l+1} (the extremum of 2^(l+1) pixels from each) at `table + l · paddedBytes`.
    private let table: UnsafeMutablePointer<UInt8>
    /// ring[(slot · widths.count + c) · rowBytes]: a ring slot's extremum for widths[c].
    private let ring: UnsafeMutablePointer<UInt8>
    private var fed = 0  // rows fed, counting the ry zero rows above the picture

    init(runs: [Int], width: Int, dilate: Bool, codes: [UInt8]?) {
        let plan = Morphology.DirectFold(runs: runs), widths = plan.widths, depth = plan.depth
        (self.width, self.dilate, self.codes, self.plan) = (width, dilate, codes, plan)
        (lag, rx) = (plan.ry, plan.rx)
        let paddedBytes = 3 * (width + 2 * rx), rowBytes = 3 * width
        padded = .allocate(capacity: paddedBytes)
        padded.initialize(repeating: 0, count: paddedBytes)
        table = .allocate(capacity: max(1, depth) * paddedBytes)
        // The ry rows above the picture are code 0, so are their extrema: the ring starts as zeros.
        ring = .allocate(capacity: runs.count * widths.count * rowBytes)
        ring.initialize(repeating: 0, count: runs.count * widths.count * rowBytes)
        heldBytes = (1 + max(1, depth)) * paddedBytes + runs.count * widths.count * rowBytes
        fed = lag
    }

    deinit {
        padded.deallocate()
        table.deallocate()
        ring.deallocate()
    }

    func feed(_ input: UnsafePointer<UInt8>?, writing output: UnsafeMutablePointer<UInt8>?) {
        let rowBytes = 3 * width, paddedBytes = 3 * (width + 2 * rx), span = 2 * lag + 1
        let (widths, column, depth) = (plan.widths, plan.column, plan.depth)
        let row = padded + 3 * rx
        if let input { row.update(from: input, count: rowBytes) } else { row.update(repeating: 0, count: rowBytes) }
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: max(2, span)) { fold in
            let fold = fold.baseAddress!
            var previous = UnsafePointer(padded)
            for l in 0..<depth {  // D_{l+1}, valid for paddedBytes − 3(2^(l+1) − 1) bytes
                let d = table + l * paddedBytes
                fold[0] = previous; fold[1] = previous + 3 * (1 << l)
                extremum(fold, 2, into: d, count: paddedBytes - 3 * ((2 << l) - 1))
                previous = UnsafePointer(d)
            }
            let slot = fed % span
            for (c, w) in widths.enumerated() {
                let out = ring + (slot * widths.count + c) * rowBytes
                if w == 0 { out.update(from: row, count: rowBytes); continue }
                let run = plan.run(w)
                let d = UnsafePointer(table + (run.level - 1) * paddedBytes)
                fold[0] = d + 3 * run.left; fold[1] = d + 3 * run.right
                extremum(fold, 2, into: out, count: rowBytes)
            }
            fed += 1
            guard let output else { return }
            // Output row fed − 1 − lag folds ring slots for input rows fed − span … fed − 1.
            for j in 0..<span { fold[j] = UnsafePointer(ring + (((fed - span + j) % span) * widths.count + column[j]) * rowBytes) }
            extremum(fold, span, into: output, count: rowBytes)
        }
        guard let output, let codes else { return }
        codes.withUnsafeBufferPointer { codes in
            for x in 0..<width {
                for c in 0..<3 { output[3 * x + c] = codes[256 * c + Int(output[3 * x + c])] }
            }
        }
    }

    /// out[i] = the largest (dilate) or smallest of rows[0][i] … rows[n − 1][i]. Plain loops
    /// over bytes, which the compiler turns into pmaxub/pminub on 16 at a time (SIMD32's
    /// `replacing(with:where:)` was compiled lane by lane: 60× slower); `out` is none of the rows.
    private func extremum(_ rows: UnsafePointer<UnsafePointer<UInt8>>, _ n: Int, into out: UnsafeMutablePointer<UInt8>, count: Int) {
        out.update(from: rows[0], count: count)
        for k in 1..<n {
            let row = rows[k]
            if dilate { for i in 0..<count { out[i] = max(out[i], row[i]) } } else { for i in 0..<count { out[i] = min(out[i], row[i]) } }
        }
    }
}

extension Morphology: PartlyOpaqueKernel {
    /// A dilation of an opaque input is opaque over the input's extent; an erosion's edges
    /// take in the transparent outside.
    func isOpaque(within rect: Rect, inputs: [ImageNode]) -> Bool {
        operation == .dilate && inputs[0].isOpaque && inputs[0].extent.contains(rect)
    }
}
