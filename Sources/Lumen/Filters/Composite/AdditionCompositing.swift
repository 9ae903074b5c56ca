extension FilterDescriptor {
    /// Porter–Duff: S + D; extent = union (premultiplied).
    static let additionCompositing = compositing(
        "additionCompositing", "CIAdditionCompositing", summary: "Adds the images (all four components).", formula: "S + D; extent = union (premultiplied)",
        operation: PorterDuff(name: "additionCompositing", extentRule: { s, b in s.union(b) }) { s, d in s + d })
}
