import LumenPlatform

extension ParameterDescriptor {
    static let tileCenter = ParameterDescriptor.point("center", default: [150, 150], "Origin of the tiling: a corner (or centre of symmetry) of its cells.")
    static let tileAngle = ParameterDescriptor.number("angle", .angle, default: 0, min: -1e4, max: 1e4, "Rotation of the tiling, radians.")
    static let tileWidth = ParameterDescriptor.number("width", .distance, default: 100, min: 1, max: 1e6, "Size of a cell in pixels.")
    static let acuteAngle = ParameterDescriptor.number("acuteAngle", .angle, default: .pi / 2, min: 0.05, max: .pi - 0.05, "Angle between the cell's sides, radians.")
}

extension FilterDescriptor {
    /// Repeats the image's extent over the plane, then applies `transform`: the output
    /// at d samples T⁻¹(d) wrapped into the extent. Infinite.
    static let affineTile = FilterDescriptor(
        name: "affineTile", coreImageName: "CIAffineTile", category: .tileEffect,
        summary: "Repeats the image over the plane under an affine transform.",
        details: "out(d) = in(e.min + ((T⁻¹(d) − e.min) mod e.size)); infinite extent.",
        parameters: [.inputImage, ParameterDescriptor("transform", .transform, default: .transform(.identity), "Applied to the tiled plane.")]
    ) { args in
        let image = try args.image("image")
        guard !image.extent.isInfinite, image.extent.width >= 1, image.extent.height >= 1 else {
            throw LumenError.invalidValue(filter: "affineTile", key: "image", reason: "needs a finite extent at least 1 pixel each way")
        }
        guard let inverse = args.transform("transform").inverted() else {
            throw LumenError.invalidValue(filter: "affineTile", key: "transform", reason: "is not invertible")
        }
        return Tiling(kind: .affine(inverse: inverse, source: image.extent), center: .zero, angle: 0, width: 1).apply(to: image)
    }

    static let fourfoldTranslatedTile = tiling("fourfoldTranslatedTile", "CIFourfoldTranslatedTile", .translated, acute: true,
        "Repeats a parallelogram of the image by translation.",
        "Cell = the parallelogram at center with sides width along angle and angle + acuteAngle; the plane repeats it.")
    static let parallelogramTile = tiling("parallelogramTile", "CIParallelogramTile", .parallelogram, acute: true,
        "Repeats a parallelogram of the image, mirrored across its sides.",
        "As fourfoldTranslatedTile with every other cell mirrored across each side (triangle waves in both lattice coordinates).")
    static let fourfoldReflectedTile = tiling("fourfoldReflectedTile", "CIFourfoldReflectedTile", .fourfoldReflected, acute: true,
        "Repeats a half-size parallelogram of the image in four mirrored copies.",
        "Cell of side width/2 mirrored across both sides (pmm for right angles).")
    static let fourfoldRotatedTile = tiling("fourfoldRotatedTile", "CIFourfoldRotatedTile", .fourfoldRotated, acute: false,
        "Repeats a square of the image turned by 90° around its corners.",
        "Square cells of side width; in each 2 × 2 block the cells are turned 0°, 90°, 270°, 180° (p4).")
    static let eightfoldReflectedTile = tiling("eightfoldReflectedTile", "CIEightfoldReflectedTile", .eightfoldReflected, acute: false,
        "Mirrors a triangle of the image eight ways around square cells.",
        "Square cells mirrored across both sides and the diagonal (p4m): the triangle 0 ≤ v ≤ u ≤ ½ width repeats.")
    static let glideReflectedTile = tiling("glideReflectedTile", "CIGlideReflectedTile", .glide, acute: false,
        "Repeats a square of the image with every other row mirrored (a glide reflection).",
        "Square cells; rows of odd index are mirrored left-right (pg).")
    static let triangleTile = tiling("triangleTile", "CITriangleTile", .threefold, acute: false,
        "Repeats a wedge of the image turned three ways around each point of a triangular lattice.",
        "Around the nearest point of a triangular lattice of spacing width, the direction folds into 0…120° (p3).")
    static let sixfoldRotatedTile = tiling("sixfoldRotatedTile", "CISixfoldRotatedTile", .sixfoldRotated, acute: false,
        "Repeats a wedge of the image turned six ways around each point of a triangular lattice.",
        "Around the nearest lattice point the direction folds into 0…60° by rotation (p6).")
    static let sixfoldReflectedTile = tiling("sixfoldReflectedTile", "CISixfoldReflectedTile", .sixfoldReflected, acute: false,
        "Mirrors a wedge of the image six ways around each point of a triangular lattice.",
        "Around the nearest lattice point the direction folds into 0…30° by reflection (p6m).")
    static let twelvefoldReflectedTile = tiling("twelvefoldReflectedTile", "CITwelvefoldReflectedTile", .twelvefoldReflected, acute: false,
        "Mirrors a narrow wedge of the image twelve ways around each lattice point.",
        "Around the nearest lattice point the direction folds into 0…15° by reflection.")

    /// A mirror kaleidoscope around `center`: the direction folds into a wedge of
    /// 2π/count starting at `angle`, mirrored at its middle, at the same distance.
    static let kaleidoscope = FilterDescriptor(
        name: "kaleidoscope", coreImageName: "CIKaleidoscope", category: .tileEffect,
        summary: "Mirrors a wedge of the image around a centre, like a kaleidoscope.",
        details: "θ' = fold of (θ − angle) into [0, π/count] by reflection; sample c + r·(cos, sin)(angle + θ'); infinite.",
        parameters: [.inputImage, .tileCenter, .tileAngle,
                     .number("count", .integer, default: 6, min: 1, max: 1000, "Number of mirrored wedge pairs.")]
    ) { args in
        let c = args.point("center")
        return Tiling(kind: .kaleidoscope(count: max(1, args.number("count").rounded())), center: SIMD2(c.x, c.y),
                      angle: args.number("angle"), width: 1).apply(to: try args.image("image"))
    }

    static func tiling(_ name: String, _ coreImageName: String, _ kind: Tiling.Kind, acute: Bool, _ summary: String, _ details: String) -> FilterDescriptor {
        FilterDescriptor(name: name, coreImageName: coreImageName, category: .tileEffect, summary: summary, details: details + " Infinite extent.",
                         parameters: [.inputImage, .tileCenter, .tileAngle, .tileWidth] + (acute ? [.acuteAngle] : [])) { args in
            var k = kind
            if acute { k = k.with(acute: args.number("acuteAngle")) }
            let c = args.point("center")
            return Tiling(kind: k, center: SIMD2(c.x, c.y), angle: args.number("angle"), width: args.number("width")).apply(to: try args.image("image"))
        }
    }
}

/// The wallpaper patterns: the output's position in the lattice is folded into the
/// pattern's fundamental region, which is read from the input at the lattice origin.
struct Tiling: WarpMapping {
    enum Kind: Hashable, Sendable {
        case translated, parallelogram, fourfoldReflected
        case translatedWith(Double), parallelogramWith(Double), fourfoldReflectedWith(Double)
        case fourfoldRotated, eightfoldReflected, glide, threefold, sixfoldRotated, sixfoldReflected, twelvefoldReflected
        case kaleidoscope(count: Double)
        case affine(inverse: AffineTransform, source: Rect)

        func with(acute: Double) -> Kind {
            switch self {
            case .translated: return .translatedWith(acute)
            case .parallelogram: return .parallelogramWith(acute)
            case .fourfoldReflected: return .fourfoldReflectedWith(acute)
            default: return self
            }
        }
    }

    let kind: Kind
    let center: SIMD2<Double>
    let angle: Double
    let width: Double

    var name: String {
        switch kind {
        case .translated, .translatedWith: return "fourfoldTranslatedTile"
        case .parallelogram, .parallelogramWith: return "parallelogramTile"
        case .fourfoldReflected, .fourfoldReflectedWith: return "fourfoldReflectedTile"
        case .fourfoldRotated: return "fourfoldRotatedTile"
        case .eightfoldReflected: return "eightfoldReflectedTile"
        case .glide: return "glideReflectedTile"
        case .threefold: return "triangleTile"
        case .sixfoldRotated: return "sixfoldRotatedTile"
        case .sixfoldReflected: return "sixfoldReflectedTile"
        case .twelvefoldReflected: return "twelvefoldReflectedTile"
        case .kaleidoscope: return "kaleidoscope"
        case .affine: return "affineTile"
        }
    }

    func extent(input: Rect) -> Rect { .infinite }

    /// x mod 1 in [0, 1).
    @inline(__always) static func fraction(_ x: Double) -> Double { x - x.rounded(.down) }
    /// The triangle wave 0 → 1 → 0 of period 2.
    @inline(__always) static func triangle(_ x: Double) -> Double { let m = x - 2 * (x / 2).rounded(.down); return m <= 1 ? m : 2 - m }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let (s, c) = (sin(angle), cos(angle))
        func toLocal(_ p: SIMD2<Double>) -> SIMD2<Double> { let v = p - center; return SIMD2(v.x * c + v.y * s, -v.x * s + v.y * c) }
        func toPlane(_ q: SIMD2<Double>) -> SIMD2<Double> { center + SIMD2(q.x * c - q.y * s, q.x * s + q.y * c) }
        let q = toLocal(d) / width
        guard Swift.abs(q.x) < 1e12, Swift.abs(q.y) < 1e12 else { return nil }
        switch kind {
        case let .translatedWith(acute), let .parallelogramWith(acute), let .fourfoldReflectedWith(acute):
            // Lattice coordinates (u along a = (1, 0), v along b = (cos acute, sin acute)).
            let v = q.y / sin(acute), u = q.x - v * cos(acute)
            let (fu, fv): (Double, Double)
            switch kind {
            case .translatedWith: (fu, fv) = (Self.fraction(u), Self.fraction(v))
            case .parallelogramWith: (fu, fv) = (Self.triangle(u), Self.triangle(v))
            default: (fu, fv) = (Self.triangle(2 * u) / 2, Self.triangle(2 * v) / 2)  // half-size cells
            }
            return toPlane(SIMD2(fu + fv * cos(acute), fv * sin(acute)) * width)
        case .translated, .parallelogram, .fourfoldReflected:
            return nil  // always replaced by the …With forms
        case .fourfoldRotated:
            let i = q.x.rounded(.down), j = q.y.rounded(.down), f = SIMD2(q.x - i, q.y - j)
            let odd = (Swift.abs(i.truncatingRemainder(dividingBy: 2)) == 1 ? 1 : 0) + (Swift.abs(j.truncatingRemainder(dividingBy: 2)) == 1 ? 2 : 0)
            let r: SIMD2<Double>
            switch odd {
            case 1: r = SIMD2(f.y, 1 - f.x)      // turned 90°
            case 2: r = SIMD2(1 - f.y, f.x)      // turned 270°
            case 3: r = SIMD2(1 - f.x, 1 - f.y)  // turned 180°
            default: r = f
            }
            return toPlane(r * width)
        case .eightfoldReflected:
            var u = Self.triangle(2 * q.x) / 2, v = Self.triangle(2 * q.y) / 2
            if v > u { swap(&u, &v) }
            return toPlane(SIMD2(u, v) * width)
        case .glide:
            let j = q.y.rounded(.down)
            var u = Self.fraction(q.x)
            if Swift.abs(j.truncatingRemainder(dividingBy: 2)) == 1 { u = 1 - u }
            return toPlane(SIMD2(u, Self.fraction(q.y)) * width)
        case .threefold, .sixfoldRotated, .sixfoldReflected, .twelvefoldReflected:
            // The nearest point of the triangular lattice (basis (1, 0), (½, √3/2)).
            let r3 = 3.0.squareRoot()
            let b = q.y * 2 / r3, a = q.x - b / 2
            var best = SIMD2<Double>.zero, bestDistance = Double.infinity
            for db in 0...1 { for da in 0...1 {
                let pa = a.rounded(.down) + Double(da), pb = b.rounded(.down) + Double(db)
                let point = SIMD2(pa + pb / 2, pb * r3 / 2)
                let dist = ((q - point) * (q - point)).sum()
                if dist < bestDistance { bestDistance = dist; best = point }
            } }
            let v = q - best, r = (v * v).sum().squareRoot()
            var theta = atan2(v.y, v.x)
            let sector: Double
            switch kind {
            case .threefold: sector = 2 * .pi / 3
            case .sixfoldRotated, .sixfoldReflected: sector = .pi / 3
            default: sector = .pi / 6
            }
            theta -= sector * (theta / sector).rounded(.down)
            if case .sixfoldRotated = kind {} else if case .threefold = kind {} else if theta > sector / 2 { theta = sector - theta }
            return toPlane(SIMD2(cos(theta), sin(theta)) * r * width)
        case let .kaleidoscope(count):
            let v = d - center, r = (v * v).sum().squareRoot()
            let sector = 2 * .pi / count
            var theta = atan2(v.y, v.x) - angle
            theta -= sector * (theta / sector).rounded(.down)
            if theta > sector / 2 { theta = sector - theta }
            return center + SIMD2(cos(angle + theta), sin(angle + theta)) * r
        case let .affine(inverse, source):
            let u = SIMD2(inverse.a * d.x + inverse.c * d.y + inverse.tx, inverse.b * d.x + inverse.d * d.y + inverse.ty)
            guard Swift.abs(u.x) < 1e12, Swift.abs(u.y) < 1e12 else { return nil }
            // Wrap into the extent, keeping a half pixel inside so bilinear samples stay in the tile.
            let w = source.width, h = source.height
            let x = source.minX + Self.fraction((u.x - source.minX) / w) * w, y = source.minY + Self.fraction((u.y - source.minY) / h) * h
            return SIMD2(min(max(x, source.minX + 0.5), source.maxX - 0.5), min(max(y, source.minY + 0.5), source.maxY - 0.5))
        }
    }
}
