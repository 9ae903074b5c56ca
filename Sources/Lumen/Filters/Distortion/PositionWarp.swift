import LumenPlatform

/// A built-in distortion: where each output position samples its input. The warp node
/// reads the input bilinearly at `source(for:)` of every pixel centre.
protocol WarpMapping: Hashable, Sendable {
    var name: String { get }
    /// The input position sampled for the output position `d` (nil: transparent).
    func source(for d: SIMD2<Double>) -> SIMD2<Double>?
    /// Where the output can be non-transparent, given the input's extent.
    func extent(input: Rect) -> Rect
    /// The part of the plane the mapping changes (outside it, source(d) = d); nil when
    /// it changes everything.
    var affectedArea: Rect? { get }
    /// For mappings that keep each point's direction from a centre and move it to
    /// distance f(r): the centre and f. Their regions of interest are then exact.
    var radialProfile: (center: SIMD2<Double>, f: @Sendable (Double) -> Double?)? { get }
}

extension WarpMapping {
    var affectedArea: Rect? { nil }
    var radialProfile: (center: SIMD2<Double>, f: @Sendable (Double) -> Double?)? { nil }
}

/// The bounding box of the points at distance rs (fMin…fMax) from `c` whose direction
/// lies in the directions of `rect` seen from `c` (all directions when it contains c).
func sectorBounds(of rect: Rect, around c: SIMD2<Double>, radii: ClosedRange<Double>) -> Rect {
    let corners = rect.cornerPoints.map { $0 - c }
    let contains = rect.minX <= c.x && c.x <= rect.maxX && rect.minY <= c.y && c.y <= rect.maxY
    if contains {
        let r = radii.upperBound
        return Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
    }
    // The directions spanned by the rectangle (less than π when it excludes c).
    let angles = corners.map { atan2($0.y, $0.x) }
    let base = angles[0]
    let relative = angles.map { a -> Double in var d = a - base; while d > .pi { d -= 2 * .pi }; while d < -.pi { d += 2 * .pi }; return d }
    let low = base + relative.min()!, high = base + relative.max()!
    var directions = [low, high]
    for k in -4...4 { let axis = Double(k) * .pi / 2; if axis > low && axis < high { directions.append(axis) } }
    var points: [SIMD2<Double>] = []
    for a in directions { for r in [radii.lowerBound, radii.upperBound] { points.append(c + SIMD2(cos(a), sin(a)) * r) } }
    let xs = points.map(\.x), ys = points.map(\.y)
    return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
}

/// The node of a `WarpMapping`. Its region of interest is measured, not guessed: the
/// source positions of the rectangle's edge pixels and of a grid inside it (every 8
/// pixels) are mapped, and their bounding box, grown by the sampler's reach and by the
/// grid step times the mapping's local stretch, is what the rectangle reads. Rectangles
/// outside the affected area read themselves.
struct PositionWarp<Mapping: WarpMapping>: ImageKernel {
    let mapping: Mapping

    var name: String { mapping.name }
    var cachePolicy: CachePolicy { .never }
    /// Samples are bilinear reads that return clear outside the sampler.
    var readsOnlyInsideInputs: Bool { true }

    func extent(inputs: [Rect]) -> Rect { mapping.extent(input: inputs[0]) }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        if let area = mapping.affectedArea, rect.rect.intersection(area).isEmpty { return rect.outset(dx: 1, dy: 1) }
        guard rect.area > 0, rect.width < 1 << 24, rect.height < 1 << 24 else { return .unbounded }
        if let (c, f) = mapping.radialProfile {
            // Distances from c covered by the rectangle, and the source distances they map to.
            let box = rect.rect
            let nx = min(max(c.x, box.minX), box.maxX), ny = min(max(c.y, box.minY), box.maxY)
            let near = ((SIMD2(nx, ny) - c) * (SIMD2(nx, ny) - c)).sum().squareRoot()
            let far = box.cornerPoints.map { (($0 - c) * ($0 - c)).sum().squareRoot() }.max()!
            var low = Double.infinity, high = -Double.infinity, gap = false
            for i in 0...256 {
                guard let v = f(near + (far - near) * Double(i) / 256) else { gap = true; continue }
                low = min(low, v); high = max(high, v)
            }
            if gap { low = 0 }  // next to a hole the profile rises from 0 faster than any sampling sees
            guard low <= high else { return .empty }
            // f is sampled every (far − near)/256: widen by the largest step it could hide.
            let slack = 2 + (far - near) / 256 * 4
            let sector = sectorBounds(of: box, around: c, radii: max(0, low - slack)...(high + slack))
            return PixelRect(covering: sector.insetBy(dx: -2, dy: -2))
        }
        let step = 8
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var previous: SIMD2<Double>?, stretch = 1.0
        func visit(_ x: Int, _ y: Int) {
            guard let s = mapping.source(for: SIMD2(Double(x) + 0.5, Double(y) + 0.5)), s.x.isFinite, s.y.isFinite else { return }
            minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
            if let p = previous { stretch = max(stretch, min(1e6, ((s - p) * (s - p)).sum().squareRoot() / Double(step))) }
            previous = s
        }
        var xs = Array(stride(from: rect.x, to: rect.maxX, by: step)) + [rect.maxX - 1]
        var ys = Array(stride(from: rect.y, to: rect.maxY, by: step)) + [rect.maxY - 1]
        if xs.count > 4096 { xs = Array(xs.prefix(4096)) }  // bounded work for huge rectangles
        if ys.count > 4096 { ys = Array(ys.prefix(4096)) }
        for y in ys { previous = nil; for x in xs { visit(x, y) } }
        for x in xs { previous = nil; for y in ys { visit(x, y) } }
        guard minX <= maxX else { return .empty }
        let margin = 2 + stretch * Double(step)
        return PixelRect(covering: Rect(x: minX - margin, y: minY - margin, width: maxX - minX + 2 * margin, height: maxY - minY + 2 * margin))
    }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, source = inputs[0]
        for y in r.y..<r.maxY {
            let out = destination.row(y), cy = Double(y) + 0.5
            for i in 0..<r.width {
                if let s = mapping.source(for: SIMD2(Double(r.x + i) + 0.5, cy)) {
                    out[i] = source.bilinear(s.x - 0.5, s.y - 0.5)
                } else {
                    out[i] = .zero
                }
            }
        }
    }
}

extension WarpMapping {
    func apply(to image: Image) -> Image { PositionWarp(mapping: self).apply(to: [image]) }
}

/// A projective transform of the plane: (x, y) ↦ ((a·x + b·y + c)/(g·x + h·y + 1), (d·x + e·y + f)/(…)).
struct Homography: Hashable, Sendable {
    var m: [Double]  // a b c d e f g h (i = 1)

    /// The homography taking the four `from` points to the four `to` points (nil when
    /// degenerate: three points on a line, or non-finite values).
    init?(from: [SIMD2<Double>], to: [SIMD2<Double>]) {
        // Eight equations: for each pair, x' (g x + h y + 1) = a x + b y + c, likewise y'.
        var rows: [[Double]] = []
        for (p, q) in zip(from, to) {
            rows.append([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x])
            rows.append([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y])
        }
        // Gaussian elimination with partial pivoting.
        for col in 0..<8 {
            guard let pivot = (col..<8).max(by: { abs(rows[$0][col]) < abs(rows[$1][col]) }), abs(rows[pivot][col]) > 1e-12 else { return nil }
            rows.swapAt(col, pivot)
            for r in 0..<8 where r != col {
                let f = rows[r][col] / rows[col][col]
                if f != 0 { for k in col..<9 { rows[r][k] -= f * rows[col][k] } }
            }
        }
        m = (0..<8).map { rows[$0][8] / rows[$0][$0] }
        guard m.allSatisfy(\.isFinite) else { return nil }
    }

    init(m: [Double]) { self.m = m }

    /// The mapped point, or nil at or beyond the horizon (w ≤ 0).
    func apply(_ p: SIMD2<Double>) -> SIMD2<Double>? {
        let w = m[6] * p.x + m[7] * p.y + 1
        guard w > 1e-12 else { return nil }
        return SIMD2((m[0] * p.x + m[1] * p.y + m[2]) / w, (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// The inverse (adjugate of the 3×3 matrix, normalised).
    var inverse: Homography? {
        let (a, b, c, d, e, f, g, h) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]), i = 1.0
        let A = e * i - f * h, B = c * h - b * i, C = b * f - c * e
        let D = f * g - d * i, E = a * i - c * g, F = c * d - a * f
        let G = d * h - e * g, H = b * g - a * h, I = a * e - b * d
        guard abs(I) > 1e-15, [A, B, C, D, E, F, G, H].allSatisfy(\.isFinite) else { return nil }
        return Homography(m: [A / I, B / I, C / I, D / I, E / I, F / I, G / I, H / I])
    }
}

/// The output samples the input at H⁻¹(d); `bounds` limits the output (nil: the mapped
/// input's bounding box).
struct PerspectiveMapping: WarpMapping {
    let forward: Homography
    let inverse: Homography
    let bounds: Rect?
    var name: String { "perspectiveTransform" }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? { inverse.apply(d) }

    func extent(input: Rect) -> Rect {
        if let bounds { return bounds }
        guard !input.isInfinite else { return .infinite }
        let corners = [SIMD2(input.minX, input.minY), SIMD2(input.maxX, input.minY), SIMD2(input.maxX, input.maxY), SIMD2(input.minX, input.maxY)]
        let mapped = corners.compactMap(forward.apply)
        guard mapped.count == 4 else { return .infinite }  // the image crosses the horizon
        let xs = mapped.map(\.x), ys = mapped.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

extension Rect {
    /// Corners bottom-left, bottom-right, top-right, top-left.
    var cornerPoints: [SIMD2<Double>] { [SIMD2(minX, minY), SIMD2(maxX, minY), SIMD2(maxX, maxY), SIMD2(minX, maxY)] }
}
