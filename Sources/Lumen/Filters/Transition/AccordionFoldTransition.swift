import LumenPlatform

extension FilterDescriptor {
    /// The source folds up like an accordion towards its bottom while the target unfolds
    /// in the space it leaves: the source is squeezed into the top (1 − t) of its height
    /// (plus `bottomHeight` pixels kept flat at the bottom of the fold), shaded by
    /// `foldShadowAmount`·|sin| over `numberOfFolds` folds; the target shows elsewhere.
    static let accordionFoldTransition = transition(
        "accordionFoldTransition", "CIAccordionFoldTransition", summary: "Folds the image away like an accordion, revealing the target.",
        details: "Source row v maps from y' = top − (top − y)/(1 − t) within the folded band; shade = 1 − amount·|sin(π·folds·v)|; outside the band the target.",
        parameters: [
            .number("bottomHeight", .distance, default: 0, min: 0, "Height kept flat at the bottom of the fold, pixels."),
            .number("numberOfFolds", default: 3, min: 1, max: 50, "How many folds."),
            .number("foldShadowAmount", default: 0.1, min: 0, max: 1, "Darkness of the folds."),
        ]
    ) { args, t in
        let box = PixelRect(covering: try args.image("image").extent)
        guard box != .unbounded else {
            throw LumenError.invalidValue(filter: "accordionFoldTransition", key: "image", reason: "needs a finite extent")
        }
        return AccordionFold(time: t, box: box, bottomHeight: args.float("bottomHeight"), folds: args.float("numberOfFolds"),
                             shadow: args.float("foldShadowAmount"))
    }
}

struct AccordionFold: TransitionKernel {
    let time: Float
    /// The source image's pixels (the fold's frame).
    let box: PixelRect
    let bottomHeight: Float, folds: Float, shadow: Float
    var name: String { "accordionFoldTransition" }

    /// Folded rows come from anywhere in the source's height.
    func sourceRegion(for rect: PixelRect) -> PixelRect {
        rect.union(PixelRect(x: rect.x, y: box.y, width: rect.width, height: box.height))
    }

    func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, x: Int, y: Int, count: Int, source: Sampler, target: Sampler) {
        let top = Float(box.maxY), height = Float(box.height)
        let folded = max(1, (height - bottomHeight) * (1 - time)) + bottomHeight
        let py = Float(y) + 0.5
        guard py > top - folded, box.height > 0 else {
            for i in 0..<count { out[i] = target.pixel(x + i, y) }
            return
        }
        // Position within the source, 0 at the top edge to 1 at the bottom.
        let v = min(1, (top - py) / folded)
        let sy = Int((top - v * height - 0.5).rounded(.down))
        let shade = 1 - shadow * abs(sinf(.pi * folds * v))
        for i in 0..<count {
            let s = source.pixelOrClear(x + i, min(max(sy, box.y), box.maxY - 1))
            let g = target.pixel(x + i, y)
            let page = SIMD4(s.x * shade, s.y * shade, s.z * shade, s.w)
            out[i] = page + g * (1 - page.w)
        }
    }
}
