import Foundation

extension FilterDescriptor {
    /// out = background + amount·(image − background), premultiplied: amount 1 is the
    /// image, 0 the background.
    static let mix = FilterDescriptor(
        name: "mix", coreImageName: "CIMix", category: .compositeOperation,
        summary: "Blends the image with a background by an amount.",
        details: "out = mix(background, image, amount) on premultiplied linear values; extent = union.",
        parameters: [.inputImage, .backgroundImage, .number("amount", default: 1, min: -10, max: 10, "1 the image, 0 the background.")]
    ) { args in
        TwoImageOperation(kind: .mix(Float(args.number("amount")))).apply(to: [try args.image("image"), try args.image("backgroundImage")])
    }

    /// The Rec. 709 luma t (clamped 0…1) picks a colour on a fixed ramp black → blue →
    /// purple → red → orange → yellow → white (stops every 1/6, linear light); alpha kept.
    static let thermal = FilterDescriptor(
        name: "thermal", coreImageName: "CIThermal", category: .colorEffect,
        summary: "False colors like a thermal camera.",
        details: "luma → ramp black, blue, purple, red, orange, yellow, white (stops every 1/6); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Ramp.thermal) }

    /// An X-ray look: t = 1 − luma (clamped) picks a colour on a ramp from near-black blue
    /// to a pale cyan white; alpha kept.
    static let xRay = FilterDescriptor(
        name: "xRay", coreImageName: "CIXRay", category: .colorEffect,
        summary: "Inverted gray with a cold blue tint, like an X-ray.",
        details: "t = 1 − luma → ramp (0.02, 0.03, 0.08) … (0.55, 0.75, 0.9) … (0.95, 1, 1); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Ramp.xRay) }

    /// Per-channel gain so that `color` (linear light) becomes white: rgb' = rgb / color.
    static let whitePointAdjust = FilterDescriptor(
        name: "whitePointAdjust", coreImageName: "CIWhitePointAdjust", category: .colorAdjustment,
        summary: "Makes a given color white by scaling each channel.",
        details: "rgb' = rgb / color (linear, per channel; a von Kries adaptation in sRGB primaries); alpha kept.",
        parameters: [.inputImage, .color("color", default: .white, "The color that becomes white.")]
    ) { args in
        let c = args.color("color").linearStraight
        guard c.x > 0, c.y > 0, c.z > 0 else {
            throw LumenError.invalidValue(filter: "whitePointAdjust", key: "color", reason: "every component must be above 0")
        }
        let image = try args.image("image")
        if c.x == 1 && c.y == 1 && c.z == 1 { return image }
        return image.applyingColor(ColorMatrix(r: SIMD4(1 / c.x, 0, 0, 0), g: SIMD4(0, 1 / c.y, 0, 0), b: SIMD4(0, 0, 1 / c.z, 0),
                                               a: SIMD4(0, 0, 0, 1), bias: .zero))
    }

    /// Adds noise before quantisation: each channel's sRGB-encoded value moves by
    /// intensity·(u − 0.5), u a fixed hash of the pixel and channel in 0…1 (the same at
    /// any tile size); alpha kept.
    static let dither = FilterDescriptor(
        name: "dither", coreImageName: "CIDither", category: .colorEffect,
        summary: "Adds a little noise to break up banding.",
        details: "e' = e + intensity·(hash(x, y, channel) − 0.5) on sRGB-encoded values; alpha kept.",
        parameters: [.inputImage, .number("intensity", default: 0.1, min: 0, max: 5, identity: 0, "Amplitude of the noise.")]
    ) { args in
        let image = try args.image("image"), k = Float(args.number("intensity"))
        return k == 0 ? image : Dither(intensity: k).apply(to: [image])
    }

    /// disparity = 1/depth per colour channel (0 stays 0); alpha kept.
    static let depthToDisparity = FilterDescriptor(
        name: "depthToDisparity", coreImageName: "CIDepthToDisparity", category: .colorAdjustment,
        summary: "Converts depth values to disparity (1/depth).",
        details: "c' = 1/c for r, g, b (unpremultiplied; 0 stays 0); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Reciprocal(name: "depthToDisparity")) }

    /// depth = 1/disparity per colour channel (0 stays 0); alpha kept.
    static let disparityToDepth = FilterDescriptor(
        name: "disparityToDepth", coreImageName: "CIDisparityToDepth", category: .colorAdjustment,
        summary: "Converts disparity values to depth (1/disparity).",
        details: "c' = 1/c for r, g, b (unpremultiplied; 0 stays 0); alpha kept.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(Reciprocal(name: "disparityToDepth")) }

    /// The luma t (clamped 0…1) looks up the gradient image along its horizontal middle
    /// line: colour = gradient at (minX + t·width, midY), bilinear; alpha = α·gradient's α.
    static let colorMap = FilterDescriptor(
        name: "colorMap", coreImageName: "CIColorMap", category: .colorEffect,
        summary: "Maps luminance to the colors of a gradient image.",
        details: "t = clamp(luma); colour = gradientImage at (minX + t·(width − 1) + 0.5, midY); α' = α·gradient α.",
        parameters: [.inputImage, ParameterDescriptor("gradientImage", .image, "A horizontal gradient; its middle row is the map.")]
    ) { args in
        let gradient = try args.image("gradientImage")
        guard !gradient.extent.isInfinite, gradient.extent.width >= 1, gradient.extent.width <= 65536 else {
            throw LumenError.invalidValue(filter: "colorMap", key: "gradientImage", reason: "needs a finite extent 1…65536 pixels wide")
        }
        return TwoImageOperation(kind: .colorMap(PixelRect(covering: gradient.extent))).apply(to: [try args.image("image"), gradient])
    }

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

/// A piecewise-linear colour ramp over luma (linear light stops).
struct Ramp: ColorOperation {
    let label: String
    let stops: [SIMD3<Float>]
    let invert: Bool
    var name: String { label }

    static let thermal = Ramp(label: "thermal", stops: [SIMD3(0, 0, 0), SIMD3(0.02, 0.02, 0.5), SIMD3(0.35, 0.02, 0.45), SIMD3(0.9, 0.05, 0.05),
                                                        SIMD3(1, 0.4, 0), SIMD3(1, 0.9, 0.05), SIMD3(1, 1, 1)], invert: false)
    static let xRay = Ramp(label: "xRay", stops: [SIMD3(0.02, 0.03, 0.08), SIMD3(0.55, 0.75, 0.9), SIMD3(0.95, 1, 1)], invert: true)

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let last = Float(stops.count - 1)
        for i in 0..<count {
            let p = row[i]
            var t = min(1, max(0, (p * lumaWeights).sum()))
            if invert { t = 1 - t }
            let u = t * last, k = min(Int(u), stops.count - 2), f = u - Float(k)
            let c = stops[k] + (stops[k + 1] - stops[k]) * f
            row[i] = SIMD4(c.x, c.y, c.z, p.w)
        }
    }
}

struct Reciprocal: ColorOperation {
    let name: String
    var isChannelSeparable: Bool { true }
    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            func inv(_ v: Float) -> Float { v == 0 ? 0 : 1 / v }
            row[i] = SIMD4(inv(p.x), inv(p.y), inv(p.z), p.w)
        }
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

/// Position-hashed noise added to encoded values (premultiplied in and out).
struct Dither: ImageKernel {
    let intensity: Float
    var name: String { "dither" }
    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    /// A fixed value in 0…1 for pixel (x, y), channel c.
    static func noise(_ x: Int, _ y: Int, _ c: Int) -> Float {
        var z = UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(c) &* 0x1656_67B1_9E37_79F9
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Float(z >> 40) / Float(1 << 24)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x0 = destination.rect.x
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: x0)
            for i in 0..<count {
                let p = source[i]
                guard p.w > 0 else { row[i] = p; continue }
                var out = p
                for c in 0..<3 {
                    let e = Float(TransferFunction.srgb(fromLinear: Double(max(0, p[c] / p.w))))
                    let moved = min(1, max(0, e + intensity * (Self.noise(x0 + i, y, c) - 0.5)))
                    out[c] = Float(TransferFunction.linear(fromSRGB: Double(moved))) * p.w
                }
                row[i] = out
            }
        }
    }
}

/// Per-pixel operations on two images.
struct TwoImageOperation: ImageKernel {
    enum Kind: Hashable, Sendable {
        case mix(Float)
        case colorMap(PixelRect)
    }
    let kind: Kind

    var name: String {
        switch kind {
        case .mix: return "mix"
        case .colorMap: return "colorMap"
        }
    }

    func extent(inputs: [Rect]) -> Rect {
        if case .mix = kind { return inputs[0].union(inputs[1]) }
        return inputs[0]
    }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        if case let .colorMap(gradient) = kind, index == 1 { return gradient }
        return rect
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x = destination.rect.x
        switch kind {
        case let .mix(amount):
            destination.forEachRow { y, row, count in
                let a = inputs[0].row(y, from: x), b = inputs[1].row(y, from: x)
                for i in 0..<count { row[i] = b[i] + (a[i] - b[i]) * amount }
            }
        case let .colorMap(gradient):
            let midY = Double(gradient.y) + Double(gradient.height) / 2
            destination.forEachRow { y, row, count in
                let a = inputs[0].row(y, from: x)
                for i in 0..<count {
                    let p = a[i]
                    guard p.w > 0 else { row[i] = .zero; continue }
                    let t = Double(min(1, max(0, (p * lumaWeights).sum() / p.w)))
                    let g = inputs[1].sample(at: SIMD2(Double(gradient.x) + 0.5 + t * Double(gradient.width - 1), midY))
                    row[i] = g * p.w
                }
            }
        }
    }
}
