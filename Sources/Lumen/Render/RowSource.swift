import LumenPlatform

/// A leaf of the graph whose pixels come from rows decoded outside it: a file or encoded
/// bytes (`Source/SourceKernel.swift`). This is the seam between sources and the engine.
/// The renderer owns how rows arrive: decoded once into the render cache and shared by
/// every tile (`DecodingRaster`, random access over a pinned region), or streamed top to
/// bottom through a window when they would not fit (`SourceStream`). The optimizer
/// asks a source to shrink on load or to fold colour into its decode tables; the writer
/// asks for its metadata, its HDR gain map and, for a file written unchanged, its decoder. Nothing else
/// about a source is known outside its folder.
protocol RowSource: ImageKernel {
    /// The file's path, or a description of the bytes, for messages.
    var sourceName: String { get }
    /// The header, read once when the image was made.
    var header: ImageHeader { get }
    /// The factor the decoder reduces by (1: full size; JPEG's DCT scaling, a pyramid's level).
    var reduction: Int { get }
    /// k: each pixel is the mean of a k×k block of decoded pixels (1: none).
    var blockShrink: Int { get }
    /// Pixels per decoded row (after `reduction`, before `blockShrink`), from the header.
    var decodedWidth: Int { get }
    /// The decoded rows (top = 0) holding `region` of the source's output.
    func rows(for region: PixelRect) -> Range<Int>
    /// The decoder over the source's bytes (the one that read the header, while it is kept).
    func decoder() throws -> any ImageDecoder
    /// Converts the decoded rows covering `tile.rect` into working-space pixels.
    func convert(_ rows: any DecodedRows, into tile: Tile)

    /// The wide-gamut profile whose codes the source converts unclipped, if any.
    var gamut: Data? { get }
    /// Everything the file carries beside its pixels.
    func metadata() throws -> ImageMetadata
    /// Per-channel code → code tables when colour was folded into the decode tables
    /// (what a file written unchanged but for that colour maps its codes through).
    var codeTables: [[UInt8]]? { get }
    /// The per-channel tables an opaque 8-bit source's codes are expanded through into the
    /// working space (the sRGB curve, or colour folded into it); nil for any other source
    /// (alpha, a wide gamut, more than 8 bits), whose pixels no table gives alone.
    var decodeTables: ChannelTables? { get }

    /// The source with `operations` (channel-separable colour) folded into its decoding,
    /// when it can do that exactly; nil otherwise.
    func folding(_ operations: [any ColorOperation]) -> (any RowSource)?
    /// The source decoded smaller for `scale` (shrink-on-load), leaving the resampler at
    /// least the format's margin (2 for JPEG) or `margin` if smaller, and where the picture
    /// lies in the smaller pixels; nil when nothing is gained.
    func shrunkOnLoad(for scale: ScaleKernel, margin: Double?) -> (source: any RowSource, span: ScaleKernel.Span)?
    /// The file's HDR gain map (an Ultra HDR JPEG's, an iPhone HEIC's), nil without one.
    func gainMap() throws -> GainMap?
}

extension RowSource {
    /// Sources are read by the renderer (`Renderer.readSource`), never rendered as a kernel.
    func render(_ destination: Destination, inputs: [Sampler]) throws {
        throw LumenError.unrenderable(reason: "\(sourceName) is read by the renderer, not rendered as a kernel")
    }
}
