extension FilterDescriptor {
    /// Porter–Duff: S·αD; extent = S ∩ D (premultiplied).
    static let sourceIn = compositing(
        "sourceIn", "CISourceInCompositing", summary: "Keeps the source where the background is.", formula: "S·αD; extent = S ∩ D (premultiplied)",
        operation: PorterDuff(name: "sourceIn", extentRule: { s, b in s.intersection(b) }) { s, d in s * d.w })
}
