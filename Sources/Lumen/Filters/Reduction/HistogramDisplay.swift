import LumenPlatform

extension FilterDescriptor {
    /// Draws the bars of a histogram (the count × 1 output of areaHistogram): column x of
    /// the output has, per channel c of red, green, blue, a bar of
    /// h_c = height · clamp((v_c − lowLimit)/(highLimit − lowLimit), 0, 1) pixels from the
    /// bottom, where v is the input pixel at column x of its bottom row. A pixel is 1 in
    /// each channel whose bar covers its centre (overlapping bars mix to white), 0
    /// elsewhere; alpha 1. Extent: the input's columns × height, from y = 0.
    static let histogramDisplayFilter = FilterDescriptor(
        name: "histogramDisplayFilter", coreImageName: "CIHistogramDisplayFilter", category: .reduction,
        summary: "Draws a histogram image (areaHistogram's output) as red, green and blue bars.",
        details: "Pixel (x, y) channel c = y + ½ < height·clamp((v_c(x) − lowLimit)/(highLimit − lowLimit), 0, 1) ? 1 : 0; alpha 1.",
        parameters: [
            .inputImage,
            .number("height", .distance, default: 100, min: 1, max: 1e5, "Height of the image, pixels."),
            .number("highLimit", default: 1, min: -1e6, max: 1e6, "Bin value drawn full height."),
            .number("lowLimit", default: 0, min: -1e6, max: 1e6, "Bin value drawn as no bar."),
        ]
    ) { args in
        let image = try args.image("image")
        let box = PixelRect(covering: image.extent)
        guard !image.extent.isInfinite, box.width <= 1 << 16 else {
            throw LumenError.invalidValue(filter: "histogramDisplayFilter", key: "image", reason: "needs a histogram image (finite, at most 65536 bins wide)")
        }
        guard !box.isEmpty else { return .empty }
        let low = args.number("lowLimit"), high = args.number("highLimit")
        guard high > low else { throw LumenError.invalidValue(filter: "histogramDisplayFilter", key: "highLimit", reason: "must be above lowLimit") }
        return HistogramDisplay(columns: box.x..<box.maxX, row: box.y, height: Int(args.number("height").rounded(.up)),
                                low: low, high: high).apply(to: [image])
    }
}

struct HistogramDisplay: ImageKernel {
    let columns: Range<Int>
    let row: Int
    let height: Int
    let low: Double, high: Double
    var name: String { "histogramDisplayFilter" }

    func extent(inputs: [Rect]) -> Rect {
        Rect(x: Double(columns.lowerBound), y: 0, width: Double(columns.count), height: Double(height))
    }

    func isOpaque(inputs: [Image]) -> Bool { true }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        PixelRect(x: rect.x, y: row, width: rect.width, height: 1)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, source = inputs[0]
        let bars = (r.x..<r.maxX).map { x -> SIMD3<Double> in
            let v = SIMD4<Double>(source.pixelOrClear(x, row))
            func bar(_ value: Double) -> Double { Double(height) * min(1, max(0, (value - low) / (high - low))) }
            return SIMD3(bar(v.x), bar(v.y), bar(v.z))
        }
        for y in r.y..<r.maxY {
            let out = destination.row(y), centre = Double(y) + 0.5
            for (i, b) in bars.enumerated() {
                out[i] = SIMD4(centre < b.x ? 1 : 0, centre < b.y ? 1 : 0, centre < b.z ? 1 : 0, 1)
            }
        }
    }
}
