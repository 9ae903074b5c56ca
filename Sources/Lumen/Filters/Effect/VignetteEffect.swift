import CKernels

extension FilterDescriptor {
    /// Inside `radius` pixels of `center` the image is unchanged. Beyond it,
    /// s = smoothstep((d − radius) / band) with band = max(1, 2·falloff·radius); for
    /// intensity k ≥ 0 the color is scaled by 1 − k·s (darkens monotonically outward,
    /// black at k = 1), for k < 0 it moves towards white by −k·s. Alpha is unchanged.
    static let vignetteEffect = FilterDescriptor(
        name: "vignetteEffect", coreImageName: "CIVignetteEffect", category: .colorEffect,
        summary: "Darkens (or lightens) the image outside a circle.",
        details: "s = smoothstep((d − radius)/max(1, 2·falloff·radius)); k ≥ 0: rgb·(1 − k·s); k < 0: rgb + (α − rgb)·(−k)·s.",
        parameters: [
            .point("center", default: [150, 150], "Centre of the unchanged circle, in pixels."),
            .number("radius", .distance, default: 150, min: 0, "Radius of the unchanged circle, in pixels."),
            .number("intensity", default: 1, min: -1, max: 1, identity: 0, "1 black edges, −1 white edges, 0 no change."),
            .number("falloff", default: 0.5, min: 0, max: 1, "Width of the transition band relative to the radius."),
            .inputImage,
        ]
    ) { args in
        let image = try args.image("image")
        let intensity = args.number("intensity")
        guard intensity != 0 else { return image }
        return VignetteKernel(center: args.point("center"), radius: args.number("radius"),
                              intensity: Float(intensity), falloff: args.number("falloff")).apply(to: [image])
    }
}

/// The position-dependent darkening of `vignetteEffect`.
struct VignetteKernel: ImageKernel {
    let center: Point
    let radius: Double
    let intensity: Float
    let falloff: Double
    private var band: Double { max(1, 2 * falloff * radius) }

    var name: String { "vignetteEffect" }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect
        for y in r.y..<r.maxY {
            let dy = Float(Double(y) + 0.5 - center.y)
            Self.row(input.row(y), into: output.row(y), count: r.width, x: r.x, centerX: center.x, dy2: dy * dy,
                     radius: Float(radius), band: Float(band), intensity: intensity)
        }
    }

    /// One row of `count` pixels starting at column `x`, `dy2` being the squared distance
    /// of the row's centre line from the centre. Branch-free, eight pixels at a time: inside
    /// the radius t clamps to 0, the factor to 1, and the pixel passes unchanged, as a
    /// per-pixel test would leave it. Distances are taken from the centre in Double, then
    /// squared and rooted in Float (eight lanes of sqrtps where Double's took a quarter of
    /// the frame time). Above the baseline, `CKernels_vignetteRow` does the same operations
    /// on AVX2 registers, with the same results bit for bit.
    static func row(_ source: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int,
                    centerX: Double, dy2 dySquared: Float, radius: Float, band: Float, intensity k: Float,
                    level: InstructionSet = .current) {
        if level > .baseline, count > 0 {
            return source.withMemoryRebound(to: Float.self, capacity: 4 * count) { s in
                out.withMemoryRebound(to: Float.self, capacity: 4 * count) { o in
                    CKernels_vignetteRow(level.cLevel, s, o, count, Double(x), centerX, dySquared, radius, band, k)
                }
            }
        }
        let lanes = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7), dy2 = SIMD8<Float>(repeating: dySquared)
        var i = 0
        while i < count {
            let dx = SIMD8<Float>(SIMD8<Double>(repeating: Double(x + i)) + lanes + 0.5 - centerX)
            let d = (dx * dx + dy2).squareRoot()
            var t = (d - radius) / band
            t.replace(with: 0, where: .!(t .> 0))  // inside the radius, and NaN: the pixel is left as it is
            t.replace(with: 1, where: t .> 1)
            let s = t * t * (3 - 2 * t)
            for j in 0..<min(8, count - i) {
                let p = source[i + j]
                if k >= 0 {
                    let factor = 1 - k * s[j]
                    out[i + j] = SIMD4(p.x * factor, p.y * factor, p.z * factor, p.w)
                } else {
                    let amount = -k * s[j]
                    out[i + j] = SIMD4(p.x + (p.w - p.x) * amount, p.y + (p.w - p.y) * amount, p.z + (p.w - p.z) * amount, p.w)
                }
            }
            i += 8
        }
    }
}

extension VignetteKernel: CodeRowKernel {
    func codeRowStream(tables: ChannelTables, width: Int, height: Int, level: InstructionSet) -> (any CodeRowStream)? {
        codeRows(tables: tables, level: level).map { CodeRowWriterStream($0, width: width, height: height) }
    }

    /// Above the baseline, `CKernels_vignetteRow8`: the expansion, this kernel's row and the
    /// encoder fused eight pixels (24 samples) at a time on AVX2, sixteen (48) on AVX-512,
    /// with the row's runs inside the radius (a factor of exactly 1) mapped code to code
    /// without arithmetic. On the baseline, the three Swift steps themselves, 256 pixels at a time.
    func codeRows(tables: ChannelTables, level: InstructionSet = .current) -> CodeRowWriter? {
        let radius = Float(radius), band = Float(band), k = intensity, cx = center.x, cy = center.y
        guard level > .baseline else {
            return { input, output, count, x, y in
                let dy = Float(Double(y) + 0.5 - cy)
                withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: 256) { buffer in
                    let pixels = buffer.baseAddress!
                    for start in stride(from: 0, to: count, by: 256) {
                        let n = min(256, count - start)
                        tables.expand(input + 3 * start, channels: 3, count: n, into: pixels, level: level)
                        Self.row(pixels, into: pixels, count: n, x: x + start, centerX: cx, dy2: dy * dy, radius: radius,
                                 band: band, intensity: k, level: level)
                        PixelConversion.encode8(pixels, count: n, channels: 3, into: output + 3 * start, level: level)
                    }
                }
            }
        }
        // Inside the radius a pixel's factor is exactly 1 (k ≥ 0) or its amount exactly 0,
        // which leaves every finite value as it is: its code is the one its table value
        // encodes to (itself, for the sRGB curve). Not so for an infinite k or table value.
        let codes = tables.mappedCodes, table = tables.red + tables.green + tables.blue
        let skipsInside: Int32 = k.isFinite && table.allSatisfy(\.isFinite) ? 1 : 0
        let srgb: Int32 = tables == .srgb ? 1 : 0
        let encode = EncodeTables.shared
        return { input, output, count, x, y in
            let dy = Float(Double(y) + 0.5 - cy)
            table.withUnsafeBufferPointer { table in
                (codes ?? []).withUnsafeBufferPointer { mapped in  // NULL: the codes are copied
                    CKernels_vignetteRow8(level.cLevel, input, output, count, Double(x), cx, dy * dy, radius, band, k, skipsInside, srgb,
                                          table.baseAddress, codes == nil ? nil : mapped.baseAddress, encode.firstCode, encode.binThreshold)
                }
            }
        }
    }
}
