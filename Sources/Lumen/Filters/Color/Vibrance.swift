extension FilterDescriptor {
    /// rgb' = l + (rgb − l)·(1 + amount·(1 − s)), l = Rec. 709 luma, s = max − min of the
    /// (clamped) color: less saturated colors change most, grays not at all.
    static let vibrance = FilterDescriptor(
        name: "vibrance", coreImageName: "CIVibrance", category: .colorAdjustment,
        summary: "Boosts the saturation of dull colors more than of vivid ones.",
        details: "rgb' = l + (rgb − l)·(1 + amount·(1 − s)); l luma, s = max − min (clamped 0…1).",
        parameters: [.inputImage, .number("amount", default: 0, min: -1, max: 1, identity: 0, "−1 … 1; 0 unchanged.")]
    ) { args in
        let image = try args.image("image"), amount = args.float("amount")
        return amount == 0 ? image : image.applyingColor(Vibrance(amount: amount))
    }
}

struct Vibrance: ColorOperation {
    var name: String { "vibrance" }
    let amount: Float

    func apply(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = row[i]
            let l = (p * lumaWeights).sum()
            let s = min(1, max(0, max(p.x, p.y, p.z) - min(p.x, p.y, p.z)))
            let k = 1 + amount * (1 - s)
            row[i] = SIMD4(l + (p.x - l) * k, l + (p.y - l) * k, l + (p.z - l) * k, p.w)
        }
    }
}
