import LumenPlatform

extension FilterDescriptor {
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
