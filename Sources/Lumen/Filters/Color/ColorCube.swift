import LumenPlatform

/// A 3D colour lookup table as Core Image stores one: `dimension`³ RGBA Float32 entries,
/// red index fastest, then green, then blue.
struct ColorCubeTable: Hashable, Sendable {
    let dimension: Int
    let entries: [SIMD4<Float>]

    /// The largest dimension accepted (Core Image's limit is 128 on current systems).
    static let maximumDimension = 128

    /// The table in `data` for a cube of `dimension`; a data size that is a whole cube of
    /// another dimension is taken as that cube when `dimension` is Core Image's default 2
    /// (so `colorCube cubeData=load("film.cube")` needs no dimension).
    init(data: Data, dimension requested: Int, filter: String, key: String = "cubeData") throws {
        var dimension = requested
        let entryCount = data.count / 16
        if requested == 2 && data.count != 128, data.count % 16 == 0 {
            let root = Int(pow(Double(entryCount), 1.0 / 3.0).rounded())
            if root * root * root == entryCount { dimension = root }
        }
        guard (2...Self.maximumDimension).contains(dimension) else {
            throw LumenError.invalidValue(filter: filter, key: "cubeDimension", reason: "\(dimension) is outside 2…\(Self.maximumDimension)")
        }
        let expected = dimension * dimension * dimension * 16
        guard data.count == expected else {
            throw LumenError.invalidValue(filter: filter, key: key,
                                          reason: "\(data.count) bytes; a cube of dimension \(dimension) needs \(expected) (RGBA Float32, red fastest)")
        }
        self.dimension = dimension
        entries = data.withUnsafeBytes { raw in
            (0..<dimension * dimension * dimension).map { i in
                SIMD4((0..<4).map { raw.loadUnaligned(fromByteOffset: (i * 4 + $0) * 4, as: Float.self) })
            }
        }
        guard entries.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && $0.w.isFinite }) else {
            throw LumenError.invalidValue(filter: filter, key: key, reason: "the table holds a value that is not finite")
        }
    }

    /// The identity cube of `dimension` (each entry its own coordinates, alpha 1).
    static func identityData(dimension n: Int) -> Data {
        var floats: [Float] = []
        for b in 0..<n { for g in 0..<n { for r in 0..<n {
            floats += [Float(r) / Float(n - 1), Float(g) / Float(n - 1), Float(b) / Float(n - 1), 1]
        } } }
        return floats.withUnsafeBytes { Data($0) }
    }

    /// Trilinear lookup of an unpremultiplied colour (coordinates clamped to 0…1).
    @inline(__always)
    func lookup(_ c: SIMD3<Float>) -> SIMD4<Float> {
        let n = dimension, top = Float(n - 1)
        let u = lanewiseMin(lanewiseMax(c, .zero), SIMD3(repeating: 1)) * top
        let r0 = min(Int(u.x), n - 2), g0 = min(Int(u.y), n - 2), b0 = min(Int(u.z), n - 2)
        let f = u - SIMD3(Float(r0), Float(g0), Float(b0))
        let base = (b0 * n + g0) * n + r0
        return entries.withUnsafeBufferPointer { e in
            func at(_ dr: Int, _ dg: Int, _ db: Int) -> SIMD4<Float> { e[base + (db * n + dg) * n + dr] }
            let c00 = at(0, 0, 0) + (at(1, 0, 0) - at(0, 0, 0)) * f.x, c10 = at(0, 1, 0) + (at(1, 1, 0) - at(0, 1, 0)) * f.x
            let c01 = at(0, 0, 1) + (at(1, 0, 1) - at(0, 0, 1)) * f.x, c11 = at(0, 1, 1) + (at(1, 1, 1) - at(0, 1, 1)) * f.x
            let c0 = c00 + (c10 - c00) * f.y, c1 = c01 + (c11 - c01) * f.y
            return c0 + (c1 - c0) * f.z
        }
    }
}

/// The colour spaces a cube can be evaluated in (Core Image takes a CGColorSpace).
enum CubeColorSpace: String, CaseIterable, Hashable, Sendable {
    /// The working space: linear-light sRGB primaries.
    case linearSRGB
    /// sRGB-encoded values, as `.cube` files from Resolve, Photoshop or a camera maker expect.
    case sRGB

    init(name: String, filter: String) throws {
        let key = name.lowercased().replacing("_", with: "").replacing(" ", with: "")
        switch key {
        case "srgb", "kcgcolorspacesrgb": self = .sRGB
        case "linear", "linearsrgb", "extendedlinearsrgb", "kcgcolorspacelinearsrgb", "kcgcolorspaceextendedlinearsrgb", "working": self = .linearSRGB
        default:
            throw LumenError.invalidValue(filter: filter, key: "colorSpace", reason: "unknown colour space '\(name)': sRGB or linearSRGB")
        }
    }
}

extension ParameterDescriptor {
    static let cubeData = ParameterDescriptor("cubeData", .data, default: .data(ColorCubeTable.identityData(dimension: 2)),
        "dimension³ RGBA Float32 entries, red fastest (Core Image's layout); a chain can load(\"film.cube\").")
    static let cubeDimension = ParameterDescriptor.number("cubeDimension", .integer, default: 2, min: 2, max: 128,
        "Entries along each axis (2 is read from cubeData's size when it holds another whole cube).")
}

extension FilterDescriptor {

    /// Trilinear lookup of the unpremultiplied working-space (linear) colour, clamped to
    /// 0…1, in a dimension³ table; rgb' = entry.rgb, alpha' = alpha · entry.alpha.
    static let colorCube = FilterDescriptor(
        name: "colorCube", coreImageName: "CIColorCube", category: .colorEffect,
        summary: "Maps colors through a 3D lookup table.",
        details: "Trilinear lookup of clamped unpremultiplied linear RGB; rgb' = entry.rgb, α' = α·entry.α. Use colorCubeWithColorSpace for sRGB .cube files.",
        parameters: [.inputImage, .cubeDimension, .cubeData]
    ) { args in
        let table = try ColorCubeTable(data: args.data("cubeData"), dimension: Int(args.number("cubeDimension").rounded()), filter: "colorCube")
        return try args.image("image").applyingColor(ColorCubeOperation(table: table, space: .linearSRGB))
    }

    /// As colorCube, with the colour converted to `colorSpace` before the lookup and the
    /// entry converted back: "sRGB" for tables made on encoded values (.cube LUT files),
    /// "linearSRGB" for the working space.
    static let colorCubeWithColorSpace = FilterDescriptor(
        name: "colorCubeWithColorSpace", coreImageName: "CIColorCubeWithColorSpace", category: .colorEffect,
        summary: "Maps colors through a 3D lookup table made in a given color space.",
        details: "colour → colorSpace (sRGB-encoded or linear), trilinear lookup, entry → working space; α' = α·entry.α.",
        parameters: [.inputImage, .cubeDimension, .cubeData,
                     ParameterDescriptor("colorSpace", .string, default: .string("sRGB"), "sRGB (encoded values) or linearSRGB.")]
    ) { args in
        guard case let .string(name)? = args.values["colorSpace"] else { preconditionFailure() }
        let space = try CubeColorSpace(name: name, filter: "colorCubeWithColorSpace")
        let table = try ColorCubeTable(data: args.data("cubeData"), dimension: Int(args.number("cubeDimension").rounded()), filter: "colorCubeWithColorSpace")
        return try args.image("image").applyingColor(ColorCubeOperation(table: table, space: space))
    }

    /// Both cubes looked up (in colorSpace) and blended by the mask's Rec. 709 luma:
    /// mix(cube0(c), cube1(c), clamp(luma(mask), 0, 1)).
    static let colorCubesMixedWithMask = FilterDescriptor(
        name: "colorCubesMixedWithMask", coreImageName: "CIColorCubesMixedWithMask", category: .colorEffect,
        summary: "Blends two 3D lookup tables by a mask.",
        details: "out = mix(cube0(c), cube1(c), clamp(luma(mask))) with both lookups as colorCubeWithColorSpace.",
        parameters: [.inputImage, ParameterDescriptor("maskImage", .image, "Where cube1 applies (white) instead of cube0 (black)."),
                     .cubeDimension,
                     ParameterDescriptor("cube0Data", .data, default: .data(ColorCubeTable.identityData(dimension: 2)), "The table where the mask is black."),
                     ParameterDescriptor("cube1Data", .data, default: .data(ColorCubeTable.identityData(dimension: 2)), "The table where the mask is white."),
                     ParameterDescriptor("colorSpace", .string, default: .string("sRGB"), "sRGB (encoded values) or linearSRGB.")]
    ) { args in
        guard case let .string(name)? = args.values["colorSpace"] else { preconditionFailure() }
        let space = try CubeColorSpace(name: name, filter: "colorCubesMixedWithMask")
        let n = Int(args.number("cubeDimension").rounded())
        let t0 = try ColorCubeTable(data: args.data("cube0Data"), dimension: n, filter: "colorCubesMixedWithMask", key: "cube0Data")
        let t1 = try ColorCubeTable(data: args.data("cube1Data"), dimension: n, filter: "colorCubesMixedWithMask", key: "cube1Data")
        let image = try args.image("image")
        return CubesMixedWithMask(cube0: ColorCubeOperation(table: t0, space: space), cube1: ColorCubeOperation(table: t1, space: space))
            .apply(to: [image, try args.image("maskImage")])
    }
}

struct ColorCubeOperation: ColorOperation {
    let table: ColorCubeTable
    let space: CubeColorSpace
    var name: String { "colorCube" }
    var preservesAlpha: Bool { table.entries.allSatisfy { $0.w == 1 } }

    @inline(__always)
    func map(_ p: SIMD4<Float>) -> SIMD4<Float> {
        switch space {
        case .linearSRGB:
            let e = table.lookup(SIMD3(p.x, p.y, p.z))
            return SIMD4(e.x, e.y, e.z, p.w * e.w)
        case .sRGB:
            func encode(_ v: Float) -> Float { TransferFunction.srgbMirrored(fromLinear: max(0, v)) }
            let decode = TransferFunction.linearMirrored(fromSRGB:)
            let e = table.lookup(SIMD3(encode(p.x), encode(p.y), encode(p.z)))
            return SIMD4(decode(e.x), decode(e.y), decode(e.z), p.w * e.w)
        }
    }

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count { row[i] = map(row[i]) }
    }
}

/// Two cubes blended per pixel by a mask's luma (premultiplied in and out).
struct CubesMixedWithMask: ImageKernel {
    let cube0: ColorCubeOperation
    let cube1: ColorCubeOperation
    var name: String { "colorCubesMixedWithMask" }

    func render(_ destination: Destination, inputs: [Sampler]) {
        destination.forEachRow { y, row, count in
            let source = inputs[0].row(y, from: destination.rect.x), mask = inputs[1].row(y, from: destination.rect.x)
            for i in 0..<count {
                let p = source[i]
                let c = p.w > 0 ? SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w) : .zero
                let t = min(1, max(0, (mask[i] * lumaWeights).sum()))
                let a = cube0.map(c), b = cube1.map(c)
                let o = a + (b - a) * t
                row[i] = SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
            }
        }
    }
}
