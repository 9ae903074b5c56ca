import Foundation

extension FilterDescriptor {
    /// The mean of 2n+1 bilinear samples spaced one pixel apart on the line through the
    /// pixel at `angle` (radians, 0 = along +x), n = ⌈radius⌉; extent outset by n along it.
    static let motionBlur = FilterDescriptor(
        name: "motionBlur", coreImageName: "CIMotionBlur", category: .blur,
        summary: "Blurs along a line, like a moving camera.",
        details: "Mean of samples at p + k·(cos angle, sin angle), k = −n…n, n = ⌈radius⌉ (bilinear).",
        parameters: [
            .inputImage,
            .number("radius", .distance, default: 20, min: 0, max: 2000, identity: 0,
                    "Half the length of the streak, pixels (cost grows with it: at most 2000)."),
            .number("angle", .angle, default: 0, identity: 0, "Direction of motion, radians."),
        ]
    ) { args in
        let image = try args.image("image"), radius = args.number("radius")
        return radius < 0.5 ? image : MotionBlurKernel(radius: radius, angle: args.number("angle")).apply(to: [image])
    }
}

struct MotionBlurKernel: ImageKernel {
    let radius: Double, angle: Double
    private var reach: Int { Int(radius.rounded(.up)) }

    var name: String { "motionBlur" }

    func extent(inputs: [Rect]) -> Rect {
        let dx = abs(cos(angle)) * Double(reach), dy = abs(sin(angle)) * Double(reach)
        let e = inputs[0]
        return e.isInfinite ? e : Rect(x: e.x - dx, y: e.y - dy, width: e.width + 2 * dx, height: e.height + 2 * dy)
    }

    var cachePolicy: CachePolicy { .whenReused }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        rect.outset(dx: Int((abs(cos(angle)) * Double(reach)).rounded(.up)) + 1, dy: Int((abs(sin(angle)) * Double(reach)).rounded(.up)) + 1)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect
        let (c, s) = (cos(angle), sin(angle)), reach = self.reach
        let n = Float(2 * reach + 1)
        for y in r.y..<r.maxY {
            let out = output.row(y)
            for i in 0..<r.width {
                var sum = SIMD4<Float>.zero
                for k in -reach...reach {
                    sum += input.bilinear(Double(r.x + i) + Double(k) * c, Double(y) + Double(k) * s)
                }
                out[i] = sum / n
            }
        }
    }
}
