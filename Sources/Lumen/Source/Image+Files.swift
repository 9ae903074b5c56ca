import LumenPlatform

// Images backed by files and encoded bytes: the public ways in, and what the rest of the
// library may ask of an image about the file behind it.
extension Image {
    /// Options for reading a file.
    public struct LoadOptions: Sendable {
        /// Apply the file's EXIF orientation so the picture is upright (default true).
        public var appliesOrientation = true
        /// The frame of an animated GIF or WebP (0 = the first).
        public var frame = 0
        /// Load the largest preview the file embeds (HEIC, AVIF) instead of the image: the
        /// image's extent is then the preview's. An error when there is none.
        public var embeddedThumbnail = false
        /// How a camera RAW file is developed (as shot by default); other formats ignore it.
        public var raw: RAWDevelopment? = nil
        /// Apply the file's HDR gain map (an Ultra HDR JPEG's): the image is its HDR
        /// rendition at full headroom, values above 1 where the map says so (Core Image's
        /// `expandToHDR`). Files without a gain map load as they are.
        public var expandToHDR = false
        /// Options for reading a file; the defaults read the first frame, upright, and develop RAW files as shot.
        public init(appliesOrientation: Bool = true, frame: Int = 0, embeddedThumbnail: Bool = false, raw: RAWDevelopment? = nil,
                    expandToHDR: Bool = false) {
            self.expandToHDR = expandToHDR
            self.appliesOrientation = appliesOrientation
            self.frame = frame
            self.embeddedThumbnail = embeddedThumbnail
            self.raw = raw
        }
    }

    /// An image backed by a file in any format Lumen reads, found by its content. Reads
    /// the header only; pixels are decoded when a render needs them. The extent is
    /// `[0, 0, W, H]` of the upright picture.
    public init(contentsOf url: URL, options: LoadOptions = LoadOptions()) throws {
        let url = url.standardizedFileURL, stamp = OpenedFiles.stamp(of: url)
        let decoder = try OpenedFiles.decoder(for: .init(url: url, stamp: stamp, frame: options.frame, thumbnail: options.embeddedThumbnail,
                                                         development: options.raw))
        let gainMap = options.expandToHDR && decoder.header.hasGainMap ? try GainMap.read(contentsOf: url) : nil
        try self.init(SourceKernel(origin: .file(url, stamp: stamp), header: decoder.header, reduction: 1,
                                   gamut: ImageFile.wideGamut(of: decoder)),
                      options: options, gainMap: gainMap)
    }

    /// An image backed by encoded bytes in memory (an upload, a pipe), in any format
    /// Lumen reads. Reads the header now; pixels are decoded when a render needs them.
    /// `name` names the bytes in errors (default "<N bytes>").
    public init(data: Data, options: LoadOptions = LoadOptions(), name: String? = nil) throws {
        let decoder = try ImageFile.decoder(data: data, name: name ?? "<\(data.count) bytes>", frame: options.frame,
                                            thumbnail: options.embeddedThumbnail, development: options.raw)
        let gainMap = options.expandToHDR && decoder.header.hasGainMap ? try GainMap.read(from: data, name: name) : nil
        try self.init(SourceKernel(origin: .memory(data), header: decoder.header, reduction: 1, gamut: ImageFile.wideGamut(of: decoder)),
                      options: options, gainMap: gainMap)
    }

    private init(_ source: SourceKernel, options: LoadOptions, gainMap: GainMap? = nil) throws {
        let image = try gainMap?.expand(source.apply()) ?? source.apply()
        let orientation = source.header.orientation
        self = options.appliesOrientation && orientation != 1 ? image.oriented(orientation) : image
    }

    /// The same file's embedded preview (HEIC, AVIF), when it is at least `width`×`height`
    /// (the upright size this image would be scaled to): what a thumbnailer decodes instead
    /// of the whole picture, as vipsthumbnail does. Nil when the image is not a file as
    /// loaded, or its preview is too small.
    func embeddedThumbnail(atLeast width: Double, _ height: Double) -> Image? {
        // The file as loaded, turned upright or not (a HEIF's rotation boxes are its orientation);
        // the preview's size (`thumbnailWidth`) is its upright size, and it loads upright too.
        let file = node.kernel is OrientationKernel ? node.inputs[0] : node
        guard let source = file.kernel as? SourceKernel, !source.header.isEmbeddedThumbnail, source.header.thumbnailWidth > 0,
              file !== node || source.header.orientation == 1,  // not for a picture left as stored (--no-orient)
              Double(source.header.thumbnailWidth) >= width.rounded(.up), Double(source.header.thumbnailHeight) >= height.rounded(.up)
        else { return nil }
        let options = LoadOptions(frame: source.header.frame, embeddedThumbnail: true)
        switch source.origin {
        case let .file(url, _): return try? Image(contentsOf: url, options: options)
        case let .memory(data): return try? Image(data: data, options: options)
        }
    }

    /// The header of the file behind this image, when it is a file as loaded (possibly
    /// turned upright by its EXIF orientation).
    public var fileHeader: ImageHeader? {
        let file = node.kernel is OrientationKernel ? node.inputs[0] : node
        return (file.kernel as? SourceKernel)?.header
    }

    /// The file the image's pixels mostly come from: the source reached through first
    /// inputs, and whether the pixels were turned upright on the way (the writer takes
    /// the output's metadata from it).
    var primarySource: (source: any RowSource, oriented: Bool)? {
        var node = self.node, oriented = false
        while !(node.kernel is any RowSource), let input = node.inputs.first {
            if node.kernel is OrientationKernel { oriented = true }
            node = input
        }
        return (node.kernel as? any RowSource).map { ($0, oriented) }
    }
}
