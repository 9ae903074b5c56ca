/// A PDF-style blend mode: B(Cb, Cs) on unpremultiplied colors, composited with the PDF
/// rule co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb − αs·αb
/// (cs, cb premultiplied). Inputs are clamped to 0…1 before B, as in PDF.
struct BlendMode: CompositeOperation {
    let name: String
    /// B for one pixel: background and source unpremultiplied RGB (alpha ignored) → result
    /// RGB; fixed by the mode's name.
    let blend: DeterminedByIdentity<@Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>>

    func apply(source: UnsafePointer<SIMD4<Float>>, background: UnsafePointer<SIMD4<Float>>,
               into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let zero = SIMD4<Float>.zero, one = SIMD4<Float>(repeating: 1), blend = self.blend.value
        for i in 0..<count {
            let s = source[i], b = background[i]
            let cs = s.w > 0 ? (s / s.w).lanewiseClamped(zero, one) : zero
            let cb = b.w > 0 ? (b / b.w).lanewiseClamped(zero, one) : zero
            var mixed = s * (1 - b.w) + b * (1 - s.w) + blend(cb, cs) * (s.w * b.w)
            mixed.w = s.w + b.w - s.w * b.w
            out[i] = mixed
        }
    }
}

/// A Porter–Duff operator on premultiplied colors with its own extent rule.
struct PorterDuff: CompositeOperation {
    let name: String
    /// The extent rule and the per-pixel formula, fixed by the operator's name.
    let extentRule: DeterminedByIdentity<@Sendable (Rect, Rect) -> Rect>
    let combine: DeterminedByIdentity<@Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>>

    init(name: String, extentRule: @escaping @Sendable (Rect, Rect) -> Rect,
         _ combine: @escaping @Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>) {
        self.name = name
        self.extentRule = DeterminedByIdentity(extentRule)
        self.combine = DeterminedByIdentity(combine)
    }

    func extent(source: Rect, background: Rect) -> Rect { extentRule.value(source, background) }

    func apply(source: UnsafePointer<SIMD4<Float>>, background: UnsafePointer<SIMD4<Float>>,
               into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let combine = self.combine.value
        for i in 0..<count { out[i] = combine(source[i], background[i]) }
    }
}

extension FilterDescriptor {
    /// The declaration every two-image compositing filter shares (`inputImage` over
    /// `inputBackgroundImage`).
    static func compositing(_ name: String, _ coreImageName: String, summary: String, formula: String,
                            operation: some CompositeOperation) -> FilterDescriptor {
        FilterDescriptor(name: name, coreImageName: coreImageName, category: .compositeOperation,
                         summary: summary, details: formula, parameters: [.inputImage, .backgroundImage]) { args in
            operation.apply(to: [try args.image("image"), try args.image("backgroundImage")])
        }
    }

    /// A PDF blend mode filter; `formula` documents B(Cb, Cs).
    static func blendMode(_ name: String, _ coreImageName: String, summary: String, formula: String,
                          _ blend: @escaping @Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>) -> FilterDescriptor {
        compositing(name, coreImageName, summary: summary,
                    formula: "B(Cb, Cs) = \(formula), unpremultiplied and clamped to 0…1, composited by the PDF rule; extent = union.",
                    operation: BlendMode(name: name, blend: DeterminedByIdentity(blend)))
    }
}

/// Per-channel select: where `mask` is true take `a`, else `b`.
@inline(__always)
func select(_ mask: SIMDMask<SIMD4<Int32>>, _ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    b.replacing(with: a, where: mask)
}

/// PDF luminosity (0.30, 0.59, 0.11) and the SetLum/ClipColor/SetSat helpers for the
/// non-separable modes.
enum NonSeparable {
    @inline(__always) static func lum(_ c: SIMD4<Float>) -> Float { 0.30 * c.x + 0.59 * c.y + 0.11 * c.z }
    @inline(__always) static func sat(_ c: SIMD4<Float>) -> Float { max(c.x, c.y, c.z) - min(c.x, c.y, c.z) }

    static func clip(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let l = lum(c), n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
        var r = c
        if n < 0 { r = SIMD4(repeating: l) + (r - SIMD4(repeating: l)) * (l / (l - n)) }
        if x > 1 { r = SIMD4(repeating: l) + (r - SIMD4(repeating: l)) * ((1 - l) / (x - l)) }
        return r
    }

    static func setLum(_ c: SIMD4<Float>, _ l: Float) -> SIMD4<Float> { clip(c + SIMD4(repeating: l - lum(c))) }

    static func setSat(_ c: SIMD4<Float>, _ s: Float) -> SIMD4<Float> {
        var v = [c.x, c.y, c.z]
        let order = [0, 1, 2].sorted { v[$0] < v[$1] }
        let (lo, mid, hi) = (order[0], order[1], order[2])
        if v[hi] > v[lo] {
            v[mid] = (v[mid] - v[lo]) * s / (v[hi] - v[lo])
            v[hi] = s
        } else {
            v[mid] = 0
            v[hi] = 0
        }
        v[lo] = 0
        return SIMD4(v[0], v[1], v[2], 0)
    }
}
