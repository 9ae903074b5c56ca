import LumenPlatform

/// Read access to the pixels of one kernel input: a rectangle (`rect`, at least the
/// region of interest the kernel asked for) of linear-light, premultiplied RGBA Float32.
/// Coordinates are absolute pixels of the image, y up; pixel (x, y) covers
/// [x, x+1) × [y, y+1), so its centre is (x + 0.5, y + 0.5).
public struct Sampler {
    let tile: Tile

    init(_ tile: Tile) { self.tile = tile }

    /// The pixels this sampler holds.
    public var rect: PixelRect { tile.rect }

    /// Pixels from one row's start to the next's.
    var stride: Int { tile.stride }

    /// Row `y`, starting at pixel `rect.x` (valid for `rect.width` pixels).
    @inline(__always)
    public func row(_ y: Int) -> UnsafePointer<SIMD4<Float>> { UnsafePointer(tile.row(y)) }

    /// Row `y`, starting at pixel `x` (which must lie inside `rect`).
    @inline(__always)
    public func row(_ y: Int, from x: Int) -> UnsafePointer<SIMD4<Float>> { UnsafePointer(tile.row(y) + (x - tile.rect.x)) }

    /// The pixel at (x, y), which must lie inside `rect`.
    @inline(__always)
    public func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> { tile.pixel(x, y) }

    /// The pixel at (x, y), or transparent black outside `rect`.
    @inline(__always)
    public func pixelOrClear(_ x: Int, _ y: Int) -> SIMD4<Float> { tile.pixelOrClear(x, y) }

    /// The input at a continuous position (pixel centres at +0.5), filtered; transparent
    /// black outside `rect`.
    public func sample(at point: SIMD2<Double>, filter: SamplingFilter = .linear) -> SIMD4<Float> {
        switch filter {
        case .nearest:
            return tile.pixelOrClear(Int(point.x.rounded(.down)), Int(point.y.rounded(.down)))
        case .linear:
            return bilinear(point.x - 0.5, point.y - 0.5)
        case let .resampling(kernel):
            return resampled(point, kernel: kernel)
        }
    }

    /// Bilinear sample at (u, v) in pixel-index units (pixel centres at integers).
    @inline(__always)
    func bilinear(_ u: Double, _ v: Double) -> SIMD4<Float> {
        guard u > -2, v > -2, u < 1e9, v < 1e9 else { return .zero }
        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
        let fx = Float(u - Double(x0)), fy = Float(v - Double(y0))
        let top = tile.pixelOrClear(x0, y0) * (1 - fx) + tile.pixelOrClear(x0 + 1, y0) * fx
        let bottom = tile.pixelOrClear(x0, y0 + 1) * (1 - fx) + tile.pixelOrClear(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// A separable windowed sample: Σ w(x − xᵢ)·w(y − yⱼ)·pᵢⱼ over the kernel's support,
    /// normalized by the weights' sum.
    private func resampled(_ point: SIMD2<Double>, kernel: ResamplingKernel) -> SIMD4<Float> {
        let u = point.x - 0.5, v = point.y - 0.5
        guard u.magnitude < 1e9, v.magnitude < 1e9 else { return .zero }
        let reach = Int(kernel.radius)
        let x0 = Int(u.rounded(.down)) - reach + 1, y0 = Int(v.rounded(.down)) - reach + 1
        var sum = SIMD4<Float>.zero, total: Double = 0
        for j in 0..<(2 * reach) {
            let wy = kernel.weight(Double(y0 + j) - v)
            guard wy != 0 else { continue }
            for i in 0..<(2 * reach) {
                let w = wy * kernel.weight(Double(x0 + i) - u)
                sum += tile.pixelOrClear(x0 + i, y0 + j) * Float(w)
                total += w
            }
        }
        return total != 0 ? sum / Float(total) : .zero
    }
}

/// How a sampler reads between pixel centres.
public enum SamplingFilter: Hashable, Sendable {
    /// The pixel containing the position.
    case nearest
    /// Bilinear interpolation of the four nearest pixel centres.
    case linear
    /// A windowed kernel (Lanczos-3, or a Mitchell–Netravali cubic).
    case resampling(ResamplingKernel)
}

/// The rectangle of output a kernel fills: linear-light, premultiplied RGBA Float32,
/// absolute coordinates, y up.
public struct Destination {
    let tile: Tile

    init(_ tile: Tile) { self.tile = tile }

    /// The pixels to fill.
    public var rect: PixelRect { tile.rect }

    /// Row `y` of the output, starting at pixel `rect.x` (`rect.width` pixels).
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> { tile.row(y) }

    /// Pixels from one output row's start to the next's (at least `rect.width`: the
    /// output may be part of a larger kept buffer).
    var stride: Int { tile.stride }

    /// Calls `body(y, row, width)` for every row, bottom to top.
    @inline(__always)
    public func forEachRow(_ body: (Int, UnsafeMutablePointer<SIMD4<Float>>, Int) throws -> Void) rethrows {
        let r = tile.rect
        for y in r.y..<r.maxY { try body(y, tile.row(y), r.width) }
    }

    /// Copies the part of `source` that overlaps the output (same coordinates).
    public func copy(from source: Sampler) { tile.copy(from: source.tile) }
}
