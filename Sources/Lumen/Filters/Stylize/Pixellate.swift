import LumenPlatform

extension FilterDescriptor {
    /// Square cells of side `scale` on a grid with a corner at `center`; every pixel of a
    /// cell takes the cell's average (premultiplied; pixels outside the input count as
    /// transparent). The extent grows to whole cells.
    static let pixellate = FilterDescriptor(
        name: "pixellate", coreImageName: "CIPixellate", category: .stylize,
        summary: "Makes the image blocky: squares filled with their average color.",
        details: "Cells of side round(scale) with a corner at center; each cell = mean of its pixels; extent grown to whole cells.",
        parameters: [.inputImage, .point("center", default: [150, 150], "A corner of the cell grid."),
                     .number("scale", .distance, default: 8, min: 1, max: 10_000, identity: 1, "Side of a cell in pixels.")]
    ) { args in
        let image = try args.image("image"), side = Int(args.number("scale").rounded())
        guard side > 1 else { return image }
        let c = args.point("center")
        // The grid origin, reduced modulo the cell size so huge centres stay exact.
        func phase(_ v: Double) -> Int { Int(v.rounded(.down).truncatingRemainder(dividingBy: Double(side))) }
        return Pixellate(side: side, originX: phase(c.x), originY: phase(c.y)).apply(to: [image])
    }
}

/// pixellate's kernel: each output cell reads exactly its own cell of the input.
struct Pixellate: ImageKernel {
    let side: Int
    let originX: Int
    let originY: Int

    var name: String { "pixellate" }
    var cachePolicy: CachePolicy { .whenReused }

    /// The first cell edge at or below v.
    private func cellStart(_ v: Int, _ origin: Int) -> Int { origin + Int((Double(v - origin) / Double(side)).rounded(.down)) * side }

    private func cells(_ rect: PixelRect) -> PixelRect {
        let x0 = cellStart(rect.x, originX), y0 = cellStart(rect.y, originY)
        let x1 = cellStart(rect.maxX - 1, originX) + side, y1 = cellStart(rect.maxY - 1, originY) + side
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    func extent(inputs: [Rect]) -> Rect {
        guard !inputs[0].isInfinite, !inputs[0].isEmpty else { return inputs[0] }
        return cells(PixelRect(covering: inputs[0])).rect
    }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect { cells(rect) }

    func render(_ destination: Destination, inputs: [Sampler]) {
        let r = destination.rect, input = inputs[0], grid = cells(r)
        let k = 1 / Float(side * side)
        var cy = grid.y
        while cy < grid.maxY {
            var cx = grid.x
            while cx < grid.maxX {
                var sum = SIMD4<Float>.zero
                for y in cy..<(cy + side) {
                    let row = input.row(y, from: cx)
                    var rowSum = SIMD4<Float>.zero
                    for i in 0..<side { rowSum += row[i] }
                    sum += rowSum
                }
                let mean = sum * k
                let cell = PixelRect(x: cx, y: cy, width: side, height: side).intersection(r)
                for y in cell.y..<cell.maxY { (destination.row(y) + (cell.x - r.x)).update(repeating: mean, count: cell.width) }
                cx += side
            }
            cy += side
        }
    }
}

extension FilterDescriptor {
    /// Hexagons (pointy side up) of width `scale` on a lattice through `center`; each
    /// takes the input's colour sampled bilinearly at its centre.
    static let hexagonalPixellate = FilterDescriptor(
        name: "hexagonalPixellate", coreImageName: "CIHexagonalPixellate", category: .stylize,
        summary: "Makes the image into hexagonal tiles of one color each.",
        details: "Pointy-top hexagons of width scale on a lattice through center; each = the input at its centre.",
        parameters: [.inputImage, .point("center", default: [150, 150], "A hexagon centre of the lattice."),
                     .number("scale", .distance, default: 8, min: 1, max: 10_000, identity: 1, "Width of a hexagon in pixels.")]
    ) { args in
        let image = try args.image("image"), scale = args.number("scale")
        guard scale > 1 else { return image }
        let c = args.point("center")
        return CellSampling(cells: .hexagons(width: scale), center: SIMD2(c.x, c.y)).apply(to: image)
    }

    /// Voronoi cells around one seed per `radius`-sized square of a grid through
    /// `center`, each seed moved within its square by a fixed hash of the square's
    /// position (so the pattern is the same at any tile size); each cell takes the
    /// input's colour at its seed.
    static let crystallize = FilterDescriptor(
        name: "crystallize", coreImageName: "CICrystallize", category: .stylize,
        summary: "Breaks the image into polygonal cells of one color each.",
        details: "Voronoi cells of hashed seeds, one per radius × radius square; each cell = the input at its seed.",
        parameters: [.inputImage, .point("center", default: [150, 150], "A corner of the seeds' grid."),
                     .number("radius", .distance, default: 20, min: 1, max: 10_000, "Spacing of the cells in pixels.")]
    ) { args in
        let c = args.point("center")
        return CellSampling(cells: .voronoi(spacing: args.number("radius")), center: SIMD2(c.x, c.y)).apply(to: try args.image("image"))
    }

    /// Dots of `radius` around seeds on a 2·radius grid (moved by the same hash as
    /// crystallize, less far), each the input's colour at its centre, on a white ground.
    static let pointillize = FilterDescriptor(
        name: "pointillize", coreImageName: "CIPointillize", category: .stylize,
        summary: "Renders the image as colored dots on white.",
        details: "Discs of radius at hashed seeds of a 2·radius grid, each = the input at its centre; white between them.",
        parameters: [.inputImage, .point("center", default: [150, 150], "A corner of the dots' grid."),
                     .number("radius", .distance, default: 20, min: 1, max: 10_000, "Radius of a dot in pixels.")]
    ) { args in
        let c = args.point("center")
        let image = try args.image("image")
        let dots = CellSampling(cells: .dots(radius: args.number("radius")), center: SIMD2(c.x, c.y)).apply(to: image)
        return try FilterDescriptor.sourceOver.apply(["image": .image(dots), "backgroundImage": .image(Image(color: .white).cropped(to: image.extent))])
    }
}

/// Hexagons, Voronoi cells and dots: every output pixel finds its cell's centre (or none)
/// and takes the input there.
struct CellSampling: WarpMapping {
    enum Cells: Hashable, Sendable { case hexagons(width: Double), voronoi(spacing: Double), dots(radius: Double) }
    let cells: Cells
    let center: SIMD2<Double>

    var name: String {
        switch cells {
        case .hexagons: return "hexagonalPixellate"
        case .voronoi: return "crystallize"
        case .dots: return "pointillize"
        }
    }

    func extent(input: Rect) -> Rect { input }

    /// A fixed pseudo-random offset in −0.5…0.5 for grid square (i, j) (splitmix64).
    static func jitter(_ i: Int, _ j: Int, _ salt: UInt64) -> SIMD2<Double> {
        func mix(_ v: UInt64) -> UInt64 {
            var z = v &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let h = mix(UInt64(bitPattern: Int64(i)) &* 0x1000_0000_01B3 ^ mix(UInt64(bitPattern: Int64(j)) ^ salt))
        return SIMD2(Double(h & 0xFFFF) / 65535 - 0.5, Double((h >> 16) & 0xFFFF) / 65535 - 0.5)
    }

    func source(for d: SIMD2<Double>) -> SIMD2<Double>? {
        let p = d - center
        switch cells {
        case let .hexagons(width):
            // Axial coordinates of pointy-top hexagons of this width, rounded to the nearest cell.
            let size = width / 3.0.squareRoot()
            let q = (3.0.squareRoot() / 3 * p.x - p.y / 3) / size, r = (2.0 / 3 * p.y) / size
            var (x, z) = (q, r), y = -x - z
            var (rx, ry, rz) = (x.rounded(), y.rounded(), z.rounded())
            let (dx, dy, dz) = (abs(rx - x), abs(ry - y), abs(rz - z))
            if dx > dy && dx > dz { rx = -ry - rz } else if dy > dz { ry = -rx - rz } else { rz = -rx - ry }
            (x, y, z) = (rx, ry, rz)
            _ = y
            return center + SIMD2(size * 3.0.squareRoot() * (x + z / 2), size * 1.5 * z)
        case let .voronoi(spacing):
            guard abs(p.x / spacing) < 1e15, abs(p.y / spacing) < 1e15 else { return nil }
            let gi = Int((p.x / spacing).rounded(.down)), gj = Int((p.y / spacing).rounded(.down))
            var best = SIMD2<Double>.zero, bestDistance = Double.infinity
            for j in (gj - 1)...(gj + 1) { for i in (gi - 1)...(gi + 1) {
                let seed = (SIMD2(Double(i), Double(j)) + 0.5 + Self.jitter(i, j, 1) * 0.9) * spacing
                let dist = ((seed - p) * (seed - p)).sum()
                if dist < bestDistance { bestDistance = dist; best = seed }
            } }
            return center + best
        case let .dots(radius):
            let spacing = 2 * radius
            guard abs(p.x / spacing) < 1e15, abs(p.y / spacing) < 1e15 else { return nil }
            let gi = Int((p.x / spacing).rounded(.down)), gj = Int((p.y / spacing).rounded(.down))
            for j in (gj - 1)...(gj + 1) { for i in (gi - 1)...(gi + 1) {
                let seed = (SIMD2(Double(i), Double(j)) + 0.5 + Self.jitter(i, j, 2) * 0.3) * spacing
                if ((seed - p) * (seed - p)).sum() <= radius * radius { return center + seed }
            } }
            return nil
        }
    }
}
