extension FilterDescriptor {
    static let convolution3X3 = convolution("convolution3X3", "CIConvolution3X3", width: 3, height: 3, rgbOnly: false)
    static let convolution5X5 = convolution("convolution5X5", "CIConvolution5X5", width: 5, height: 5, rgbOnly: false)
    static let convolution7X7 = convolution("convolution7X7", "CIConvolution7X7", width: 7, height: 7, rgbOnly: false)
    static let convolution9Horizontal = convolution("convolution9Horizontal", "CIConvolution9Horizontal", width: 9, height: 1, rgbOnly: false)
    static let convolution9Vertical = convolution("convolution9Vertical", "CIConvolution9Vertical", width: 1, height: 9, rgbOnly: false)
    static let convolutionRGB3X3 = convolution("convolutionRGB3X3", "CIConvolutionRGB3X3", width: 3, height: 3, rgbOnly: true)
    static let convolutionRGB5X5 = convolution("convolutionRGB5X5", "CIConvolutionRGB5X5", width: 5, height: 5, rgbOnly: true)
    static let convolutionRGB7X7 = convolution("convolutionRGB7X7", "CIConvolutionRGB7X7", width: 7, height: 7, rgbOnly: true)
    static let convolutionRGB9Horizontal = convolution("convolutionRGB9Horizontal", "CIConvolutionRGB9Horizontal", width: 9, height: 1, rgbOnly: true)
    static let convolutionRGB9Vertical = convolution("convolutionRGB9Vertical", "CIConvolutionRGB9Vertical", width: 1, height: 9, rgbOnly: true)

    /// out = Σ weights[j·w + i] · p(x − w/2 + i, y + h/2 − j) + bias: the weights read
    /// row by row from the top, as a matrix is written (y points up in Lumen, so row j is
    /// h/2 − j above the pixel). On premultiplied linear values; outside the input is
    /// transparent; the extent grows by the kernel's reach. The RGB variants convolve
    /// red, green and blue only and keep each pixel's own alpha; the others convolve alpha
    /// too, and add the bias to all four channels.
    static func convolution(_ name: String, _ coreImageName: String, width: Int, height: Int, rgbOnly: Bool) -> FilterDescriptor {
        let count = width * height
        let centre = (0..<count).map { Double($0 == count / 2 ? 1 : 0) }
        let shape = height == 1 ? "\(width)-tap horizontal" : width == 1 ? "\(height)-tap vertical" : "\(width)×\(height)"
        return FilterDescriptor(
            name: name, coreImageName: coreImageName, category: .stylize,
            summary: "Convolves the image with a \(shape) kernel\(rgbOnly ? ", keeping alpha" : "").",
            details: "out = Σ weights·neighbours + bias; weights row by row from the top; premultiplied linear\(rgbOnly ? "; alpha kept" : ", alpha included").",
            parameters: [
                .inputImage,
                ParameterDescriptor("weights", .vector, default: .vector(centre), identity: .vector(centre), "\(count) weights, row by row from the top."),
                .number("bias", default: 0, min: -1e6, max: 1e6, identity: 0, "Added to every result."),
            ]
        ) { args in
            let weights = args.vector("weights")
            guard weights.count == count, weights.allSatisfy(\.isFinite) else {
                throw LumenError.invalidValue(filter: name, key: "weights", reason: "expected \(count) finite numbers, got \(weights.count)")
            }
            let image = try args.image("image"), bias = args.number("bias")
            if weights == centre && bias == 0 { return image }
            return Convolution(width: width, height: height, weights: weights.map(Float.init), bias: Float(bias), rgbOnly: rgbOnly)
                .apply(to: [image])
        }
    }
}

/// A small dense convolution (up to 9 × 9).
struct Convolution: ImageKernel {
    let width: Int
    let height: Int
    /// Row-major from the top row.
    let weights: [Float]
    let bias: Float
    let rgbOnly: Bool

    var name: String { rgbOnly ? "convolutionRGB" : "convolution" }

    func extent(inputs: [Rect]) -> Rect {
        guard !inputs[0].isInfinite else { return inputs[0] }
        return inputs[0].insetBy(dx: -Double(width / 2), dy: -Double(height / 2))
    }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { rect.outset(dx: width / 2, dy: height / 2) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, input = inputs[0], rx = width / 2, ry = height / 2
        let biasVector = rgbOnly ? SIMD4<Float>(bias, bias, bias, 0) : SIMD4(repeating: bias)
        weights.withUnsafeBufferPointer { w in
            for y in r.y..<r.maxY {
                let out = destination.row(y)
                out.update(repeating: biasVector, count: r.width)
                for j in 0..<height {
                    let source = input.row(y + ry - j, from: r.x - rx)
                    for i in 0..<width {
                        let k = w[j * width + i]
                        if k == 0 { continue }
                        let s = source + i
                        for x in 0..<r.width { out[x] += s[x] * k }
                    }
                }
                if rgbOnly {
                    let own = input.row(y, from: r.x)
                    for x in 0..<r.width { out[x].w = own[x].w }
                }
            }
        }
    }
}
