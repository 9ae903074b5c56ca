import Testing
@testable import Lumen

/// Morphology's direct fold at every level this machine has (the Swift loop, and CKernels'
/// AVX2 and AVX-512 strips) gives the same bits, NaNs, infinities and signed zeros included,
/// on tiles as wide as a few tiles; and, on finite values, each output is the extremum over
/// the element (i² + j² ≤ r², or the odd rectangle) computed here by brute force, on both
/// sides of `Morphology.directReach`.
@Suite struct MorphologyLevelTests {
    static let levels = [InstructionSet.baseline, .avx2, .avx512].filter { $0 <= .machine }
    static let shapes: [Morphology.Shape] = [
        .disc(radius: 1), .disc(radius: 2.6), .disc(radius: 5), .disc(radius: 16),
        .rectangle(width: 7, height: 3), .rectangle(width: 129, height: 5), .rectangle(width: 3, height: 33),
    ]
    /// Past the direct fold's reach: van Herk's scans.
    static let largeShapes: [Morphology.Shape] = [.disc(radius: 17), .rectangle(width: 131, height: 3), .rectangle(width: 4, height: 35)]

    /// The element's offsets from its definition, not from `Shape.runs`.
    static func offsets(_ shape: Morphology.Shape) -> [(Int, Int)] {
        switch shape {
        case let .disc(radius): ReferenceHelpers.disc(Int(radius.rounded()))
        case let .rectangle(width, height): ReferenceHelpers.box(Int(width.rounded()), Int(height.rounded()))
        }
    }

    /// A tile over `rect` of values in [−1, 2), with about one lane in eight special when asked.
    static func tile(_ rect: PixelRect, seed: UInt64, specials: Bool) -> Tile {
        let tile = Tile(capacity: rect.area)
        tile.reset(to: rect)
        var state = seed
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24) * 3 - 1
        }
        let special: [Float] = [.nan, .infinity, -.infinity, 0, -0, -1]
        for y in rect.y..<rect.maxY {
            let row = tile.row(y)
            for x in 0..<rect.width {
                var p = SIMD4(next(), next(), next(), next())
                if specials { for c in 0..<4 where next() > 1.625 { p[c] = special[Int((next() + 1) * 2) % special.count] } }
                row[x] = p
            }
        }
        return tile
    }

    static func render(_ kernel: Morphology, _ input: Tile, into rect: PixelRect, level: InstructionSet) -> [UInt32] {
        let out = Tile(capacity: rect.area)
        out.reset(to: rect)
        kernel.render(Destination(out), Sampler(input), level: level)
        return (0..<rect.area).flatMap { i in (0..<4).map { out.pixels[i][$0].bitPattern } }
    }

    @Test(.enabled(if: levels.count > 1, "this machine has no AVX2: only the Swift loop runs"), arguments: shapes)
    func levelsGiveTheSameBits(shape: Morphology.Shape) {
        let (rx, ry) = shape.reach
        for operation in [Morphology.Operation.dilate, .erode] {
            let kernel = Morphology(operation: operation, shape: shape)
            for (index, rect) in [PixelRect(x: 3, y: -2, width: 1, height: 1), PixelRect(x: -5, y: 7, width: 300, height: 9)].enumerated() {
                let input = Self.tile(rect.outset(dx: rx, dy: ry), seed: UInt64(index + 1), specials: true)
                let baseline = Self.render(kernel, input, into: rect, level: .baseline)
                for level in Self.levels.dropFirst() {
                    #expect(Self.render(kernel, input, into: rect, level: level) == baseline, "\(operation) \(shape) over \(rect) at \(level)")
                }
            }
        }
    }

    @Test(arguments: shapes + largeShapes) func eachOutputIsTheExtremumOverTheElement(shape: Morphology.Shape) {
        let (rx, ry) = shape.reach, offsets = Self.offsets(shape)
        let rect = PixelRect(x: 0, y: 0, width: 150, height: 4)
        let input = Self.tile(rect.outset(dx: rx, dy: ry), seed: 9, specials: false)
        for operation in [Morphology.Operation.dilate, .erode] {
            for level in Self.levels {
                let got = Self.render(Morphology(operation: operation, shape: shape), input, into: rect, level: level)
                for y in rect.y..<rect.maxY {
                    for x in rect.x..<rect.maxX {
                        var e = SIMD4<Float>(repeating: operation == .dilate ? -.infinity : .infinity)
                        for (i, j) in offsets {
                            let p = input.pixel(x + i, y + j)
                            e = operation == .dilate ? pointwiseMax(e, p) : pointwiseMin(e, p)
                        }
                        let at = 4 * ((y - rect.y) * rect.width + (x - rect.x))
                        let value = SIMD4<Float>((0..<4).map { Float(bitPattern: got[at + $0]) })
                        guard value == e else {
                            Issue.record("\(operation) \(shape) at \(level), (\(x), \(y)): \(value), not \(e)")
                            return
                        }
                    }
                }
            }
        }
    }
}
