import LumenPlatform

/// A run of decoded rows handed out by a decoder, in the decoder's output layout.
/// Valid only inside the closure it is passed to.
public struct RowBand: @unchecked Sendable {  // points at raw pixel rows owned by whoever hands the band out
    /// The first row of the band (0 = the top of the image).
    public var firstRow: Int
    /// How many rows the band holds.
    public var rowCount: Int
    /// Bytes from one row to the next.
    public var bytesPerRow: Int
    /// The band's first row.
    public var base: UnsafeRawPointer

    /// A band of `rowCount` rows from `firstRow`, `bytesPerRow` apart from `base`.
    public init(firstRow: Int, rowCount: Int, bytesPerRow: Int, base: UnsafeRawPointer) {
        self.firstRow = firstRow
        self.rowCount = rowCount
        self.bytesPerRow = bytesPerRow
        self.base = base
    }
}

/// The layout of the pixels a decoder delivers: rows top first, interleaved 8- or 16-bit
/// (host order) channels — 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA — in the file's profile, or
/// 32-bit floats in linear light with sRGB's primaries (OpenEXR), unbounded.
public struct DecodedLayout: Equatable, Sendable {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Interleaved channels: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    public var channels: Int
    /// Bits per channel: 8 or 16, or 32 for linear Float32.
    public var depth: Int
    /// Whether colour channels are premultiplied by alpha (most files store them straight).
    public var alphaPremultiplied: Bool = false

    /// A layout of `width` × `height` pixels of `channels` channels of `depth` bits.
    public init(width: Int, height: Int, channels: Int, depth: Int, alphaPremultiplied: Bool = false) {
        self.width = width
        self.height = height
        self.channels = channels
        self.depth = depth
        self.alphaPremultiplied = alphaPremultiplied
    }
}

/// One codec's reader: a cheap header, then pixels a band of rows at a time.
public protocol ImageDecoder: Sendable {
    var header: ImageHeader { get }
    /// The embedded ICC profile, if any.
    var iccProfile: Data? { get }
    /// Everything the file carries beside its pixels.
    var metadata: ImageMetadata { get }
    /// The layout `forEachBand` delivers at 1/`reduction` scale.
    func layout(reduction: Int) -> DecodedLayout
    /// Decodes top to bottom, calling `body` once per band of rows. Rows before
    /// `rows.lowerBound` may be skipped, and decoding stops after `rows.upperBound`.
    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws
    /// True when the codec's library decodes the whole picture into its own buffer before
    /// handing out bands (interlaced PNG, WebP, HEIF, GIF, TIFFs through libtiff's RGBA
    /// interface): that buffer counts against the memory limit.
    var decodesWhole: Bool { get }
    /// True when the decoder converts through its embedded profile itself (CMYK, which
    /// becomes RGB inside the decoder), so no `ColorManagedDecoder` goes around it.
    var convertsProfileItself: Bool { get }
}

extension ImageDecoder {
    /// Decoders stream by default.
    public var decodesWhole: Bool { false }
    /// Decoders deliver the file's own colours by default; Lumen converts them from the profile.
    public var convertsProfileItself: Bool { false }
}

/// Reading image files: format sniffing, header reads and decoding.
public enum ImageFile {
    /// The default ceiling on width × height, checked from the header before allocating.
    /// 16384 × 16384 (about 268 million), so the largest square a 16K canvas allows still opens.
    public static let defaultPixelLimit = 16384 * 16384

    /// Reads only the header of the file at `url` (of frame `frame` for animations).
    public static func header(at url: URL, frame: Int = 0) throws -> ImageHeader {
        try decoder(for: url, frame: frame).header
    }

    /// Reads only the header of an encoded image in memory.
    public static func header(of data: Data, name: String? = nil, frame: Int = 0) throws -> ImageHeader {
        try decoder(data: data, name: name ?? "<\(data.count) bytes>", frame: frame).header
    }

    /// The metadata (ICC, EXIF, XMP, IPTC, resolution) of the file at `url`.
    public static func metadata(at url: URL) throws -> ImageMetadata {
        try decoder(for: url).metadata
    }

    /// The metadata of an encoded image in memory.
    public static func metadata(of data: Data, name: String? = nil) throws -> ImageMetadata {
        try decoder(data: data, name: name ?? "<\(data.count) bytes>").metadata
    }

    /// Decodes the whole file into a raster, at 1/`reduction` size where the codec can
    /// (JPEG DCT scaling: 1, 2, 4, 8; other formats ignore it).
    public static func decode(at url: URL, reduction: Int = 1,
                              pixelLimit: Int = defaultPixelLimit) throws -> PixelRaster {
        let decoder = try decoder(for: url)
        try checkLimit(decoder.header, file: url.path, pixelLimit: pixelLimit)
        return try decodeRaster(decoder, reduction: reduction)
    }

    /// Refuses a decode of `rows` rows that would need more memory than `limit` (nil: what
    /// the process may still use, `MemoryLimit.headroom()`): the rows Lumen keeps, plus the
    /// whole picture when the codec's library decodes it whole first.
    static func checkMemory(_ decoder: ImageDecoder, reduction: Int, rows: Int, file: String, limit: Int?) throws {
        let layout = decoder.layout(reduction: reduction)
        let rowBytes = layout.width.multipliedReportingOverflow(by: layout.channels * max(1, layout.depth / 8))
        let kept = rowBytes.partialValue.multipliedReportingOverflow(by: max(0, rows))
        let whole = rowBytes.partialValue.multipliedReportingOverflow(by: decoder.decodesWhole ? layout.height : 0)
        let sum = kept.partialValue.addingReportingOverflow(whole.partialValue)
        let bytes = rowBytes.overflow || kept.overflow || whole.overflow || sum.overflow ? Int.max : sum.partialValue
        guard let budget = limit ?? MemoryLimit.headroom(), bytes > budget else { return }
        throw LumenError.outOfMemory(file: file, needed: bytes, limit: budget)
    }

    static func checkLimit(_ header: ImageHeader, file: String, pixelLimit: Int) throws {
        let (w, h) = (header.width, header.height)
        guard w > 0, h > 0 else { throw LumenError.corrupt(file: file, reason: "image has no pixels (\(w)×\(h))") }
        let pixels = w.multipliedReportingOverflow(by: h)
        if pixels.overflow || pixels.partialValue > pixelLimit {
            throw LumenError.tooLarge(file: file, pixels: pixels.overflow ? Int.max : pixels.partialValue, limit: pixelLimit)
        }
    }

    /// Decodes rows `rows` (file rows, top = 0) of the file into a raster of just those rows.
    static func decodeRaster(_ decoder: ImageDecoder, reduction: Int, rows: Range<Int>) throws -> PixelRaster {
        let raster = emptyRaster(decoder, reduction: reduction, rows: rows)
        try decode(decoder, reduction: reduction, rows: rows, into: raster) { _ in }
        return raster
    }

    /// A raster sized for `rows` of the decoder's output.
    static func emptyRaster(_ decoder: ImageDecoder, reduction: Int, rows: Range<Int>) -> PixelRaster {
        let layout = decoder.layout(reduction: reduction)
        let rows = rows.clamped(to: 0..<layout.height)
        return PixelRaster(width: layout.width, height: rows.count, channels: layout.channels,
                           depth: layout.depth, alphaPremultiplied: layout.alphaPremultiplied)
    }

    /// Decodes `rows` into `raster` (made by `emptyRaster`), reporting after each band how
    /// many raster rows are ready.
    static func decode(_ decoder: ImageDecoder, reduction: Int, rows: Range<Int>, into raster: PixelRaster,
                       progress: (Int) -> Void) throws {
        let rows = rows.clamped(to: 0..<decoder.layout(reduction: reduction).height)
        try decoder.forEachBand(reduction: reduction, rows: rows) { band in
            precondition(band.bytesPerRow == raster.bytesPerRow)
            let first = max(band.firstRow, rows.lowerBound), last = min(band.firstRow + band.rowCount, rows.upperBound)
            guard first < last else { return }
            raster.rowPointer(first - rows.lowerBound).copyMemory(
                from: band.base + (first - band.firstRow) * band.bytesPerRow, byteCount: (last - first) * band.bytesPerRow)
            progress(last - rows.lowerBound)
        }
    }

    static func decodeRaster(_ decoder: ImageDecoder, reduction: Int) throws -> PixelRaster {
        try decodeRaster(decoder, reduction: reduction, rows: 0..<decoder.layout(reduction: reduction).height)
    }

    /// Large regular files are mapped, not read: a thumbnail of a 40960×40000 pyramid TIFF
    /// reads one small level of it, and reading all of it (89 MB) took half the time and all
    /// of the memory. (Foundation on Linux reads even with `.mappedIfSafe`.) Files under
    /// 32 MB, and pipes and the like, are read whole.
    static func mappingOptions(_ path: String) -> Data.ReadingOptions {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= 32 << 20 else { return [] }
        return .alwaysMapped
    }

    static func decoder(for url: URL, frame: Int = 0, thumbnail: Bool = false, development: RAWDevelopment? = nil) throws -> ImageDecoder {
        let path = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url, options: mappingOptions(path))
        } catch {
            let folder = isFolder(path)
            throw LumenError.unreadable(file: path, reason: folder == nil ? "no such file" : folder == true ? "is a directory"
                                        : "cannot open (\(openFailure(path) ?? systemReason(of: error)))")
        }
        let claimed = ImageFileFormat(pathExtension: url.pathExtension).map { " (the name says \($0))" } ?? ""
        return try decoder(data: data, name: path, claimed: claimed, frame: frame, thumbnail: thumbnail, development: development)
    }

    /// A decoder for a file's bytes, found by content (never by name); `name` names the
    /// file in errors.
    static func decoder(data: Data, name: String, claimed: String = "", frame: Int = 0, thumbnail: Bool = false,
                        development: RAWDevelopment? = nil) throws -> ImageDecoder {
        guard let codec = Codecs.codec(recognizing: data) else {
            throw LumenError.unreadable(file: name, reason: data.isEmpty ? "file is empty" : "not a \(Codecs.formatList) file\(claimed)")
        }
        let decoder: ImageDecoder
        if thumbnail {
            // Formats whose previews are worth reading say so (HEIF; JPEG's EXIF thumbnails are too small).
            guard codec.capabilities.embeddedThumbnails else { throw LumenError.unsupported(file: name, reason: "no embedded thumbnail") }
            decoder = try codec.thumbnailDecoder(data: data, name: name)
        } else {
            decoder = try codec.decoder(data: data, name: name, frame: frame, development: development)
        }
        let frames = decoder.header.frameCount
        guard frame >= 0, frame < frames else {
            throw LumenError.unreadable(file: name, reason: "no frame \(frame): the file has \(frames == 1 ? "one frame (0)" : "\(frames) frames (0…\(frames - 1))")")
        }
        // Pixels enter the working space from sRGB: convert from any other embedded profile,
        // except wide-gamut RGB matrix profiles (Display P3…), whose codes the source kernel
        // converts unclipped (`wideGamut(of:)`). CMYK JPEGs and TIFFs convert inside their decoder.
        guard let profile = ColorProfile(decoder.iccProfile), !profile.isSRGB, !decoder.convertsProfileItself,
              !decoder.layout(reduction: 1).alphaPremultiplied else { return decoder }
        if decoder.layout(reduction: 1).channels >= 3, RGBProfile.wideGamut(decoder.iccProfile) != nil { return decoder }
        return ColorManagedDecoder(decoder, profile: profile, file: name)
    }

    /// The wide-gamut profile whose codes `decoder` delivers as stored (see `decoder(data:)`), if any.
    static func wideGamut(of decoder: ImageDecoder) -> Data? {
        guard !(decoder is ColorManagedDecoder), !decoder.layout(reduction: 1).alphaPremultiplied,
              decoder.layout(reduction: 1).channels >= 3, let profile = RGBProfile.wideGamut(decoder.iccProfile) else { return nil }
        return profile.data
    }
}

extension ImageDecoder {
    var metadata: ImageMetadata { ImageMetadata(iccProfile: iccProfile) }
}

extension RowBand {
    /// For codecs whose library decodes whole pictures: `fill` writes the picture as 8-bit
    /// RGBA (`width * 4` bytes a row) into a canvas, which is then handed out in bands.
    static func decodeWhole(width: Int, height: Int, channels: Int, rows: Range<Int>,
                            fill: (UnsafeMutablePointer<UInt8>) throws -> Void, _ body: (RowBand) throws -> Void) throws {
        let canvas = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * 4)
        defer { canvas.deallocate() }
        try fill(canvas)
        try deliver(rgba8: canvas, width: width, height: height, channels: channels, rows: rows, body)
    }

    /// Hands a whole decoded picture, already in the decoder's layout (`height` rows
    /// `bytesPerRow` apart from `base`), to `body` in bands of 64 rows within `rows` — for
    /// codecs whose library decodes whole pictures into the layout Lumen takes (JPEG XL,
    /// OpenEXR, RAW).
    static func deliver(whole base: UnsafeRawPointer, bytesPerRow: Int, height: Int, rows: Range<Int>,
                        _ body: (RowBand) throws -> Void) throws {
        let rows = rows.clamped(to: 0..<height)
        var row = rows.lowerBound
        while row < rows.upperBound {
            let count = min(64, rows.upperBound - row)
            try body(RowBand(firstRow: row, rowCount: count, bytesPerRow: bytesPerRow, base: base + row * bytesPerRow))
            row += count
        }
    }

    /// Hands a whole decoded RGBA (8-bit, unpremultiplied) picture to `body` in bands of
    /// 64 rows within `rows`, dropping alpha when `channels` is 3 — for codecs whose
    /// library decodes whole pictures (GIF, WebP, HEIF).
    static func deliver(rgba8 pixels: UnsafePointer<UInt8>, width: Int, height: Int, channels: Int,
                        rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let rows = rows.clamped(to: 0..<height)
        let bandRows = 64
        let stride = width * channels
        let scratch = channels == 4 ? nil : UnsafeMutablePointer<UInt8>.allocate(capacity: stride * bandRows)
        defer { scratch?.deallocate() }
        var row = rows.lowerBound
        while row < rows.upperBound {
            let count = min(bandRows, rows.upperBound - row)
            let source = pixels + row * width * 4
            if let scratch {
                for i in 0..<(count * width) {
                    scratch[3 * i] = source[4 * i]; scratch[3 * i + 1] = source[4 * i + 1]; scratch[3 * i + 2] = source[4 * i + 2]
                }
                try body(RowBand(firstRow: row, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(scratch)))
            } else {
                try body(RowBand(firstRow: row, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(source)))
            }
            row += count
        }
    }
}

/// Why the system will not open `path` for reading (strerror of errno), or nil if it will.
func openFailure(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd < 0 else { close(fd); return nil }
    return String(cString: strerror(errno))
}

/// The operating system's words for why a file operation failed ("Permission denied"),
/// from the POSIX error under a Foundation error, or the error's own description.
func systemReason(of error: Error) -> String {
    if let code = posixCode(of: error) { return String(cString: strerror(code)) }
    return String(describing: error)
}
