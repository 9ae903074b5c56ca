import LumenPlatform

extension FilterDescriptor {
    /// Per channel, the value v maps through a curve of n samples spread evenly over
    /// curvesDomain (linear interpolation, ends held): curvesData = n RGB Float32 triples.
    /// Applied to the colour in colorSpace (sRGB-encoded by default), alpha kept.
    static let colorCurves = FilterDescriptor(
        name: "colorCurves", coreImageName: "CIColorCurves", category: .colorEffect,
        summary: "Maps each channel through a sampled curve.",
        details: "v' = curve(v) per channel, curve = curvesData (RGB Float32 samples over curvesDomain), linear interpolation; in colorSpace.",
        parameters: [
            .inputImage,
            ParameterDescriptor("curvesData", .data, default: .data([Float](arrayLiteral: 0, 0, 0, 0.5, 0.5, 0.5, 1, 1, 1).withUnsafeBytes { Data($0) }),
                                "RGB Float32 samples of the curves (n × 12 bytes)."),
            ParameterDescriptor("curvesDomain", .vector, default: .vector([0, 1]), "The input values of the first and last sample."),
            ParameterDescriptor("colorSpace", .string, default: .string("sRGB"), "sRGB (encoded values) or linearSRGB."),
        ]
    ) { args in
        let data = args.data("curvesData")
        guard data.count >= 24, data.count % 12 == 0, data.count <= 12 << 16 else {
            throw LumenError.invalidValue(filter: "colorCurves", key: "curvesData", reason: "\(data.count) bytes: needs 2 to 65536 RGB Float32 samples")
        }
        let samples: [SIMD3<Float>] = data.withUnsafeBytes { raw in
            (0..<(data.count / 12)).map { i in SIMD3((0..<3).map { raw.loadUnaligned(fromByteOffset: i * 12 + $0 * 4, as: Float.self) }) }
        }
        guard samples.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
            throw LumenError.invalidValue(filter: "colorCurves", key: "curvesData", reason: "holds a value that is not finite")
        }
        let domain = args.vector("curvesDomain")
        guard domain.count == 2, domain[1] > domain[0] else {
            throw LumenError.invalidValue(filter: "colorCurves", key: "curvesDomain", reason: "expected [low, high] with high > low")
        }
        guard case let .string(space)? = args.values["colorSpace"] else { preconditionFailure() }
        return try args.image("image").applyingColor(Curves(samples: samples, low: Float(domain[0]), high: Float(domain[1]),
                                                            space: try CubeColorSpace(name: space, filter: "colorCurves")))
    }
}

struct Curves: ColorOperation {
    let samples: [SIMD3<Float>]
    let low: Float, high: Float
    let space: CubeColorSpace
    var name: String { "colorCurves" }
    var isChannelSeparable: Bool { true }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let last = Float(samples.count - 1)
        func curve(_ v: Float, _ channel: Int) -> Float {
            let u = min(last, max(0, (v - low) / (high - low) * last))
            let k = min(Int(u), samples.count - 2), f = u - Float(k)
            return samples[k][channel] + (samples[k + 1][channel] - samples[k][channel]) * f
        }
        for i in 0..<count {
            var p = row[i]
            if space == .sRGB {
                let encode = TransferFunction.srgbMirrored(fromLinear:), decode = TransferFunction.linearMirrored(fromSRGB:)
                p = SIMD4(decode(curve(encode(p.x), 0)), decode(curve(encode(p.y), 1)), decode(curve(encode(p.z), 2)), p.w)
            } else {
                p = SIMD4(curve(p.x, 0), curve(p.y, 1), curve(p.z, 2), p.w)
            }
            row[i] = p
        }
    }
}
