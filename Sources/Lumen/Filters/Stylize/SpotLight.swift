import LumenPlatform

extension FilterDescriptor {
    /// A spotlight on a flat surface (z = 0, normal up): for the point P, L = unit vector
    /// to lightPosition, S = unit vector from the light towards lightPointsAt; the light
    /// reaching P is brightness·color·max(0, −L·S)^(1/concentration)·L.z, which multiplies
    /// the image (alpha kept).
    static let spotLight = FilterDescriptor(
        name: "spotLight", coreImageName: "CISpotLight", category: .stylize,
        summary: "Lights the image with a spotlight from a 3D position.",
        details: "rgb·brightness·color·max(0, −L·S)^(1/concentration)·L.z; L to the light, S the spot's direction.",
        parameters: [.inputImage,
                     ParameterDescriptor("lightPosition", .vector, default: .vector([400, 600, 150]), "x, y, z of the light (z above the image)."),
                     ParameterDescriptor("lightPointsAt", .vector, default: .vector([200, 200, 0]), "x, y, z the light aims at."),
                     .number("brightness", default: 3, min: 0, max: 1000, "Strength of the light."),
                     .number("concentration", default: 0.1, min: 0.001, max: 100, "Smaller is a narrower beam."),
                     .color("color", default: .white, "Color of the light.")]
    ) { args in
        let position = args.vector("lightPosition"), target = args.vector("lightPointsAt")
        guard position.count == 3, target.count == 3 else {
            throw LumenError.invalidValue(filter: "spotLight", key: position.count == 3 ? "lightPointsAt" : "lightPosition", reason: "expected x, y, z")
        }
        let direction = SIMD3(target[0] - position[0], target[1] - position[1], target[2] - position[2])
        guard (direction * direction).sum() > 0 else { throw LumenError.invalidValue(filter: "spotLight", key: "lightPointsAt", reason: "must differ from lightPosition") }
        let c = args.color("color").linearStraight
        return SpotLight(position: SIMD3(position[0], position[1], position[2]), direction: direction / (direction * direction).sum().squareRoot(),
                         brightness: args.number("brightness"), exponent: 1 / args.number("concentration"),
                         color: SIMD3(Double(c.x), Double(c.y), Double(c.z))).apply(to: [try args.image("image")])
    }
}

struct SpotLight: ImageKernel {
    let position: SIMD3<Double>
    let direction: SIMD3<Double>
    let brightness: Double
    let exponent: Double
    let color: SIMD3<Double>
    var name: String { "spotLight" }

    static func light(at p: SIMD2<Double>, position: SIMD3<Double>, direction: SIMD3<Double>, brightness: Double, exponent: Double) -> Double {
        var l = position - SIMD3(p.x, p.y, 0)
        let n = (l * l).sum().squareRoot()
        guard n > 0 else { return 0 }
        l /= n
        let spot = max(0, -(l * direction).sum())
        return brightness * pow(spot, exponent) * max(0, l.z)
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let x0 = destination.rect.x
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: x0)
            for i in 0..<count {
                let k = Self.light(at: SIMD2(Double(x0 + i) + 0.5, Double(y) + 0.5), position: position, direction: direction,
                                   brightness: brightness, exponent: exponent)
                let g = SIMD4<Float>(Float(k * color.x), Float(k * color.y), Float(k * color.z), 1)
                row[i] = source[i] * g
            }
        }
    }
}
