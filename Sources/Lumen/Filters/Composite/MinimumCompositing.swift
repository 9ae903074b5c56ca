extension FilterDescriptor {
    /// Porter–Duff: min(S, D); extent = S ∩ D (premultiplied).
    static let minimumCompositing = compositing(
        "minimumCompositing", "CIMinimumCompositing", summary: "The smaller of each component.", formula: "min(S, D); extent = S ∩ D (premultiplied)",
        operation: PorterDuff(name: "minimumCompositing", extentRule: { s, b in s.intersection(b) }) { s, d in lanewiseMin(s, d) })
}
