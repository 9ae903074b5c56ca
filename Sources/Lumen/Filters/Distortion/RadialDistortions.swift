import LumenPlatform

extension ParameterDescriptor {
    static let distortionCenter = ParameterDescriptor.point("center", default: [150, 150], "Centre of the distortion.")
}

extension FilterDescriptor {
    /// Inside the circle (t = r/radius < 1) the output samples c + v·(1 − scale·(1 − t²)²):
    /// scale > 0 magnifies the middle (a bulge, ×1/(1 − scale) at the centre), scale < 0
    /// shrinks it; continuous at the rim; outside, unchanged.
    static let bumpDistortion = FilterDescriptor(
        name: "bumpDistortion", coreImageName: "CIBumpDistortion", category: .distortionEffect,
        summary: "Bulges (or dents) a circular area.",
        details: "t = r/radius < 1: sample c + v·(1 − scale·(1 − t²)²); outside unchanged.",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 300, min: 0, max: 1e6, "Radius of the bump."),
                     .number("scale", default: 0.5, min: -1, max: 1, identity: 0, "Bulge (> 0) or dent (< 0) strength.")]
    ) { args in
        try radial(args, .bump(scale: args.number("scale")), identity: args.number("scale") == 0)
    }

    /// As bumpDistortion across a line through the centre at `angle`: with t = d/radius,
    /// d the distance from the line, the offset across the line is scaled by
    /// 1 − scale·(1 − t²)²; along the line nothing moves.
    static let bumpDistortionLinear = FilterDescriptor(
        name: "bumpDistortionLinear", coreImageName: "CIBumpDistortionLinear", category: .distortionEffect,
        summary: "Bulges (or dents) a band along a line.",
        details: "d = distance from the line (centre, angle); |d| < radius: sample with the across-line offset × (1 − scale·(1 − t²)²).",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 300, min: 0, max: 1e6, "Half-width of the band."),
                     .number("angle", .angle, default: 0, min: -1e4, max: 1e4, "Direction of the line, radians."),
                     .number("scale", default: 0.5, min: -1, max: 1, identity: 0, "Bulge (> 0) or dent (< 0) strength.")]
    ) { args in
        let image = try args.image("image")
        guard args.number("scale") != 0, args.number("radius") > 0 else { return image }
        let c = args.point("center")
        return LinearBump(center: SIMD2(c.x, c.y), radius: args.number("radius"), angle: args.number("angle"), scale: args.number("scale")).apply(to: image)
    }

    /// Inside the circle the output samples at radius R·t^(1/(1 + scale)) (t = r/R): the
    /// middle is pulled inwards; scale 0 changes nothing; outside, unchanged.
    static let pinchDistortion = FilterDescriptor(
        name: "pinchDistortion", coreImageName: "CIPinchDistortion", category: .distortionEffect,
        summary: "Pinches a circular area towards its centre.",
        details: "t = r/radius < 1: sample at radius·t^(1/(1 + scale)) in the same direction; outside unchanged.",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 300, min: 0, max: 1e6, "Radius of the pinch."),
                     .number("scale", default: 0.5, min: 0, max: 2, identity: 0, "Strength.")]
    ) { args in
        try radial(args, .pinch(scale: args.number("scale")), identity: args.number("scale") == 0)
    }

    /// Inside the circle the output samples c + rot(θ)·v with θ = angle·(1 − t)², t = r/R:
    /// the centre turns by `angle`, the rim not at all.
    static let twirlDistortion = FilterDescriptor(
        name: "twirlDistortion", coreImageName: "CITwirlDistortion", category: .distortionEffect,
        summary: "Twists a circular area around its centre.",
        details: "t = r/radius < 1: sample c + rot(angle·(1 − t)²)·v; outside unchanged.",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 300, min: 0, max: 1e6, "Radius of the twirl."),
                     .number("angle", .angle, default: .pi, min: -1e4, max: 1e4, identity: 0, "Rotation at the centre, radians.")]
    ) { args in
        try radial(args, .twirl(angle: args.number("angle"), power: 2), identity: args.number("angle") == 0)
    }

    /// As twirl with θ = angle·(1 − t)⁴: Core Image's default angle (56.55 rad, 9 turns)
    /// winds the middle into a vortex while the rim barely moves.
    static let vortexDistortion = FilterDescriptor(
        name: "vortexDistortion", coreImageName: "CIVortexDistortion", category: .distortionEffect,
        summary: "Winds a circular area into a vortex.",
        details: "t = r/radius < 1: sample c + rot(angle·(1 − t)⁴)·v; outside unchanged.",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 300, min: 0, max: 1e6, "Radius of the vortex."),
                     .number("angle", .angle, default: 56.5487, min: -1e4, max: 1e4, identity: 0, "Rotation at the centre, radians.")]
    ) { args in
        try radial(args, .twirl(angle: args.number("angle"), power: 4), identity: args.number("angle") == 0)
    }

    /// A hole of `radius` at the centre pushes the image outwards: the output at
    /// distance r > R samples distance √(r² − R²) in the same direction (the image
    /// returns to itself far away); inside the hole is transparent. Extent grows by R.
    static let holeDistortion = FilterDescriptor(
        name: "holeDistortion", coreImageName: "CIHoleDistortion", category: .distortionEffect,
        summary: "Opens a circular hole, pushing the image outwards.",
        details: "r > radius: sample at distance √(r² − radius²); r ≤ radius transparent; extent outset by radius.",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 150, min: 0, max: 1e6, identity: 0, "Radius of the hole.")]
    ) { args in
        try radial(args, .hole, identity: args.number("radius") == 0)
    }

    /// Inside the circle nothing changes; outside, each pixel takes the colour where its
    /// ray from the centre crosses the rim (sampled at c + v·R/r): a splash. Infinite extent.
    static let circleSplashDistortion = FilterDescriptor(
        name: "circleSplashDistortion", coreImageName: "CICircleSplashDistortion", category: .distortionEffect,
        summary: "Streaks the colours of a circle's rim outwards.",
        details: "r ≤ radius unchanged; r > radius samples c + v·radius/r; infinite extent.",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 150, min: 0, max: 1e6, "Radius of the unchanged circle.")]
    ) { args in try radial(args, .splash, identity: false) }

    /// Wraps the image around a circle: the output at polar (r, θ) samples x = minX +
    /// radius·((θ − angle) mod 2π) (arc length) and y = minY + r − radius, so the image's
    /// bottom edge lies on the circle and its height extends outwards.
    static let circularWrap = FilterDescriptor(
        name: "circularWrap", coreImageName: "CICircularWrap", category: .distortionEffect,
        summary: "Wraps the image around a transparent circle.",
        details: "polar (r, θ) samples (minX + radius·((θ − angle) mod 2π), minY + r − radius).",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 150, min: 0.5, max: 1e6, "Radius of the circle the bottom edge lies on."),
                     .number("angle", .angle, default: 0, min: -1e4, max: 1e4, "Where the image's left edge starts, radians.")]
    ) { args in
        let image = try args.image("image")
        guard !image.extent.isInfinite, !image.extent.isEmpty else {
            throw LumenError.invalidValue(filter: "circularWrap", key: "image", reason: "needs a finite, non-empty extent")
        }
        let c = args.point("center")
        return CircularWrap(center: SIMD2(c.x, c.y), radius: args.number("radius"), angle: args.number("angle"), source: image.extent).apply(to: image)
    }

    /// A ring-shaped lens of `width` centred on `radius`: with u = (r − radius)/(width/2),
    /// |u| < 1, the output samples distance radius + (width/2)·sin(asin(u)/refraction)
    /// (light bent by a lens of that index); elsewhere unchanged.
    static let torusLensDistortion = FilterDescriptor(
        name: "torusLensDistortion", coreImageName: "CITorusLensDistortion", category: .distortionEffect,
        summary: "A ring-shaped lens that magnifies a band around the centre.",
        details: "u = (r − radius)/(width/2), |u| < 1: sample at radius + (width/2)·sin(asin(u)/refraction).",
        parameters: [.inputImage, .distortionCenter,
                     .number("radius", .distance, default: 160, min: 0, max: 1e6, "Radius of the ring's middle."),
                     .number("width", .distance, default: 80, min: 0, max: 1e6, "Width of the ring."),
                     .number("refraction", default: 1.7, min: 1, max: 10, identity: 1, "Refractive index of the lens.")]
    ) { args in
        try radial(args, .torus(width: args.number("width"), refraction: args.number("refraction")), identity: args.number("refraction") == 1 || args.number("width") == 0)
    }

    /// Outside the circle of `radius`, the output samples along a spiral: angle θ +
    /// rotation·ln(r/radius) at distance radius (the rim's colours streaked into a tunnel);
    /// inside, unchanged. Infinite extent.
    static let lightTunnel = FilterDescriptor(
        name: "lightTunnel", coreImageName: "CILightTunnel", category: .distortionEffect,
        summary: "Streaks the rim of a circle outwards along a spiral.",
        details: "r > radius: sample c + radius·(cos, sin)(θ + rotation·ln(r/radius)); inside unchanged; infinite extent.",
        parameters: [.inputImage, .distortionCenter,
                     .number("rotation", .angle, default: 0, min: -1e4, max: 1e4, "Twist of the spiral, radians per e-fold of distance."),
                     .number("radius", .distance, default: 100, min: 0.5, max: 1e6, "Radius of the unchanged circle.")]
    ) { args in try radial(args, .tunnel(rotation: args.number("rotation")), identity: false) }

    static func radial(_ args: FilterArguments, _ kind: RadialDistortion.Kind, identity: Bool) throws -> Image {
        let image = try args.image("image")
        if identity { return image }
        let c = args.point("center")
        return RadialDistortion(kind: kind, center: SIMD2(c.x, c.y), radius: args.number("radius")).apply(to: image)
    }
}

/// The distortions that move points along or around rays from a centre.
struct RadialDistortion: WarpMapping {
    enum Kind: Hashable, Sendable {
        case bump(scale: Double), pinch(scale: Double), twirl(angle: Double, power: Double), hole, splash
        case torus(width: Double, refraction: Double), tunnel(rotation: Double)
    }

    let kind: Kind
    let center: SIMD2<Double>
    let radius: Double

    var name: String {
        switch kind {
        case .bump: return "bumpDistortion"
        case .pinch: return "pinchDistortion"
        case let .twirl(_, power): return power == 2 ? "twirlDistortion" : "vortexDistortion"
        case .hole: return "holeDistortion"
        case .splash: return "circleSplashDistortion"
        case .torus: return "torusLensDistortion"
        case .tunnel: return "lightTunnel"
        }
    }

    /// Where output differs from input.
    var affectedArea: Rect? {
        switch kind {
        case .hole, .splash, .tunnel: return nil
        case let .torus(width, _):
            let outer = radius + width / 2
            return Rect(x: center.x - outer, y: center.y - outer, width: 2 * outer, height: 2 * outer)
        default: return Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        }
    }

    /// Bump, pinch, hole, splash and the torus lens keep directions: exact regions of interest.
    var radialProfile: (center: SIMD2<Double>, f: @Sendable (Double) -> Double?)? {
        switch kind {
        case .twirl, .tunnel: return nil
        default:
            let mapping = self
            return (center, { r in
                guard let s = mapping.source(for: mapping.center + SIMD2(r, 0)) else { return nil }
                return abs(s.x - mapping.center.x)
            })
        }
    }

    func extent(input: Rect) -> Rect {
        switch kind {
        case .splash, .tunnel: return .infinite
        case .hole: return input.outset(by: radius)
        default: return input
        }
    }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let v = d - center, r = (v * v).sum().squareRoot()
        switch kind {
        case let .bump(scale):
            guard r < radius else { return d }
            let t = r / radius, k = (1 - t * t) * (1 - t * t)
            return center + v * (1 - scale * k)
        case let .pinch(scale):
            guard r < radius, r > 0 else { return d }
            let t = r / radius
            return center + v * (radius * pow(t, 1 / (1 + scale)) / r)
        case let .twirl(angle, power):
            guard r < radius else { return d }
            let theta = angle * pow(1 - r / radius, power), (s, c) = (sin(theta), cos(theta))
            return center + SIMD2(v.x * c - v.y * s, v.x * s + v.y * c)
        case .hole:
            guard r > radius else { return nil }
            return center + v * ((r * r - radius * radius).squareRoot() / r)
        case .splash:
            guard r > radius else { return d }
            return center + v * (radius / r)
        case let .torus(width, refraction):
            let half = width / 2, u = (r - radius) / half
            guard abs(u) < 1, r > 0 else { return d }
            let bent = radius + half * sin(asin(u) / refraction)
            return center + v * (bent / r)
        case let .tunnel(rotation):
            guard r > radius else { return d }
            let theta = atan2(v.y, v.x) + rotation * log(r / radius)
            return center + SIMD2(cos(theta), sin(theta)) * radius
        }
    }
}

/// bumpDistortionLinear's mapping.
struct LinearBump: WarpMapping {
    let center: SIMD2<Double>
    let radius: Double
    let angle: Double
    let scale: Double
    var name: String { "bumpDistortionLinear" }
    func extent(input: Rect) -> Rect { input }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let normal = SIMD2(-sin(angle), cos(angle)), v = d - center
        let across = (v * normal).sum()
        guard abs(across) < radius else { return d }
        let t = across / radius, k = (1 - t * t) * (1 - t * t)
        return d - normal * (across * scale * k)
    }
}

/// circularWrap's mapping.
struct CircularWrap: WarpMapping {
    let center: SIMD2<Double>
    let radius: Double
    let angle: Double
    let source: Rect
    var name: String { "circularWrap" }

    func extent(input: Rect) -> Rect {
        let outer = radius + source.height
        return Rect(x: center.x - outer, y: center.y - outer, width: 2 * outer, height: 2 * outer)
    }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let v = d - center, r = (v * v).sum().squareRoot()
        var theta = (atan2(v.y, v.x) - angle).truncatingRemainder(dividingBy: 2 * .pi)
        if theta < 0 { theta += 2 * .pi }
        let x = source.minX + radius * theta
        guard x <= source.maxX + 1 else { return nil }
        return SIMD2(x, source.minY + r - radius)
    }
}
