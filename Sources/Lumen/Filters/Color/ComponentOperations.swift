import LumenPlatform

extension FilterDescriptor {
    /// rgb' = min(r, g, b) on unpremultiplied values; alpha unchanged.
    static let minimumComponent = FilterDescriptor(
        name: "minimumComponent", coreImageName: "CIMinimumComponent", category: .colorEffect,
        summary: "A gray image of each pixel's smallest color component.",
        details: "rgb' = min(r, g, b) (unpremultiplied, linear); alpha unchanged.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(ComponentOperation(kind: .minimum)) }

    /// rgb' = max(r, g, b) on unpremultiplied values; alpha unchanged.
    static let maximumComponent = FilterDescriptor(
        name: "maximumComponent", coreImageName: "CIMaximumComponent", category: .colorEffect,
        summary: "A gray image of each pixel's largest color component.",
        details: "rgb' = max(r, g, b) (unpremultiplied, linear); alpha unchanged.",
        parameters: [.inputImage]
    ) { args in try args.image("image").applyingColor(ComponentOperation(kind: .maximum)) }

    /// Each unpremultiplied channel (alpha too) clamped to minComponents…maxComponents.
    static let colorClamp = FilterDescriptor(
        name: "colorClamp", coreImageName: "CIColorClamp", category: .colorAdjustment,
        summary: "Clamps each color component to a range.",
        details: "c' = clamp(c, minComponents, maxComponents) per channel of unpremultiplied linear RGBA.",
        parameters: [
            .inputImage,
            ParameterDescriptor("minComponents", .vector, default: .vector([0, 0, 0, 0]), "Lowest r, g, b, a."),
            ParameterDescriptor("maxComponents", .vector, default: .vector([1, 1, 1, 1]), "Highest r, g, b, a."),
        ]
    ) { args in
        let low = try args.vector4("minComponents"), high = try args.vector4("maxComponents")
        return try args.image("image").applyingColor(ComponentOperation(kind: .clamp(low, high)))
    }

    /// Per channel, e' = round(e·(levels − 1))/(levels − 1) on the sRGB-encoded value e of
    /// the unpremultiplied colour (equal steps to the eye), then decoded back; alpha unchanged.
    static let colorPosterize = FilterDescriptor(
        name: "colorPosterize", coreImageName: "CIColorPosterize", category: .colorEffect,
        summary: "Reduces each color component to a number of levels.",
        details: "e = sRGB-encoded component; e' = round(e·(levels − 1))/(levels − 1), clamped to 0…1; alpha unchanged.",
        parameters: [.inputImage, .number("levels", default: 6, min: 2, max: 256, "Levels per component.")]
    ) { args in try args.image("image").applyingColor(ComponentOperation(kind: .posterize(args.float("levels")))) }

    /// Per channel of the unpremultiplied linear colour: 1 above threshold, else 0.
    static let colorThreshold = FilterDescriptor(
        name: "colorThreshold", coreImageName: "CIColorThreshold", category: .colorAdjustment,
        summary: "Sets each color component to 1 above a threshold and 0 otherwise.",
        details: "c' = c > threshold ? 1 : 0 for r, g, b (unpremultiplied, linear); alpha unchanged.",
        parameters: [.inputImage, .number("threshold", default: 0.5, min: -1e6, max: 1e6, "The level to compare with.")]
    ) { args in try args.image("image").applyingColor(ComponentOperation(kind: .threshold(args.float("threshold")))) }

    /// c' = a0 + a1·c + a2·c² + a3·c³ per channel (alpha too), unpremultiplied linear.
    static let colorPolynomial = FilterDescriptor(
        name: "colorPolynomial", coreImageName: "CIColorPolynomial", category: .colorAdjustment,
        summary: "Maps each color component through a cubic polynomial.",
        details: "c' = a0 + a1·c + a2·c² + a3·c³ per channel of unpremultiplied linear RGBA.",
        parameters: [
            .inputImage,
            ParameterDescriptor("redCoefficients", .vector, default: .vector([0, 1, 0, 0]), identity: .vector([0, 1, 0, 0]), "a0…a3 for red."),
            ParameterDescriptor("greenCoefficients", .vector, default: .vector([0, 1, 0, 0]), identity: .vector([0, 1, 0, 0]), "a0…a3 for green."),
            ParameterDescriptor("blueCoefficients", .vector, default: .vector([0, 1, 0, 0]), identity: .vector([0, 1, 0, 0]), "a0…a3 for blue."),
            ParameterDescriptor("alphaCoefficients", .vector, default: .vector([0, 1, 0, 0]), identity: .vector([0, 1, 0, 0]), "a0…a3 for alpha."),
        ]
    ) { args in
        let c = try ["redCoefficients", "greenCoefficients", "blueCoefficients", "alphaCoefficients"].map { try args.vector4($0) }
        let image = try args.image("image")
        let identity = SIMD4<Float>(0, 1, 0, 0)
        if c.allSatisfy({ $0 == identity }) { return image }
        return image.applyingColor(ComponentOperation(kind: .polynomial(c[0], c[1], c[2], c[3])))
    }
}

extension FilterArguments {
    /// A vector of exactly four numbers.
    func vector4(_ key: String) throws -> SIMD4<Float> {
        let v = vector(key)
        guard v.count == 4 else { throw LumenError.invalidValue(filter: filter, key: key, reason: "expected 4 numbers, got \(v.count)") }
        return SIMD4(v.map(Float.init))
    }
}

/// Per-component operations on unpremultiplied linear RGBA.
struct ComponentOperation: ColorOperation {
    enum Kind: Hashable, Sendable {
        case minimum, maximum
        case clamp(SIMD4<Float>, SIMD4<Float>)
        case posterize(Float)
        case threshold(Float)
        case polynomial(SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    }

    let kind: Kind

    var name: String {
        switch kind {
        case .minimum: return "minimumComponent"
        case .maximum: return "maximumComponent"
        case .clamp: return "colorClamp"
        case .posterize: return "colorPosterize"
        case .threshold: return "colorThreshold"
        case .polynomial: return "colorPolynomial"
        }
    }

    var preservesAlpha: Bool {
        switch kind {
        case let .clamp(low, high): return low.w <= 0 && high.w >= 1
        case let .polynomial(_, _, _, a): return a == SIMD4(0, 1, 0, 0)
        default: return true
        }
    }

    var isChannelSeparable: Bool {
        switch kind {
        case .minimum, .maximum: return false
        default: return preservesAlpha
        }
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        switch kind {
        case .minimum:
            for i in 0..<count { let p = row[i], m = min(p.x, p.y, p.z); row[i] = SIMD4(m, m, m, p.w) }
        case .maximum:
            for i in 0..<count { let p = row[i], m = max(p.x, p.y, p.z); row[i] = SIMD4(m, m, m, p.w) }
        case let .clamp(low, high):
            for i in 0..<count { row[i] = lanewiseMin(lanewiseMax(row[i], low), high) }
        case let .posterize(levels):
            let n = Double(levels - 1)
            func step(_ v: Float) -> Float {
                let e = min(1, max(0, TransferFunction.srgb(fromLinear: Double(max(0, v)))))
                return Float(TransferFunction.linear(fromSRGB: (e * n).rounded() / n))
            }
            for i in 0..<count { let p = row[i]; row[i] = SIMD4(step(p.x), step(p.y), step(p.z), p.w) }
        case let .threshold(t):
            for i in 0..<count {
                let p = row[i]
                row[i] = SIMD4(p.x > t ? 1 : 0, p.y > t ? 1 : 0, p.z > t ? 1 : 0, p.w)
            }
        case let .polynomial(r, g, b, a):
            for i in 0..<count {
                let p = row[i]
                func cubic(_ k: SIMD4<Float>, _ v: Float) -> Float { k.x + v * (k.y + v * (k.z + v * k.w)) }
                row[i] = SIMD4(cubic(r, p.x), cubic(g, p.y), cubic(b, p.z), cubic(a, p.w))
            }
        }
    }
}
