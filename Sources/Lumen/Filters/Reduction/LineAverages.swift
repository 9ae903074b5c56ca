extension FilterDescriptor {
    /// Output (0, 0, w, 1): pixel i is the mean of column extent.x + i over the extent's rows.
    static let columnAverage = FilterDescriptor(
        name: "columnAverage", coreImageName: "CIColumnAverage", category: .reduction,
        summary: "The average of each column of a rectangle, as a w × 1 image.",
        details: "Output (0, 0, w, 1): pixel i = Σ over the extent's rows of column x + i / h (premultiplied, linear).",
        parameters: [.inputImage, .reductionExtent]
    ) { args in try lineAverage(args, columns: true) }

    /// Output (0, 0, 1, h): pixel j is the mean of row extent.y + j over the extent's columns.
    static let rowAverage = FilterDescriptor(
        name: "rowAverage", coreImageName: "CIRowAverage", category: .reduction,
        summary: "The average of each row of a rectangle, as a 1 × h image.",
        details: "Output (0, 0, 1, h): pixel j = Σ over the extent's columns of row y + j / w (premultiplied, linear).",
        parameters: [.inputImage, .reductionExtent]
    ) { args in try lineAverage(args, columns: false) }

    static func lineAverage(_ args: FilterArguments, columns: Bool) throws -> Image {
        let area = PixelRect(covering: args.rect("extent"))
        guard !area.isEmpty else { return .empty }
        let length = columns ? area.width : area.height
        guard length <= LineAverage.maximumLength else {
            throw LumenError.invalidValue(filter: columns ? "columnAverage" : "rowAverage", key: "extent",
                                          reason: "\(length) \(columns ? "columns" : "rows") is more than \(LineAverage.maximumLength)")
        }
        return LineAverage(columns: columns, area: area).apply(to: [try args.image("image")])
    }
}

/// Per-column (or per-row) means of an area.
struct LineAverage: ReductionKernel {
    static let maximumLength = 1 << 20
    let columns: Bool
    let area: PixelRect

    var name: String { columns ? "columnAverage" : "rowAverage" }

    func extent(inputs: [Rect]) -> Rect {
        columns ? Rect(x: 0, y: 0, width: Double(area.width), height: 1) : Rect(x: 0, y: 0, width: 1, height: Double(area.height))
    }

    /// Sums for the block's columns (or rows), and where the first one lies in the area.
    struct Summary: Sendable { var offset: Int; var sums: [SIMD4<Double>] }

    func summarize(_ pixels: Sampler, _ rect: PixelRect) -> Summary {
        var sums = [SIMD4<Double>](repeating: .zero, count: columns ? rect.width : rect.height)
        for y in rect.y..<rect.maxY {
            let row = pixels.row(y, from: rect.x)
            if columns {
                for i in 0..<rect.width { sums[i] += SIMD4<Double>(row[i]) }
            } else {
                var sum = SIMD4<Double>.zero
                for i in 0..<rect.width { sum += SIMD4<Double>(row[i]) }
                sums[y - rect.y] = sum
            }
        }
        return Summary(offset: columns ? rect.x - area.x : rect.y - area.y, sums: sums)
    }

    func finish(_ summaries: [Summary], covered: Int) -> [SIMD4<Float>] {
        var totals = [SIMD4<Double>](repeating: .zero, count: columns ? area.width : area.height)
        for s in summaries { for (i, v) in s.sums.enumerated() { totals[s.offset + i] += v } }
        let n = Double(columns ? area.height : area.width)
        return totals.map { SIMD4<Float>($0 / n) }
    }
}
