import LumenPlatform

extension FilterDescriptor {
    /// A camera turned by pitch (about the horizontal axis; positive tips the top of the
    /// picture away), yaw (about the vertical axis; positive brings the right side nearer)
    /// and roll (in the picture's plane, counter-clockwise), with the image as what a
    /// lens of `focalLength` millimetres (35 mm equivalent: the diagonal is 43.27 mm)
    /// saw: H = K·R·K⁻¹ with K the pinhole of focal length f = focalLength/43.27 × the
    /// extent's diagonal centred on the extent. Extent = the turned corners' bounding box.
    static let perspectiveRotate = FilterDescriptor(
        name: "perspectiveRotate", coreImageName: "CIPerspectiveRotate", category: .geometryAdjustment,
        summary: "Turns the image in 3D (pitch, yaw, roll) as a camera of a focal length would see it.",
        details: "H = K·Rz(roll)·Ry(yaw)·Rx(pitch)·K⁻¹, f = focalLength/43.27·diagonal, centred on the extent; bilinear; extent = the turned corners' bounds.",
        parameters: [.inputImage, .focalLength,
                     .number("pitch", .angle, default: 0, min: -1.5, max: 1.5, identity: 0, "Rotation about the horizontal axis, radians."),
                     .number("yaw", .angle, default: 0, min: -1.5, max: 1.5, identity: 0, "Rotation about the vertical axis, radians."),
                     .number("roll", .angle, default: 0, min: -1e4, max: 1e4, identity: 0, "Rotation in the image plane, radians.")]
    ) { args in
        let image = try args.image("image")
        let camera = try CameraRotation(extent: image.extent, focalLength: args.number("focalLength"), filter: "perspectiveRotate")
        return try camera.apply(to: image, pitch: args.number("pitch"), yaw: args.number("yaw"), roll: args.number("roll"), filter: "perspectiveRotate")
    }

    static let keystoneCorrectionVertical = keystone("keystoneCorrectionVertical", "CIKeystoneCorrectionVertical", .vertical,
        "Straightens converging verticals (a building shot from below) using two guide lines.",
        "The pitch that makes the left (bottomLeft–topLeft) and right (bottomRight–topRight) guide lines parallel, then the roll that makes them vertical; applied as perspectiveRotate.")
    static let keystoneCorrectionHorizontal = keystone("keystoneCorrectionHorizontal", "CIKeystoneCorrectionHorizontal", .horizontal,
        "Straightens converging horizontals using two guide lines.",
        "The yaw that makes the top (topLeft–topRight) and bottom (bottomLeft–bottomRight) guide lines parallel, then the roll that makes them level; applied as perspectiveRotate.")
    static let keystoneCorrectionCombined = keystone("keystoneCorrectionCombined", "CIKeystoneCorrectionCombined", .combined,
        "Straightens converging verticals and horizontals together using four guide lines.",
        "The pitch and yaw that make both pairs of guide lines parallel, then the roll that makes the verticals vertical; applied as perspectiveRotate.")

    static func keystone(_ name: String, _ coreImageName: String, _ kind: KeystoneSolver.Kind, _ summary: String, _ details: String) -> FilterDescriptor {
        FilterDescriptor(name: name, coreImageName: coreImageName, category: .geometryAdjustment, summary: summary,
                         details: details + " f as in perspectiveRotate (35 mm equivalent).",
                         parameters: [.inputImage, .focalLength] + ParameterDescriptor.guideCorners) { args in
            let image = try args.image("image")
            let camera = try CameraRotation(extent: image.extent, focalLength: args.number("focalLength"), filter: name)
            let angles = try KeystoneSolver(camera: camera, kind: kind).solve(args.quad, filter: name)
            return try camera.apply(to: image, pitch: angles.pitch, yaw: angles.yaw, roll: angles.roll, filter: name)
        }
    }
}

extension ParameterDescriptor {
    /// Core Image gives the guide points no defaults; a square's corners are guides that
    /// are already parallel and upright, so by default the correction changes nothing.
    static let guideCorners: [ParameterDescriptor] = [
        .corner("topLeft", [0, 300], "Top end of the left guide line (and left end of the top one)."),
        .corner("topRight", [300, 300], "Top end of the right guide line (and right end of the top one)."),
        .corner("bottomRight", [300, 0], "Bottom end of the right guide line (and right end of the bottom one)."),
        .corner("bottomLeft", [0, 0], "Bottom end of the left guide line (and left end of the bottom one)."),
    ]
    static let focalLength = ParameterDescriptor.number("focalLength", .distance, default: 28, min: 1, max: 1e4,
                                                         "Focal length of the lens, millimetres (35 mm equivalent).")
}

/// The pinhole camera of an extent: centred on it, focal length in pixels from the
/// 35 mm-equivalent millimetres.
struct CameraRotation {
    let center: SIMD2<Double>
    let f: Double
    let extent: Rect

    init(extent: Rect, focalLength: Double, filter: String) throws {
        guard !extent.isInfinite, extent.width >= 1, extent.height >= 1 else {
            throw LumenError.invalidValue(filter: filter, key: "image", reason: "needs a finite extent at least 1 pixel each way")
        }
        self.extent = extent
        center = SIMD2(extent.midX, extent.midY)
        f = focalLength / 43.27 * (extent.width * extent.width + extent.height * extent.height).squareRoot()
    }

    /// R = Rz(roll)·Ry(yaw)·Rx(pitch), rows.
    static func rotation(pitch: Double, yaw: Double, roll: Double) -> [SIMD3<Double>] {
        let (sp, cp, sy, cy, sr, cr) = (sin(pitch), cos(pitch), sin(yaw), cos(yaw), sin(roll), cos(roll))
        // Rx: y' = cp·y − sp·z, z' = sp·y + cp·z;  Ry: x' = cy·x + sy·z, z' = −sy·x + cy·z;  Rz in the plane.
        let rx = [SIMD3(1, 0, 0), SIMD3(0, cp, -sp), SIMD3(0, sp, cp)]
        let ry = [SIMD3(cy, 0, sy), SIMD3(0, 1, 0), SIMD3(-sy, 0, cy)]
        let rz = [SIMD3(cr, -sr, 0), SIMD3(sr, cr, 0), SIMD3(0, 0, 1)]
        func multiply(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> [SIMD3<Double>] {
            a.map { row in SIMD3((row * SIMD3(b[0].x, b[1].x, b[2].x)).sum(), (row * SIMD3(b[0].y, b[1].y, b[2].y)).sum(), (row * SIMD3(b[0].z, b[1].z, b[2].z)).sum()) }
        }
        return multiply(rz, multiply(ry, rx))
    }

    /// Where the camera turned by `r` sees the image point p (nil behind it).
    func map(_ p: SIMD2<Double>, _ r: [SIMD3<Double>]) -> SIMD2<Double>? {
        let q = SIMD3(p.x - center.x, p.y - center.y, f)
        let t = SIMD3((r[0] * q).sum(), (r[1] * q).sum(), (r[2] * q).sum())
        guard t.z > 1e-9 * f else { return nil }
        return center + SIMD2(t.x, t.y) * (f / t.z)
    }

    func apply(to image: Image, pitch: Double, yaw: Double, roll: Double, filter: String) throws -> Image {
        if pitch == 0 && yaw == 0 && roll == 0 { return image }
        let r = Self.rotation(pitch: pitch, yaw: yaw, roll: roll)
        let corners = extent.cornerPoints
        let mapped = corners.compactMap { map($0, r) }
        guard mapped.count == 4, mapped.allSatisfy({ Swift.abs($0.x) < 1e9 && Swift.abs($0.y) < 1e9 }) else {
            throw LumenError.invalidValue(filter: filter, key: "pitch", reason: "turns part of the image behind the camera; use smaller angles or a longer focal length")
        }
        return try FilterDescriptor.perspectiveMapping(from: corners, to: mapped, filter: filter, bounds: nil).apply(to: image)
    }
}

/// Finds the camera rotation that makes guide lines parallel (and then upright).
struct KeystoneSolver {
    enum Kind { case vertical, horizontal, combined }
    let camera: CameraRotation
    let kind: Kind

    /// Signed angle from direction a to direction b, in (−π, π].
    static func angle(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y)
    }

    /// The lines' directions after turning, as (left, right, bottom, top); nil behind the camera.
    func directions(_ q: [SIMD2<Double>], pitch: Double, yaw: Double) -> [SIMD2<Double>]? {
        let r = CameraRotation.rotation(pitch: pitch, yaw: yaw, roll: 0)
        let m = q.compactMap { camera.map($0, r) }  // bl, br, tr, tl
        guard m.count == 4 else { return nil }
        return [m[3] - m[0], m[2] - m[1], m[1] - m[0], m[2] - m[3]]
    }

    /// How far from parallel the chosen pairs are (0 when parallel).
    func error(_ q: [SIMD2<Double>], pitch: Double, yaw: Double) -> Double {
        guard let d = directions(q, pitch: pitch, yaw: yaw) else { return .infinity }
        let vertical = Self.angle(d[0], d[1]), horizontal = Self.angle(d[2], d[3])
        switch kind {
        case .vertical: return vertical * vertical
        case .horizontal: return horizontal * horizontal
        case .combined: return vertical * vertical + horizontal * horizontal
        }
    }

    /// Golden-section search for the minimum of g on [a, b].
    static func minimize(_ a: Double, _ b: Double, _ g: (Double) -> Double) -> Double {
        var (lo, hi) = (a, b)
        let k = (5.0.squareRoot() - 1) / 2
        var x1 = hi - k * (hi - lo), x2 = lo + k * (hi - lo), g1 = g(x1), g2 = g(x2)
        for _ in 0..<80 {
            if g1 <= g2 { hi = x2; x2 = x1; g2 = g1; x1 = hi - k * (hi - lo); g1 = g(x1) }
            else { lo = x1; x1 = x2; g1 = g2; x2 = lo + k * (hi - lo); g2 = g(x2) }
        }
        return (lo + hi) / 2
    }

    func solve(_ q: [SIMD2<Double>], filter: String) throws -> (pitch: Double, yaw: Double, roll: Double) {
        let limit = 1.4
        var pitch = 0.0, yaw = 0.0
        // Each angle: the best of a scan every 0.01 rad (angles that put a guide point
        // behind the camera score infinity, so a search must not start on that plateau),
        // refined by golden section around it. Combined: coordinate descent, a few rounds.
        func best(_ g: (Double) -> Double) -> Double {
            var start = 0.0, lowest = g(0)
            for i in -140...140 { let a = Double(i) / 100; let v = g(a); if v < lowest { lowest = v; start = a } }
            return Self.minimize(max(-limit, start - 0.01), min(limit, start + 0.01), g)
        }
        for _ in 0..<(kind == .combined ? 12 : 1) {
            if kind != .horizontal { pitch = best { error(q, pitch: $0, yaw: yaw) } }
            if kind != .vertical { yaw = best { error(q, pitch: pitch, yaw: $0) } }
        }
        guard let d = directions(q, pitch: pitch, yaw: yaw), error(q, pitch: pitch, yaw: yaw) < 1e-6 else {
            throw LumenError.invalidValue(filter: filter, key: "topLeft", reason: "no camera rotation makes these guide lines parallel")
        }
        // The roll that makes the (now parallel) verticals vertical, or the horizontals level.
        func mean(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
            let na = a / (a * a).sum().squareRoot(), nb = b / (b * b).sum().squareRoot()
            return (na * nb).sum() >= 0 ? na + nb : na - nb
        }
        let roll = kind == .horizontal ? -Self.angle(SIMD2(1, 0), mean(d[2], d[3])) : -Self.angle(SIMD2(0, 1), mean(d[0], d[1]))
        return (pitch, yaw, roll)
    }
}
