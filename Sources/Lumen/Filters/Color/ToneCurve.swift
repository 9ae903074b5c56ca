extension FilterDescriptor {
    /// A natural cubic spline through the five points (x sorted), applied to R, G and B
    /// in a gamma-2 encoding of linear light (v = √rgb, curve, then squared), through a
    /// 4096-entry table; inputs outside 0…1 clamp.
    static let toneCurve = FilterDescriptor(
        name: "toneCurve", coreImageName: "CIToneCurve", category: .colorAdjustment,
        summary: "Maps tones through a smooth curve given by five points.",
        details: "Natural cubic spline through the points, applied per channel to √(linear rgb), then squared.",
        parameters: [
            .inputImage,
            ParameterDescriptor("point0", .offset, default: .vector([0, 0]), identity: .vector([0, 0]), "First point (input, output)."),
            ParameterDescriptor("point1", .offset, default: .vector([0.25, 0.25]), identity: .vector([0.25, 0.25]), "Second point."),
            ParameterDescriptor("point2", .offset, default: .vector([0.5, 0.5]), identity: .vector([0.5, 0.5]), "Third point."),
            ParameterDescriptor("point3", .offset, default: .vector([0.75, 0.75]), identity: .vector([0.75, 0.75]), "Fourth point."),
            ParameterDescriptor("point4", .offset, default: .vector([1, 1]), identity: .vector([1, 1]), "Fifth point."),
        ]
    ) { args in
        let image = try args.image("image")
        let points = (0..<5).map { args.vector("point\($0)") }.sorted { $0[0] < $1[0] }
        if points.allSatisfy({ $0[0] == $0[1] }) { return image }
        for i in 1..<5 where points[i][0] <= points[i - 1][0] {
            throw LumenError.invalidValue(filter: "toneCurve", key: "point\(i)", reason: "points need distinct x values")
        }
        return image.applyingColor(ToneCurve(spline: NaturalSpline(x: points.map { $0[0] }, y: points.map { $0[1] })))
    }
}

/// A natural cubic spline through (x, y) points with increasing x.
struct NaturalSpline: Sendable {
    let x: [Double], y: [Double], second: [Double]

    init(x: [Double], y: [Double]) {
        self.x = x
        self.y = y
        let n = x.count
        var m = [Double](repeating: 0, count: n), u = [Double](repeating: 0, count: n)
        for i in 1..<(n - 1) {
            let sig = (x[i] - x[i - 1]) / (x[i + 1] - x[i - 1])
            let p = sig * m[i - 1] + 2
            m[i] = (sig - 1) / p
            let d = (y[i + 1] - y[i]) / (x[i + 1] - x[i]) - (y[i] - y[i - 1]) / (x[i] - x[i - 1])
            u[i] = (6 * d / (x[i + 1] - x[i - 1]) - sig * u[i - 1]) / p
        }
        for i in stride(from: n - 2, through: 0, by: -1) { m[i] = m[i] * m[i + 1] + u[i] }
        second = m
    }

    func value(_ t: Double) -> Double {
        let v = min(max(t, x[0]), x[x.count - 1])
        var i = 0
        while i < x.count - 2 && v > x[i + 1] { i += 1 }
        let h = x[i + 1] - x[i], a = (x[i + 1] - v) / h, b = (v - x[i]) / h
        return a * y[i] + b * y[i + 1] + ((a * a * a - a) * second[i] + (b * b * b - b) * second[i + 1]) * h * h / 6
    }
}

struct ToneCurve: ColorOperation {
    var name: String { "toneCurve" }
    var isChannelSeparable: Bool { true }
    /// The curve sampled at 4096 points of encoded (gamma 2) input; its identity too.
    let table: [Float]
    static let size = 4096

    init(spline: NaturalSpline) {
        table = (0..<Self.size).map { Float(spline.value(Double($0) / Double(Self.size - 1))) }
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        table.withUnsafeBufferPointer { t in
            let scale = Float(Self.size - 1)
            func curve(_ v: Float) -> Float {
                let e = min(max(v, 0), 1).squareRoot() * scale
                let i = min(Int(e), Self.size - 2), f = e - Float(i)
                let out = t[i] + (t[i + 1] - t[i]) * f
                return out * out
            }
            for i in 0..<count {
                let p = row[i]
                row[i] = SIMD4(curve(p.x), curve(p.y), curve(p.z), p.w)
            }
        }
    }
}
