import CKernels
import LumenPlatform

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
    /// The line's groups (`groups(alongRows:)`), worked out by the first tile and kept for
    /// the rest: at radius 2000 that is 16,000 dictionary updates a tile. It follows from
    /// radius and angle, so it takes no part in equality, hashing or listings.
    private let kept = DeterminedByIdentity(LockedValue<[Group]?>(nil))

    init(radius: Double, angle: Double) { (self.radius, self.angle) = (radius, angle) }

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

    /// The line's samples as one sparse kernel: a pixel's k-th sample lies at the same
    /// fraction past a pixel corner for every pixel, so the 2n+1 bilinear samples are a
    /// fixed set of taps (dx, dy, weight), merged where they share a pixel. Taps under
    /// 10⁻¹² (what cos π/2 leaves) are dropped.
    func taps() -> [(dx: Int, dy: Int, weight: Float)] {
        let (c, s) = (cos(angle), sin(angle)), n = Double(2 * reach + 1)
        var merged: [SIMD2<Int>: Double] = [:]
        for k in -reach...reach {
            let u = Double(k) * c, v = Double(k) * s
            let x0 = u.rounded(.down), y0 = v.rounded(.down)
            let fx = u - x0, fy = v - y0, ix = Int(x0), iy = Int(y0)
            merged[SIMD2(ix, iy), default: 0] += (1 - fx) * (1 - fy) / n
            merged[SIMD2(ix + 1, iy), default: 0] += fx * (1 - fy) / n
            merged[SIMD2(ix, iy + 1), default: 0] += (1 - fx) * fy / n
            merged[SIMD2(ix + 1, iy + 1), default: 0] += fx * fy / n
        }
        return merged.filter { $0.value > 1e-12 }.map { (dx: $0.key.x, dy: $0.key.y, weight: Float($0.value)) }
            .sorted { ($0.dy, $0.dx) < ($1.dy, $1.dx) }
    }

    typealias Group = (offset: Int, first: Int, weights: [Float])

    /// The taps grouped by row offset (along rows) or column offset, with the weights over
    /// their span of the other offset (zeros where the line skips a pixel), in offset order.
    private func groups(alongRows: Bool) -> [Group] {
        if let groups = kept.value.withLock({ $0 }) { return groups }
        let groups = Dictionary(grouping: taps()) { alongRows ? $0.dy : $0.dx }.map { key, members in
            let offsets = members.map { alongRows ? $0.dx : $0.dy }
            let first = offsets.min()!, last = offsets.max()!
            var weights = [Float](repeating: 0, count: last - first + 1)
            for member in members { weights[(alongRows ? member.dx : member.dy) - first] += member.weight }
            return (offset: key, first: first, weights: weights)
        }.sorted { $0.offset < $1.offset }
        kept.value.withLock { $0 = groups }
        return groups
    }

    /// Mostly horizontal lines are a 1-D convolution along each row they cross, mostly
    /// vertical ones along each column (the AVX2 loops of `SeparableKernel`); an axis-
    /// aligned line, whose taps are all equal, is a box: a running sum, whatever the radius.
    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect
        let alongRows = abs(cos(angle)) >= abs(sin(angle)), groups = groups(alongRows: alongRows)
        if groups.count == 1, let only = groups.first, only.weights.allSatisfy({ $0 == only.weights[0] }) {
            return box(output, input, offset: only.offset, first: only.first, length: only.weights.count,
                       weight: only.weights[0], alongRows: alongRows)  // writes every pixel
        }
        for y in r.y..<r.maxY { output.row(y).update(repeating: .zero, count: r.width) }  // the groups add into it
        withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: r.width) { line in
            let line = line.baseAddress!
            for group in groups {
                group.weights.withUnsafeBufferPointer { w in
                    if alongRows {
                        for y in r.y..<r.maxY {
                            SeparableKernel.convolveRow(input.row(y + group.offset, from: r.x + group.first), weights: w, into: line, count: r.width)
                            let out = output.row(y)
                            for i in 0..<r.width { out[i] += line[i] }
                        }
                    } else {
                        withUnsafeTemporaryAllocation(of: UnsafePointer<SIMD4<Float>>.self, capacity: w.count) { rows in
                            for y in r.y..<r.maxY {
                                for j in 0..<w.count { rows[j] = input.row(y + group.first + j, from: r.x + group.offset) }
                                SeparableKernel.convolveColumns(rows: UnsafeBufferPointer(rows), weights: w, into: line, count: r.width)
                                let out = output.row(y)
                                for i in 0..<r.width { out[i] += line[i] }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Equal taps along a row or a column: each output is the previous one plus the pixel
    /// entering the window minus the one leaving it, summed in Double so the error does
    /// not grow along the line.
    private func box(_ output: Destination, _ input: Sampler, offset: Int, first: Int, length: Int, weight: Float, alongRows: Bool) {
        let r = output.rect, scale = Double(weight)
        if alongRows {
            let sources = (r.y..<r.maxY).map { input.row($0 + offset, from: r.x + first) }, outs = (r.y..<r.maxY).map { output.row($0) }
            return Self.boxRows(sources, into: outs, count: r.width, length: length, scale: scale)
        }
        withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: r.width) { sums in
            let sums = sums.baseAddress!
            sums.initialize(repeating: .zero, count: r.width)
            for j in 0..<length { Self.boxAccumulate(sums, entering: input.row(r.y + first + j, from: r.x + offset), leaving: nil, count: r.width) }
            for y in r.y..<r.maxY {
                if y > r.y {
                    Self.boxAccumulate(sums, entering: input.row(y + first + length - 1, from: r.x + offset),
                                       leaving: input.row(y + first - 1, from: r.x + offset), count: r.width)
                }
                Self.boxStore(sums, scale: scale, into: output.row(y), count: r.width)
            }
        }
    }

    /// The box along rows: out[k][i] = (Σ_{j < length} sources[k][i + j]) · scale, the sum a
    /// running one in double (the window's first sum, then one pixel in and one out). Above
    /// the baseline, CKernels_boxRows: the same operations in the same order, the same bits
    /// (`VectorKernelTests`).
    static func boxRows(_ sources: [UnsafePointer<SIMD4<Float>>], into outs: [UnsafeMutablePointer<SIMD4<Float>>],
                        count: Int, length: Int, scale: Double, level: InstructionSet = .current) {
        guard count > 0, length > 0 else { return }
        if level > .baseline {
            return sources.withUnsafeBufferPointer { s in
                outs.withUnsafeBufferPointer { o in
                    let floats = UnsafeRawPointer(s.baseAddress!).assumingMemoryBound(to: UnsafePointer<Float>?.self)
                    let outFloats = UnsafeRawPointer(o.baseAddress!).assumingMemoryBound(to: UnsafeMutablePointer<Float>?.self)
                    CKernels_boxRows(level.cLevel, floats, outFloats, sources.count, count, length, scale)
                }
            }
        }
        for (source, out) in zip(sources, outs) {
            var sum = SIMD4<Double>.zero
            for j in 0..<length { sum += SIMD4<Double>(source[j]) }
            for i in 0..<count {
                if i > 0 { sum += SIMD4<Double>(source[i + length - 1]) - SIMD4<Double>(source[i - 1]) }
                out[i] = SIMD4<Float>(sum * scale)
            }
        }
    }

    /// sums[i] += entering[i] − leaving[i] (leaving nil: + entering[i]), in double.
    static func boxAccumulate(_ sums: UnsafeMutablePointer<SIMD4<Double>>, entering: UnsafePointer<SIMD4<Float>>,
                              leaving: UnsafePointer<SIMD4<Float>>?, count: Int, level: InstructionSet = .current) {
        if level > .baseline {
            let e = UnsafeRawPointer(entering).assumingMemoryBound(to: Float.self)
            let l = leaving.map { UnsafeRawPointer($0).assumingMemoryBound(to: Float.self) }
            return CKernels_boxAccumulate(level.cLevel, UnsafeMutableRawPointer(sums).assumingMemoryBound(to: Double.self), e, l, count)
        }
        if let leaving {
            for i in 0..<count { sums[i] += SIMD4<Double>(entering[i]) - SIMD4<Double>(leaving[i]) }
        } else {
            for i in 0..<count { sums[i] += SIMD4<Double>(entering[i]) }
        }
    }

    /// out[i] = sums[i] · scale, rounded to float.
    static func boxStore(_ sums: UnsafePointer<SIMD4<Double>>, scale: Double, into out: UnsafeMutablePointer<SIMD4<Float>>,
                         count: Int, level: InstructionSet = .current) {
        if level > .baseline {
            return CKernels_boxStore(level.cLevel, UnsafeRawPointer(sums).assumingMemoryBound(to: Double.self), scale,
                                     UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self), count)
        }
        for i in 0..<count { out[i] = SIMD4<Float>(sums[i] * scale) }
    }
}
