extension FilterDescriptor {
    /// Vertical stripes `width` wide alternating color0/color1 along x, phase set by
    /// center.x; edges ramp like the checkerboard's (sharpness 1 hard, 0 soft).
    static let stripes = FilterDescriptor(
        name: "stripes", coreImageName: "CIStripesGenerator", category: .generator,
        summary: "Infinite vertical stripes of two colors.",
        details: "Stripe ⌊(x − center.x)/width⌋ even → color0, odd → color1; edges ramp over (1 − sharpness)·width/2 px.",
        parameters: [
            .point("center", default: [150, 150], "A stripe edge passes through center.x."),
            .color("color0", default: .white, "The first color."),
            .color("color1", default: .black, "The second color."),
            .number("width", .distance, default: 80, min: 0, "Width of a stripe in pixels."),
            .number("sharpness", default: 1, min: 0, max: 1, "1 hard edges, 0 soft."),
        ]
    ) { args in
        Checkerboard(center: args.point("center"), color0: args.color("color0"), color1: args.color("color1"),
                                         width: args.number("width"), sharpness: args.number("sharpness"), stripes: true).apply()
    }
}
