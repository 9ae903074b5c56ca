import LumenPlatform

extension ParameterDescriptor {
    static let halftoneParameters: [ParameterDescriptor] = [
        .point("center", default: [150, 150], "A point of the screen's grid."),
        .number("angle", .angle, default: 0, min: -1e4, max: 1e4, "Rotation of the screen, radians."),
        .number("width", .distance, default: 6, min: 1, max: 1e4, "Distance between dots or lines, pixels."),
        .number("sharpness", default: 0.7, min: 0, max: 1, "1 hard edges, 0 soft."),
    ]
}

extension FilterDescriptor {
    /// Amplitude-modulated screens: at each pixel a periodic pattern value s in 0…1 (the
    /// screen's cell, rotated by `angle`, period `width`) is compared with the pixel's
    /// brightness b (sRGB-encoded Rec. 709 luma of the unpremultiplied colour): ink where
    /// b < s. The edge ramps over (1 − sharpness) of the pattern's range:
    /// out = clamp((b − s)/max(1e-3, 1 − sharpness) + 0.5, 0, 1) (b = 0 and 1 stay solid), grey, alpha kept.
    /// dotScreen: s = ½ + ¼(cos 2πu + cos 2πv) (round dots); lineScreen: s = ½ + ½cos 2πv;
    /// hatchedScreen: the lower of two line screens at right angles; circularScreen:
    /// s = ½ + ½cos 2πr (rings around the centre). u, v are the rotated coordinates / width.
    static let dotScreen = halftone("dotScreen", "CIDotScreen", .dots, "A newspaper-style halftone of round dots.")
    static let lineScreen = halftone("lineScreen", "CILineScreen", .lines, "A halftone of parallel lines.")
    static let hatchedScreen = halftone("hatchedScreen", "CIHatchedScreen", .hatched, "A halftone of crossed lines.")
    static let circularScreen = FilterDescriptor(
        name: "circularScreen", coreImageName: "CICircularScreen", category: .halftoneEffect,
        summary: "A halftone of concentric rings.",
        details: "s = ½ + ½cos(2π·r/width), r = distance from center; out = clamp((b − s)/(1 − sharpness) + ½), b = encoded luma.",
        parameters: [.point("center", default: [150, 150], "Centre of the rings."),
                     .number("width", .distance, default: 6, min: 1, max: 1e4, "Distance between rings, pixels."),
                     .number("sharpness", default: 0.7, min: 0, max: 1, "1 hard edges, 0 soft."), .inputImage]
    ) { args in
        let c = args.point("center")
        return Halftone(pattern: .rings, center: SIMD2(c.x, c.y), angle: 0, width: args.number("width"), sharpness: args.number("sharpness"))
            .apply(to: [try args.image("image")])
    }

    static func halftone(_ name: String, _ coreImageName: String, _ pattern: Halftone.Pattern, _ summary: String) -> FilterDescriptor {
        FilterDescriptor(
            name: name, coreImageName: coreImageName, category: .halftoneEffect, summary: summary,
            details: "Threshold of encoded luma b against a rotated periodic screen s: clamp((b − s)/(1 − sharpness) + ½); grey, alpha kept.",
            parameters: ParameterDescriptor.halftoneParameters + [.inputImage]
        ) { args in
            let c = args.point("center")
            return Halftone(pattern: pattern, center: SIMD2(c.x, c.y), angle: args.number("angle"), width: args.number("width"),
                            sharpness: args.number("sharpness")).apply(to: [try args.image("image")])
        }
    }

    /// Four screens like a press: the colour (sRGB-encoded) becomes CMY, black K = gcr·min(C, M, Y)
    /// is generated and ucr·K taken out of C, M and Y; each ink is screened with round dots
    /// at its own angle (C angle + 15°, M + 75°, Y + 0°, K + 45°) and the inks multiply
    /// on white paper. Alpha kept.
    static let cmykHalftone = FilterDescriptor(
        name: "cmykHalftone", coreImageName: "CICMYKHalftone", category: .halftoneEffect,
        summary: "A four-color (CMYK) print halftone.",
        details: "K = gcr·min(C, M, Y); C, M, Y −= ucr·K; each ink a dot screen at angle + 15°/75°/0°/45°; inks multiply on white.",
        parameters: ParameterDescriptor.halftoneParameters + [
            .number("grayComponentReplacement", default: 1, min: 0, max: 1, "How much black replaces the common grey (gcr)."),
            .number("underColorRemoval", default: 0.5, min: 0, max: 1, "How much of that black comes out of C, M and Y (ucr)."),
            .inputImage,
        ]
    ) { args in
        let c = args.point("center")
        return CMYKHalftone(center: SIMD2(c.x, c.y), angle: args.number("angle"), width: args.number("width"), sharpness: args.number("sharpness"),
                            gcr: args.number("grayComponentReplacement"), ucr: args.number("underColorRemoval")).apply(to: [try args.image("image")])
    }
}

/// The screen value s in 0…1 of pattern at point p.
@inline(__always)
func screenValue(_ pattern: Halftone.Pattern, _ p: SIMD2<Double>, center: SIMD2<Double>, angle: Double, width: Double) -> Double {
    let d = p - center, (sn, cs) = (sin(angle), cos(angle))
    let u = (d.x * cs + d.y * sn) / width, v = (-d.x * sn + d.y * cs) / width
    switch pattern {
    case .dots: return 0.5 + 0.25 * (cos(2 * .pi * u) + cos(2 * .pi * v))
    case .lines: return 0.5 + 0.5 * cos(2 * .pi * v)
    case .hatched: return min(0.5 + 0.5 * cos(2 * .pi * v), 0.5 + 0.5 * cos(2 * .pi * u))
    case .rings: return 0.5 + 0.5 * cos(2 * .pi * (d * d).sum().squareRoot() / width)
    }
}

struct Halftone: ImageKernel {
    enum Pattern: Hashable, Sendable { case dots, lines, hatched, rings }
    let pattern: Pattern
    let center: SIMD2<Double>
    let angle: Double
    let width: Double
    let sharpness: Double

    var name: String {
        switch pattern {
        case .dots: return "dotScreen"
        case .lines: return "lineScreen"
        case .hatched: return "hatchedScreen"
        case .rings: return "circularScreen"
        }
    }
    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x0 = destination.rect.x, ramp = max(1e-3, 1 - sharpness)
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: x0)
            for i in 0..<count {
                let p = source[i]
                guard p.w > 0 else { row[i] = .zero; continue }
                let b = TransferFunction.srgb(fromLinear: Double(min(1, max(0, (p * lumaWeights).sum() / p.w))))
                let s = screenValue(pattern, SIMD2(Double(x0 + i) + 0.5, Double(y) + 0.5), center: center, angle: angle, width: width)
                // Solid black and white stay solid (the screen touches 0 and 1 at single points).
                let e = b <= 1e-6 ? 0 : b >= 1 - 1e-6 ? 1 : min(1, max(0, (b - s) / ramp + 0.5))
                let g = Float(TransferFunction.linear(fromSRGB: e)) * p.w
                row[i] = SIMD4(g, g, g, p.w)
            }
        }
    }
}

struct CMYKHalftone: ImageKernel {
    let center: SIMD2<Double>
    let angle: Double
    let width: Double
    let sharpness: Double
    let gcr: Double
    let ucr: Double
    var name: String { "cmykHalftone" }
    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x0 = destination.rect.x, ramp = max(1e-3, 1 - sharpness)
        let degree = Double.pi / 180
        let angles = [angle + 15 * degree, angle + 75 * degree, angle, angle + 45 * degree]
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: x0)
            for i in 0..<count {
                let p = source[i]
                guard p.w > 0 else { row[i] = .zero; continue }
                // Encoded colour → CMY, black generated and removed (SIMD, no allocation per pixel).
                let e = SIMD3<Double>((0..<3).map { TransferFunction.srgb(fromLinear: Double(min(1, max(0, p[$0] / p.w)))) })
                var cmy = SIMD3<Double>(repeating: 1) - e
                let k = gcr * cmy.min()
                cmy = lanewiseMax(cmy - ucr * k, .zero)
                let inks = SIMD4(cmy.x, cmy.y, cmy.z, k)
                let point = SIMD2(Double(x0 + i) + 0.5, Double(y) + 0.5)
                // Coverage of each ink: 1 where the ink amount exceeds the screen.
                var cover = SIMD4<Double>.zero
                for j in 0..<4 {
                    if inks[j] <= 1e-6 { continue }  // (the sRGB curve gives 1 − 1e-16 for white)
                    if inks[j] >= 1 - 1e-6 { cover[j] = 1; continue }  // a full ink is solid
                    cover[j] = min(1, max(0, (inks[j] - (1 - screenValue(.dots, point, center: center, angle: angles[j], width: width))) / ramp + 0.5))
                }
                // Inks multiply: cyan absorbs red, magenta green, yellow blue, black all.
                let paper = (SIMD3<Double>(repeating: 1) - SIMD3(cover.x, cover.y, cover.z)) * (1 - cover.w)
                row[i] = SIMD4(Float(TransferFunction.linear(fromSRGB: paper[0])) * p.w, Float(TransferFunction.linear(fromSRGB: paper[1])) * p.w,
                               Float(TransferFunction.linear(fromSRGB: paper[2])) * p.w, p.w)
            }
        }
    }
}
