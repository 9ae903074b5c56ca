import LumenPlatform

/// Renders every registered filter onto one photo with its defaults adapted to the
/// photo, and writes an `index.html` to browse them (`lumen filters gallery`).
///
/// Core Image's positional defaults are demo values for a 300×300 canvas, so positions
/// scale by (width/300, height/300) and distances by minSide/300; rectangles become the
/// photo's extent. Second images are made from the photo: the background is the photo
/// mirrored, the target a blurred darker copy, masks a radial gradient. Barcodes encode a
/// URL; reductions' small results are stretched to 64 pixels.
///
/// The gallery is a catalogue, not a print: a photo larger than `workingSize` on its long
/// side is first scaled down (Lanczos) to a working copy, so 212 filters on a 5120 × 2880
/// photo take seconds, not minutes.
public struct FilterGallery {
    /// One filter of the gallery: its descriptor, the values it was shown with, and the
    /// file written (or why it could not be).
    public struct Entry: Sendable {
        /// The filter shown.
        public var filter: FilterDescriptor
        /// The file written, relative to the gallery folder.
        public var file: String
        /// The values the gallery set (those that differ from the defaults, as a chain writes them).
        public var parameters: [String: String]
        /// Time to render and write the file.
        public var milliseconds: Double = 0
    }

    /// The working copy every filter is applied to.
    public let photo: Image
    /// The context the gallery renders with.
    public let context: RenderContext

    /// The default long side of the working copy.
    public static let defaultWorkingSize = 1024

    /// `workingSize`: the longest side the photo is shown at (nil: as it is).
    public init(photo: Image, context: RenderContext, workingSize: Int? = FilterGallery.defaultWorkingSize) {
        let e = photo.extent
        if let size = workingSize, size > 0, !e.isInfinite, max(e.width, e.height) > Double(size) {
            let scale = Double(size) / max(e.width, e.height)
            let scaled = (try? photo.applyingLanczosScale(scale)) ?? photo
            // Start at the origin so the adapted positions are round numbers.
            let copy = scaled.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: -scaled.extent.minX, ty: -scaled.extent.minY))
            // Rendered once into memory: every filter then reads these pixels instead of
            // decoding and scaling the photo again.
            if let pixels = try? context.render(copy, format: .rgbaFloat), let held = try? Image(bitmap: pixels) {
                self.photo = held
            } else {
                self.photo = copy
            }
        } else {
            self.photo = photo
        }
        self.context = context
    }

    /// Distances that already grow with the photo: zoomBlur's streak is `amount` pixels at
    /// 100 pixels from the centre and proportional to the distance, so scaling it again
    /// would blur a large photo past the filter's limit (amount < 100).
    static let scaleFree: Set<String> = ["zoomBlur.amount"]

    /// The values a filter gets in the gallery.
    public func parameters(for filter: FilterDescriptor) -> [String: FilterValue] {
        let e = photo.extent
        let sx = e.width / 300, sy = e.height / 300, s = min(e.width, e.height) / 300
        let mirrored = photo.transformed(by: AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: e.maxX + e.minX, ty: 0))
        let target = photo.applyingGaussianBlur(sigma: 6 * s).cropped(to: e).applyingColor(
            ColorMatrix(r: [0.6, 0, 0, 0], g: [0, 0.6, 0, 0], b: [0, 0, 0.8, 0], a: [0, 0, 0, 1], bias: .zero))
        let mask = RadialGradient(center: e.center, radius0: e.width * 0.1, radius1: e.width * 0.45,
                                  color0: .white, color1: .black).apply()
        var values: [String: FilterValue] = [:]
        for p in filter.parameters {
            switch (p.kind, p.defaultValue) {
            case (.image, _):
                switch p.key {
                case "image": values[p.key] = .image(photo)
                case "backgroundImage": values[p.key] = .image(mirrored)
                case "targetImage": values[p.key] = .image(target)
                case "maskImage", "mask": values[p.key] = .image(mask)
                case "image2": values[p.key] = .image(target)
                case "displacementImage", "textureImage": values[p.key] = .image(mask)
                case "paletteImage":
                    let palette = try? photo.applyingFilter("kMeans", parameters: ["extent": [e.minX, e.minY, e.width, e.height], "count": 6])
                    values[p.key] = .image(palette ?? photo.cropped(to: Rect(x: e.minX, y: e.minY, width: 6, height: 1)))
                case "gradientImage":
                    values[p.key] = .image(LinearGradient(point0: Point(x: 0, y: 0), point1: Point(x: 255, y: 0), color0: Color(red: 0.1, green: 0, blue: 0.4),
                                                          color1: Color(red: 1, green: 0.85, blue: 0.3), smooth: false).apply().cropped(to: Rect(x: 0, y: 0, width: 256, height: 1)))
                case "guideImage": values[p.key] = .image(photo)  // the photo guides a smoothing of itself
                case "smallImage": values[p.key] = .image((try? photo.applyingLanczosScale(0.125)) ?? photo)
                case "shadingImage" where p.defaultValue == nil:
                    // shadedMaterial's lit sphere: a highlight up and to the left, fading to a dark rim.
                    let sphere = RadialGradient(center: Point(x: 96, y: 160), radius0: 0, radius1: 200,
                                                color0: Color(red: 1, green: 0.95, blue: 0.85), color1: Color(red: 0.1, green: 0.1, blue: 0.2)).apply()
                    values[p.key] = .image(sphere.cropped(to: Rect(x: 0, y: 0, width: 256, height: 256)))
                default: break  // optional shading/backside images keep their defaults
                }
            case (.position, _) where p.key == "size":
                values[p.key] = .vector([e.width, e.height])  // stretchCrop: the photo's own size
            case (.position, .vector(let v)?) where p.key.hasPrefix("insetPoint"):
                // droste's inset defaults are the middle third of a 600 × 600 canvas.
                values[p.key] = .vector([e.minX + v[0] * e.width / 600, e.minY + v[1] * e.height / 600])
            case (.position, .vector(let v)?):
                values[p.key] = p.key == "center" ? .vector([e.midX, e.midY]) : .vector([e.minX + v[0] * sx, e.minY + v[1] * sy])
            case (.rectangle, _) where p.key == "extent":
                values[p.key] = .vector([e.minX, e.minY, e.width, e.height])
            case (.distance, .number(let v)?) where !Self.scaleFree.contains("\(filter.name).\(p.key)"):
                values[p.key] = .number(min(p.maximum ?? .infinity, max(p.minimum ?? -.infinity, v * s)))
            default:
                break
            }
        }
        if filter.category == .transition { values["time"] = .number(0.5) }
        if filter.parameter("message") != nil { values["message"] = .string("https://github.com/lumen-image/lumen") }
        if filter.parameter("text") != nil { values["text"] = .string("Lumen — مرحبا"); values["fontSize"] = .number(max(12, 24 * s)) }
        // Histogram bins hold fractions of the pixels: scaled so the average bin is ½.
        if filter.category == .reduction, filter.parameter("scale") != nil, let count = filter.parameter("count")?.defaultValue, case let .number(n) = count {
            values["scale"] = .number(n / 2)
        }
        return values
    }

    /// Renders every filter into `directory` and writes `index.html`; returns the entries.
    @discardableResult
    public func write(to directory: URL, filters: [FilterDescriptor] = FilterRegistry.all) throws -> [Entry] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var entries: [Entry] = []
        for filter in filters {
            let values = parameters(for: filter)
            var output = try filter.apply(values)
            if filter.category == .reduction {
                // A 1 × 1 or w × 1 result is shown stretched to at least 64 pixels each way.
                let e = output.extent
                output = output.clampedToExtent().cropped(to: Rect(x: 0, y: 0, width: max(e.width, 64), height: max(e.height, 64)))
            }
            let rect = output.extent.isInfinite ? photo.extent : output.extent.intersection(photo.extent.outset(by: photo.extent.width))
            let file = "\(filter.name).png"
            let start = DispatchTime.now().uptimeNanoseconds
            try context.write(output, to: directory.appendingPathComponent(file), format: .png(compressionLevel: 3), in: rect)
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            let shown = values.filter { if case .image = $0.value { return false } else { return true } }.mapValues(\.description)
            entries.append(Entry(filter: filter, file: file, parameters: shown, milliseconds: milliseconds))
        }
        try html(entries).write(to: directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        return entries
    }

    private func html(_ entries: [Entry]) -> String {
        func escape(_ s: String) -> String {
            s.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
        }
        let byCategory = Dictionary(grouping: entries, by: \.filter.category)
        var body = ""
        for category in FilterCategory.allCases {
            guard let group = byCategory[category] else { continue }
            body += "<h2>\(category.shortName)</h2>\n<div class=grid>\n"
            for entry in group {
                let parameters = entry.parameters.sorted { $0.key < $1.key }.map { "\(escape($0.key)) = \(escape($0.value))" }.joined(separator: "<br>")
                body += """
                <figure><img src="\(entry.file)" loading=lazy alt="\(entry.filter.name)"><figcaption><b>\(entry.filter.name)</b> \
                <code>\(entry.filter.coreImageName ?? "")</code><br>\(escape(entry.filter.summary))<br><small>\(parameters)</small></figcaption></figure>

                """
            }
            body += "</div>\n"
        }
        return """
        <!doctype html>
        <html><head><meta charset=utf-8><title>Lumen filters</title>
        <style>body{font:14px sans-serif;margin:2em}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:1em}
        figure{margin:0}img{width:100%;background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/16px 16px}code{color:#555}</style>
        </head><body><h1>Lumen filters (\(entries.count))</h1>
        \(body)</body></html>
        """
    }
}
