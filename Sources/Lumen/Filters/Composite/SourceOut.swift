extension FilterDescriptor {
    /// Porter–Duff: S·(1 − αD); extent = S (premultiplied).
    static let sourceOut = compositing(
        "sourceOut", "CISourceOutCompositing", summary: "Keeps the source where the background is not.", formula: "S·(1 − αD); extent = S (premultiplied)",
        operation: PorterDuff(name: "sourceOut", extentRule: { s, _ in s }) { s, d in s * (1 - d.w) })
}
