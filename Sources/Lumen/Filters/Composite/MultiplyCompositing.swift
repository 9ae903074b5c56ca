extension FilterDescriptor {
    /// Porter–Duff: S·D; extent = S ∩ D (premultiplied).
    static let multiplyCompositing = compositing(
        "multiplyCompositing", "CIMultiplyCompositing", summary: "Multiplies the images (all four components).", formula: "S·D; extent = S ∩ D (premultiplied)",
        operation: PorterDuff(name: "multiplyCompositing", extentRule: { s, b in s.intersection(b) }) { s, d in s * d })
}
