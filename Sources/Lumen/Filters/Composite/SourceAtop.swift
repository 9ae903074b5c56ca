extension FilterDescriptor {
    /// Porter–Duff: S·αD + D·(1 − αS); extent = D (premultiplied).
    static let sourceAtop = compositing(
        "sourceAtop", "CISourceAtopCompositing", summary: "The source over the background, only where the background is.", formula: "S·αD + D·(1 − αS); extent = D (premultiplied)",
        operation: PorterDuff(name: "sourceAtop", extentRule: { _, b in b }) { s, d in s * d.w + d * (1 - s.w) })
}
