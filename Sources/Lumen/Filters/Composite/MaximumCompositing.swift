extension FilterDescriptor {
    /// Porter–Duff: max(S, D); extent = union (premultiplied).
    static let maximumCompositing = compositing(
        "maximumCompositing", "CIMaximumCompositing", summary: "The larger of each component.", formula: "max(S, D); extent = union (premultiplied)",
        operation: PorterDuff(name: "maximumCompositing", extentRule: { s, b in s.union(b) }) { s, d in lanewiseMax(s, d) })
}
