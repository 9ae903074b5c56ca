import LumenPlatform

/// vipsthumbnail's job: fit an image inside a W×H box (Lanczos, shrink-on-load), or
/// cover the box and crop to it, from the centre or where the picture is busiest.
public struct Thumbnail: Sendable, Hashable {
    /// Whether the thumbnail fits inside the box (`none`) or covers it and is cropped to
    /// its centre or to its busiest window (`attention`).
    public enum Crop: String, Sendable, CaseIterable {
        /// Fit inside the box; the result may be smaller than it on one side.
        case none
        /// Cover the box, then keep its centre.
        case centre
        /// Cover the box, then keep the window with the most detail and colour (see
        /// `attentionWindow`).
        case attention
    }

    /// Whether a thumbnail may shrink, enlarge, or both.
    public enum SizeRule: String, Sendable, CaseIterable {
        /// Shrink or enlarge to the box.
        case both
        /// Only shrink (an image already inside the box is kept as it is).
        case down
        /// Only enlarge.
        case up
    }

    /// The box's width in pixels.
    public var width: Int
    /// The box's height in pixels.
    public var height: Int
    /// Whether the thumbnail fits inside the box (`none`) or covers it and is cut to it (`centre`, `attention`).
    public var crop: Crop = .none
    /// Whether images are shrunk, enlarged or both to reach the box.
    public var size: SizeRule = .both
    /// The point a `centre` crop keeps in the middle of its window, as far as the picture's
    /// edges allow: a fraction of the width from the left and of the height from the top,
    /// each 0…1. (0.5, 0.5), the default, is the centre; (0.5, 0) keeps the top edge
    /// (imgproxy's gravity `no`), (1, 1) the bottom-right corner (`soea`); any other point
    /// is a focus point (`fp`).
    public var focus = Point(x: 0.5, y: 0.5)

    /// A thumbnail recipe for a `width` × `height` box, vipsthumbnail's semantics.
    public init(width: Int, height: Int, crop: Crop = .none, size: SizeRule = .both) {
        self.width = width
        self.height = height
        self.crop = crop
        self.size = size
    }

    /// The thumbnail of `image` (finite extent). `context` renders the small preview the
    /// attention crop analyses.
    public func apply(to image: Image, context: RenderContext) throws -> Image {
        var image = image
        // A HEIC's embedded preview, when it is large enough, instead of the whole picture.
        let full = image.extent
        if !full.isInfinite, full.width >= 1, full.height >= 1 {
            let wanted = crop == .none ? min(Double(width) / full.width, Double(height) / full.height)
                                       : max(Double(width) / full.width, Double(height) / full.height)
            if wanted < 1, let preview = image.embeddedThumbnail(atLeast: full.width * wanted, full.height * wanted) {
                image = preview
            }
        }
        let e = image.extent
        guard !e.isInfinite, e.width >= 1, e.height >= 1 else {
            throw LumenError.invalidValue(filter: "thumbnail", key: "image", reason: "needs a finite, non-empty extent")
        }
        guard width > 0, height > 0, width <= ScaleKernel.maximumSide, height <= ScaleKernel.maximumSide else {
            throw LumenError.invalidValue(filter: "thumbnail", key: "size", reason: "\(width)×\(height) is not a size (1…\(ScaleKernel.maximumSide) a side)")
        }
        guard focus.x.isFinite, focus.y.isFinite, (0...1).contains(focus.x), (0...1).contains(focus.y) else {
            throw LumenError.invalidValue(filter: "thumbnail", key: "focus", reason: "(\(focus.x), \(focus.y)) is not inside 0…1 on both axes")
        }
        let fit = min(Double(width) / e.width, Double(height) / e.height)
        let cover = max(Double(width) / e.width, Double(height) / e.height)
        var scale = crop == .none ? fit : cover
        switch size {
        case .down: scale = min(scale, 1)
        case .up: scale = max(scale, 1)
        case .both: break
        }
        let placed = image.transformed(by: AffineTransform(translationX: -e.minX, y: -e.minY))
        let scaled = scale == 1 ? placed : try placed.applyingLanczosScale(scale)
        let box = scaled.extent
        guard crop != .none, box.width > Double(width) || box.height > Double(height) else { return scaled }
        let w = min(Double(width), box.width), h = min(Double(height), box.height)
        // y runs up in the working space, from the top in `focus`.
        let origin = crop == .centre
            ? Point(x: (focus.x * box.width - w / 2).rounded(), y: ((1 - focus.y) * box.height - h / 2).rounded())
            : try attentionWindow(of: placed, window: (w / box.width, h / box.height), context: context)
                .map { Point(x: ($0.x * box.width).rounded(), y: ($0.y * box.height).rounded()) } ?? Point(x: 0, y: 0)
        let corner = Point(x: min(max(0, origin.x), box.width - w), y: min(max(0, origin.y), box.height - h))
        let kept = scaled.cropped(to: Rect(x: corner.x, y: corner.y, width: w, height: h))
        return kept.transformed(by: AffineTransform(translationX: -corner.x, y: -corner.y))
    }

    /// Where the picture is busiest: on a preview at most 96 pixels a side, each pixel
    /// scores its luma gradient (|dx| + |dy| of sRGB luma) plus its saturation (max − min
    /// of R, G, B); the window (a fraction of each side) with the largest total wins,
    /// ties going to the one nearest the centre. Returns the window's lower-left corner as
    /// fractions of the image (y up).
    func attentionWindow(of image: Image, window: (width: Double, height: Double), context: RenderContext) throws -> Point? {
        let e = image.extent
        let previewScale = min(1, 96 / max(e.width, e.height))
        let preview = previewScale < 1 ? try image.applyingLanczosScale(previewScale) : image
        context.cache.expectRenders(of: image)  // the preview, then the thumbnail: decode once
        let bitmap = try context.render(preview, format: .rgba8)
        let (pw, ph) = (bitmap.width, bitmap.height)
        guard pw > 2, ph > 2 else { return nil }
        func luma(_ x: Int, _ row: Int) -> Double {
            let p = bitmap.pixel(x: min(max(x, 0), pw - 1), row: min(max(row, 0), ph - 1))
            return 0.2126 * Double(p.x) + 0.7152 * Double(p.y) + 0.0722 * Double(p.z)
        }
        // Summed-area table of the scores, rows from the top.
        var sums = [Double](repeating: 0, count: (pw + 1) * (ph + 1))
        for row in 0..<ph {
            var line = 0.0
            for x in 0..<pw {
                let p = bitmap.pixel(x: x, row: row)
                let gradient = abs(luma(x + 1, row) - luma(x - 1, row)) + abs(luma(x, row + 1) - luma(x, row - 1))
                let saturation = Double(max(p.x, p.y, p.z) - min(p.x, p.y, p.z))
                line += gradient + saturation
                sums[(row + 1) * (pw + 1) + x + 1] = sums[row * (pw + 1) + x + 1] + line
            }
        }
        let ww = max(1, min(pw, Int((window.width * Double(pw)).rounded()))), wh = max(1, min(ph, Int((window.height * Double(ph)).rounded())))
        var best = (score: -1.0, distance: Double.infinity, x: 0, row: 0)
        for row in 0...(ph - wh) {
            for x in 0...(pw - ww) {
                let score = sums[(row + wh) * (pw + 1) + x + ww] - sums[row * (pw + 1) + x + ww]
                    - sums[(row + wh) * (pw + 1) + x] + sums[row * (pw + 1) + x]
                let distance = abs(Double(2 * x + ww - pw)) + abs(Double(2 * row + wh - ph))
                if score > best.score + 1e-9 || (abs(score - best.score) <= 1e-9 && distance < best.distance) {
                    best = (score, distance, x, row)
                }
            }
        }
        // Rows run from the top; the window's lower edge in y-up fractions:
        return Point(x: Double(best.x) / Double(pw), y: Double(ph - best.row - wh) / Double(ph))
    }
}
