extension FilterDescriptor {
    /// c' = (dot(c, R), dot(c, G), dot(c, B), dot(c, A)) + bias on unpremultiplied
    /// linear values; not clamped.
    static let colorMatrix = FilterDescriptor(
        name: "colorMatrix", coreImageName: "CIColorMatrix", category: .colorAdjustment,
        summary: "Multiplies colors by a 4×4 matrix and adds a bias.",
        details: "r' = dot(c, R)… a' = dot(c, A), then + bias; c unpremultiplied linear RGBA; no clamping.",
        parameters: [
            .inputImage,
            ParameterDescriptor("rVector", .vector, default: .vector([1, 0, 0, 0]), identity: .vector([1, 0, 0, 0]), "Weights of r, g, b, a in the new red."),
            ParameterDescriptor("gVector", .vector, default: .vector([0, 1, 0, 0]), identity: .vector([0, 1, 0, 0]), "Weights in the new green."),
            ParameterDescriptor("bVector", .vector, default: .vector([0, 0, 1, 0]), identity: .vector([0, 0, 1, 0]), "Weights in the new blue."),
            ParameterDescriptor("aVector", .vector, default: .vector([0, 0, 0, 1]), identity: .vector([0, 0, 0, 1]), "Weights in the new alpha."),
            ParameterDescriptor("biasVector", .vector, default: .vector([0, 0, 0, 0]), identity: .vector([0, 0, 0, 0]), "Added to the result."),
        ]
    ) { args in
        let rows = try ["rVector", "gVector", "bVector", "aVector", "biasVector"].map { key -> SIMD4<Float> in
            let v = args.vector(key)
            guard v.count == 4 else { throw LumenError.invalidValue(filter: "colorMatrix", key: key, reason: "expected 4 numbers, got \(v.count)") }
            return SIMD4(v.map(Float.init))
        }
        let matrix = ColorMatrix(r: rows[0], g: rows[1], b: rows[2], a: rows[3], bias: rows[4])
        let image = try args.image("image")
        return matrix.isIdentity ? image : image.applyingColor(matrix)
    }
}

/// A 4×4 color matrix plus bias (rows r, g, b, a).
struct ColorMatrix: ColorOperation {
    var name: String { "colorMatrix" }
    var r, g, b, a, bias: SIMD4<Float>

    static let identity = ColorMatrix(r: [1, 0, 0, 0], g: [0, 1, 0, 0], b: [0, 0, 1, 0], a: [0, 0, 0, 1], bias: .zero)

    var isIdentity: Bool { self == .identity }
    var preservesAlpha: Bool { a == SIMD4(0, 0, 0, 1) && bias.w == 0 }
    var isChannelSeparable: Bool {
        preservesAlpha && r.y == 0 && r.z == 0 && r.w == 0 && g.x == 0 && g.z == 0 && g.w == 0 && b.x == 0 && b.y == 0 && b.w == 0
    }

    /// `self` followed by `next`, as one matrix.
    func followed(by next: ColorMatrix) -> ColorMatrix {
        func row(_ n: SIMD4<Float>) -> SIMD4<Float> { r * n.x + g * n.y + b * n.z + a * n.w }
        let nb = next.bias + SIMD4((next.r * bias).sum(), (next.g * bias).sum(), (next.b * bias).sum(), (next.a * bias).sum())
        return ColorMatrix(r: row(next.r), g: row(next.g), b: row(next.b), a: row(next.a), bias: nb)
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let c = row[i]
            row[i] = SIMD4((c * r).sum(), (c * g).sum(), (c * b).sum(), (c * a).sum()) + bias
        }
    }
}
