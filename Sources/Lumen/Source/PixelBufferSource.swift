import LumenPlatform

/// Pixels held in memory (a caller's bitmap, Core Image's `CIImage(bitmapData:…)`):
/// premultiplied linear RGBA, rows from the bottom, at `origin`. Its identity is a digest
/// of the pixels, so equal buffers give equal recipes and a changed buffer a new one.
struct PixelBufferSource: ImageKernel {
    /// The caller's pixels, shared with its array, not copied (a 16 MP buffer is 256 MB).
    /// Renders read views of them (`lend`): `base` is the array's storage, which stays where
    /// it is while this object holds the array — a `let` never mutated, in a class every
    /// view keeps alive — and the views only read.
    final class Storage: @unchecked Sendable {
        private let array: [SIMD4<Float>]
        let base: UnsafeMutablePointer<SIMD4<Float>>
        init(_ pixels: [SIMD4<Float>]) {
            precondition(!pixels.isEmpty, "no pixels")  // `Image(workingSpacePixels:…)` checks
            array = pixels
            base = UnsafeMutablePointer(mutating: array.withUnsafeBufferPointer { $0.baseAddress! })
        }
    }

    let width: Int, height: Int
    let digest: [UInt64]
    let opaque: Bool
    /// Whether the pixels were converted from stored values through a colour space (false:
    /// they are the caller's values themselves, which no colour management touches).
    let colorManaged: Bool
    private let storage: DeterminedByIdentity<Storage>

    /// The pixels in memory, kept alive by whatever keeps this source's identity.
    var retainedBytes: Int { width * height * MemoryLayout<SIMD4<Float>>.stride }

    init(pixels: [SIMD4<Float>], width: Int, height: Int, colorManaged: Bool = true) {
        self.width = width
        self.height = height
        self.colorManaged = colorManaged
        storage = DeterminedByIdentity(Storage(pixels))
        opaque = pixels.allSatisfy { $0.w >= 1 }
        digest = Self.digest(pixels)
    }

    /// FNV-1a over the bit patterns, in four interleaved lanes (fast, and stable across runs).
    static func digest(_ pixels: [SIMD4<Float>]) -> [UInt64] {
        var lanes: [UInt64] = [0xcbf29ce484222325, 0x84222325cbf29ce4, 0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f]
        for p in pixels {
            for k in 0..<4 { lanes[k] = (lanes[k] ^ UInt64(p[k].bitPattern)) &* 0x100000001b3 }
        }
        return lanes + [UInt64(pixels.count)]
    }

    var name: String { "pixels \(width)×\(height)" }
    var cachePolicy: CachePolicy { .never }
    func extent(inputs: [Rect]) -> Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }
    func isOpaque(inputs: [Image]) -> Bool { opaque }

    /// Row spans copied whole (a per-pixel bounds test cost a third of a resize from memory).
    /// Renders seldom come here: inside the extent they read the pixels in place (`lend`).
    func render(_ output: Destination, inputs: [Sampler]) {
        let r = output.rect
        let first = max(r.x, 0), end = min(r.maxX, width)
        let pixels = storage.value.base
        output.forEachRow { y, row, count in
            guard y >= 0, y < height, first < end else { row.update(repeating: .zero, count: count); return }
            row.update(repeating: .zero, count: first - r.x)
            (row + (first - r.x)).update(from: pixels + (y * width + first), count: end - first)
            (row + (end - r.x)).update(repeating: .zero, count: r.maxX - end)
        }
    }
}

extension PixelBufferSource: LendsPixels {
    /// Copying the pixels into tiles took 28 % of a 16 MP resize from memory (I9).
    func lend(_ rect: PixelRect) -> Tile? {
        guard rect.x >= 0, rect.y >= 0, rect.maxX <= width, rect.maxY <= height, !rect.isEmpty else { return nil }
        let storage = storage.value
        return Tile(viewing: storage.base + (rect.y * width + rect.x), stride: width, rect: rect, owner: storage)
    }
}

extension Image {
    /// An image of pixels in memory: `pixels` are premultiplied linear RGBA (the working
    /// space), `width × height` of them, rows from the bottom; the extent is
    /// [0, 0, width, height]. The pixels are copied into the recipe.
    ///
    /// `colorManaged` false marks values that came with no colour space (Core Image's
    /// `colorSpace: nil`): `unmanaged()` leaves them as they are.
    public init(workingSpacePixels pixels: [SIMD4<Float>], width: Int, height: Int, colorManaged: Bool = true) throws {
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20, pixels.count == width * height else {
            throw LumenError.invalidValue(filter: "pixels", key: "width",
                                          reason: "\(pixels.count) pixels do not fill \(width)×\(height) (each side 1…1048576)")
        }
        self = PixelBufferSource(pixels: pixels, width: width, height: height, colorManaged: colorManaged).apply()
    }

    /// An image of a rendered bitmap (rows from the top): 8- and 16-bit samples are
    /// unpremultiplied sRGB, float samples the working space, as `Bitmap` documents.
    public init(bitmap: Bitmap) throws {
        var pixels = [SIMD4<Float>](repeating: .zero, count: bitmap.width * bitmap.height)
        let scale: Float = bitmap.format == .rgba8 ? 255 : 65535
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x: x, row: row)
                let y = bitmap.height - 1 - row
                switch bitmap.format {
                case .rgbaFloat:
                    pixels[y * bitmap.width + x] = p
                case .rgba8, .rgba16:
                    let a = p.w / scale
                    func linear(_ v: Float) -> Float { Float(TransferFunction.linear(fromSRGB: Double(v / scale))) }
                    pixels[y * bitmap.width + x] = SIMD4(linear(p.x) * a, linear(p.y) * a, linear(p.z) * a, a)
                }
            }
        }
        try self.init(workingSpacePixels: pixels, width: bitmap.width, height: bitmap.height)
    }
}

extension Image {
    /// The same recipe with every source — a file, encoded bytes or pixels in memory —
    /// replaced by `transform(source)`. Walks the graph without recursion, so recipes of
    /// any depth are safe. (LumenCoreImage uses it for a context without colour
    /// management: sources then keep their stored values.)
    public func mappingSources(_ transform: (Image) -> Image) -> Image {
        mappingLeaves { node in
            node.kernel is SourceKernel || node.kernel is PixelBufferSource ? transform(Image(node)) : nil
        }
    }

    /// The recipe as a context without colour management renders it (Core Image's
    /// `workingColorSpace: NSNull()`): files, colour-managed pixel buffers and constant
    /// colours give their stored values (sRGB codes, colour components) as they are,
    /// instead of the linear light they stand for; pixels that came with no colour space
    /// were stored values already and stay.
    public func unmanaged() -> Image {
        mappingLeaves { node in
            let stored: Bool
            switch node.kernel {
            case is SourceKernel, is ConstantColor: stored = true
            case let buffer as PixelBufferSource: stored = buffer.colorManaged
            default: stored = false
            }
            return stored ? Image(node).applyingColor(SRGBCurve(encoding: true, exact: true)) : nil
        }
    }

    /// The same recipe with each node `replacement` gives a new image for replaced by it
    /// (its inputs are not visited). Walks without recursion.
    private func mappingLeaves(_ replacement: (ImageNode) -> Image?) -> Image {
        var done: [ObjectIdentifier: ImageNode] = [:]
        var stack: [(ImageNode, Bool)] = [(node, false)]
        while let (current, expanded) = stack.popLast() {
            let id = ObjectIdentifier(current)
            if done[id] != nil { continue }
            if let replaced = replacement(current) {
                done[id] = replaced.node
                continue
            }
            if !expanded {
                stack.append((current, true))
                for input in current.inputs where done[ObjectIdentifier(input)] == nil { stack.append((input, false)) }
                continue
            }
            let inputs = current.inputs.map { done[ObjectIdentifier($0)]! }
            let changed = zip(inputs, current.inputs).contains { $0 !== $1 }
            done[id] = changed ? current.replacingInputs(inputs) : current
        }
        return Image(done[ObjectIdentifier(node)]!)
    }
}
