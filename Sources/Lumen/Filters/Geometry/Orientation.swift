extension FilterDescriptor {
    static let orientation = FilterDescriptor(
        name: "orientation", coreImageName: nil, category: .geometryAdjustment,
        summary: "Turns an image stored with an EXIF orientation (1–8) upright, moving pixels exactly.",
        details: "1 up, 2 mirrored, 3 rotated 180°, 4 flipped, 5 transposed, 6 rotated 90° clockwise, 7 transversed, 8 rotated 90° counter-clockwise. 5–8 swap width and height; the extent keeps its origin.",
        parameters: [
            .inputImage,
            .number("orientation", .integer, default: 1, min: 1, max: 8, identity: 1, "The EXIF orientation the pixels are stored with."),
        ]
    ) { args in try args.image("image").oriented(Int(args.number("orientation"))) }
}

/// Displays pixels stored with EXIF orientation 1–8 upright: an exact permutation, no
/// resampling. Works on finite extents (an infinite image is returned unchanged).
struct OrientationKernel: ImageKernel {
    let orientation: Int
    /// The stored pixels being turned.
    let inputBox: PixelRect

    var name: String { "orientation" }

    func extent(inputs: [Rect]) -> Rect {
        let swapped = orientation >= 5, e = inputBox
        return Rect(x: Double(e.x), y: Double(e.y), width: Double(swapped ? e.height : e.width),
                    height: Double(swapped ? e.width : e.height))
    }

    func isOpaque(inputs: [Image]) -> Bool { inputs[0].isOpaque }

    /// The stored pixel shown at output (x, y), both absolute.
    @inline(__always)
    private func source(_ x: Int, _ y: Int) -> (Int, Int) {
        let W = inputBox.width, H = inputBox.height
        let outHeight = orientation >= 5 ? W : H
        // Row R counted from the top and column C of the displayed picture.
        let R = outHeight - 1 - (y - inputBox.y), C = x - inputBox.x
        let r: Int, c: Int
        switch orientation {
        case 2: (r, c) = (R, W - 1 - C)
        case 3: (r, c) = (H - 1 - R, W - 1 - C)
        case 4: (r, c) = (H - 1 - R, C)
        case 5: (r, c) = (C, R)
        case 6: (r, c) = (H - 1 - C, R)
        case 7: (r, c) = (H - 1 - C, W - 1 - R)
        case 8: (r, c) = (C, W - 1 - R)
        default: (r, c) = (R, C)
        }
        return (inputBox.x + c, inputBox.y + H - 1 - r)
    }

    func regionOfInterest(for rect: PixelRect, input index: Int) -> PixelRect {
        let a = source(rect.x, rect.y), b = source(rect.maxX - 1, rect.maxY - 1)
        return PixelRect(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(a.0 - b.0) + 1, height: abs(a.1 - b.1) + 1)
    }

    func render(_ output: Destination, inputs: [Sampler]) {
        let input = inputs[0], r = output.rect
        for y in r.y..<r.maxY {
            let out = output.row(y)
            for i in 0..<r.width {
                let (sx, sy) = source(r.x + i, y)
                out[i] = input.pixel(sx, sy)
            }
        }
    }
}

extension Image {
    /// The image turned upright from EXIF orientation 1–8 (Core Image's `oriented(forExifOrientation:)`).
    public func oriented(_ orientation: Int) -> Image {
        guard (2...8).contains(orientation), !extent.isInfinite, !extent.isEmpty else { return self }
        return OrientationKernel(orientation: orientation, inputBox: PixelRect(covering: extent)).apply(to: [self])
    }
}

extension OrientationKernel: GeometricKernel {}
