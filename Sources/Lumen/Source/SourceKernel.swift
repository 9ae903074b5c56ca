import CKernels
import LumenPlatform

/// Where a source's bytes are.
enum SourceOrigin: Hashable, Sendable {
    /// A file; `stamp` (size and modification time) keeps an edited file from being
    /// served from the cache.
    case file(URL, stamp: String)
    /// Bytes in memory (an upload, a pipe): their content is their identity.
    case memory(Data)
}

/// A decoded image file or buffer: a leaf of the graph. Building one reads only the
/// header; the renderer decodes pixels on first render (`RowSource`), limited to the rows
/// the render needs, on a background thread while tiles start. The decoder that read the
/// header is kept for the metadata and the pixels (`OpenedFiles`).
struct SourceKernel: RowSource, CustomStringConvertible {
    let origin: SourceOrigin
    let header: ImageHeader
    /// JPEG DCT reduction (1, 2, 4, 8) applied while decoding.
    let reduction: Int

    /// Bytes in memory are kept alive by whatever keeps this source's identity.
    var retainedBytes: Int {
        if case let .memory(data) = origin { return data.count }
        return 0
    }
    /// k: each pixel is the mean of a k×k block of decoded pixels (shrink-on-load for any
    /// format; blocks at the right and bottom edges average the pixels they have).
    var blockShrink = 1
    /// Decode tables (8-bit code → working-space value, per channel) replacing the sRGB
    /// table when channel-separable colour operations were folded into an opaque source.
    var tables: ChannelTables? = nil
    /// The file's ICC profile when it is a wide-gamut RGB matrix profile (Display P3…):
    /// its decoded codes are converted into the working space unclipped, here, instead of
    /// being clipped to sRGB by the decoder.
    var gamut: Data? = nil

    /// The source with `operations` (channel-separable, alpha-preserving) folded into
    /// its decode tables, when it is an opaque 8-bit image; nil otherwise. Every pixel
    /// gets exactly the value the operations would give it, computed once per code.
    func folding(_ operations: [any ColorOperation]) -> (any RowSource)? {
        guard header.decodedDepth == 8, !header.hasAlpha, gamut == nil, operations.allSatisfy(\.isChannelSeparable) else { return nil }
        let base = tables ?? .srgb
        var row = (0..<256).map { SIMD4(base.red[$0], base.green[$0], base.blue[$0], 1) }
        row.withUnsafeMutableBufferPointer { row in
            for operation in operations { operation.apply(row.baseAddress!, count: 256) }
        }
        var folded = self
        folded.tables = ChannelTables(red: row.map(\.x), green: row.map(\.y), blue: row.map(\.z))
        return folded
    }

    var name: String { "source" }

    func gainMap() throws -> GainMap? {
        guard header.hasGainMap else { return nil }
        switch origin {
        case let .file(url, _): return try GainMap.read(contentsOf: url)
        case let .memory(data): return try GainMap.read(from: data, name: sourceName)
        }
    }

    /// The file's path, or a description of the buffer, for messages.
    var sourceName: String {
        switch origin {
        case let .file(url, _): return url.path
        case let .memory(data): return "<\(header.format) data, \(data.count) bytes>"
        }
    }

    var description: String {
        switch origin {
        case let .file(url, _): return "\(url.lastPathComponent) 1/\(reduction * blockShrink)\(tables == nil ? "" : " with colour tables")"
        case let .memory(data): return "\(data.count) bytes of \(header.format) 1/\(reduction * blockShrink)\(tables == nil ? "" : " with colour tables")"
        }
    }

    /// The decoder over the source's bytes: for a file, the one that read its header
    /// while it is kept (`OpenedFiles`); for bytes in memory, a new one.
    func decoder() throws -> any ImageDecoder {
        switch origin {
        case let .file(url, stamp):
            return try OpenedFiles.decoder(for: .init(url: url, stamp: stamp, frame: header.frame, thumbnail: header.isEmbeddedThumbnail,
                                                      development: header.development))
        case let .memory(data):
            return try ImageFile.decoder(data: data, name: sourceName, frame: header.frame, thumbnail: header.isEmbeddedThumbnail,
                                         development: header.development)
        }
    }

    func metadata() throws -> ImageMetadata { try decoder().metadata }

    var codeTables: [[UInt8]]? {
        tables.map { t in let codes = t.codes; return [Array(codes[0..<256]), Array(codes[256..<512]), Array(codes[512...])] }
    }

    var decodeTables: ChannelTables? {
        header.decodedDepth == 8 && !header.hasAlpha && gamut == nil ? tables ?? .srgb : nil
    }

    /// Size of the decoded pixels (after any DCT reduction, before block shrinking).
    var decodedSize: (width: Int, height: Int) {
        ((header.width + reduction - 1) / reduction, (header.height + reduction - 1) / reduction)
    }

    var decodedWidth: Int { decodedSize.width }

    func extent(inputs: [Rect]) -> Rect {
        let (w, h) = decodedSize, k = blockShrink
        return Rect(x: 0, y: 0, width: Double((w + k - 1) / k), height: Double((h + k - 1) / k))
    }

    /// The same file decoded at 1/`reduction` scale and shrunk by blocks of `blockShrink`.
    func reduced(by reduction: Int, blockShrink: Int = 1) -> SourceKernel {
        SourceKernel(origin: origin, header: header, reduction: reduction, blockShrink: blockShrink, tables: tables, gamut: gamut)
    }

    func isOpaque(inputs: [Image]) -> Bool { !header.hasAlpha }

    /// Shrink-on-load, leaving at least a factor of 2 for the Lanczos resampler: for a
    /// shrink to ≤ ½, decode at the largest reduction the file offers (`ImageHeader.reductions`:
    /// a JPEG's 1/2, 1/4, 1/8, a TIFF pyramid's levels); then, for any format, when 8 or
    /// more remains, average k×k blocks of decoded pixels while converting them (k = half
    /// what remains), as vipsthumbnail does. The span says where the picture lies in the
    /// smaller pixels: W/r/k of its columns from the left, H/r/k of its rows ending at the
    /// top (a decoder's partial last row is the bottom one).
    func shrunkOnLoad(for scale: ScaleKernel, margin: Double?) -> (source: any RowSource, span: ScaleKernel.Span)? {
        guard reduction == 1, blockShrink == 1 else { return nil }
        var shrink = 1 / max(scale.scaleX, scale.scaleY)
        var reduction = 1
        let margin = max(1, min(header.reductionMargin, margin ?? .infinity))  // below 1 counts as 1; NaN keeps the format's
        if let r = header.reductions.sorted(by: >).first(where: { Double($0) <= shrink / margin }) {
            reduction = r
            shrink /= Double(r)
        }
        let k = shrink >= 8 ? Int(shrink / 2) : 1
        guard reduction > 1 || k > 1 else { return nil }
        let reduced = reduced(by: reduction, blockShrink: k)
        let (w, h) = reduced.decodedSize
        let exact = (Double(header.width) / Double(reduction), Double(header.height) / Double(reduction))
        // Blocks are laid from the bottom (the working space's origin), so the decoded rows
        // run from 0 to h there, and the picture's rows end at the top one.
        let decodedTop = Double(h)
        let span = ScaleKernel.Span(x: (0, min(exact.0, Double(w)) / Double(k)),
                                    y: ((decodedTop - min(exact.1, Double(h))) / Double(k), min(exact.1, Double(h)) / Double(k)))
        return (reduced, span)
    }

    /// Decoded rows missing from the top block when the height is not a multiple of the
    /// block size: blocks are laid from the bottom edge up, as the working space's y axis
    /// and the resampler's span run (`Resample1D.separablePasses`), so the partial block is
    /// the top one. (Laid from the top, the picture sat up to a block too low under the
    /// resampler: a 2268×1512 photo's 96-pixel thumbnail was 28 dB from a direct Lanczos.)
    var missingTopRows: Int {
        let height = Int(extent(inputs: []).height)
        return blockShrink > 1 ? height * blockShrink - decodedSize.height : 0
    }

    /// Decoded rows (top = 0) holding `region` of the image.
    func rows(for region: PixelRect) -> Range<Int> {
        let height = Int(extent(inputs: []).height), k = blockShrink, missing = missingTopRows
        let first = max(0, min((height - region.maxY) * k - missing, decodedSize.height))
        return first..<max(first, min((height - region.y) * k - missing, decodedSize.height))
    }

    /// Converts the decoded rows covering `output.rect` into working-space pixels; with
    /// a block shrink, each pixel is the mean of its block in linear light (premultiplied),
    /// summed in a fixed order.
    func convert(_ rows: any DecodedRows, into output: Tile) {
        let height = Int(extent(inputs: []).height)
        let r = output.rect, k = blockShrink
        let profile = RGBProfile.wideGamut(gamut)
        guard k > 1 else {
            for y in r.y..<r.maxY {
                convertRow(rows, fileRow: height - 1 - y, first: r.x, count: r.width, profile: profile, into: output.row(y))
            }
            return
        }
        let (decodedWidth, decodedHeight) = decodedSize
        let firstColumn = r.x * k, columns = max(0, min(r.width * k, decodedWidth - firstColumn))
        // A row of blocks is converted a few blocks at a time, so the converted pixels are
        // summed while they are in the first-level cache (a whole tile's width of them at
        // k = 20 was 80 KB, written and read back from the second level).
        let chunk = max(1, (16 << 10) / (16 * k))
        withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: max(1, min(columns, chunk * k))) { scratch in
            let line = scratch.baseAddress!
            for y in r.y..<r.maxY {
                let out = output.row(y)
                out.update(repeating: .zero, count: r.width)
                let top = (height - 1 - y) * k - missingTopRows
                let blockRows = max(0, min(top + k, decodedHeight) - max(top, 0))
                for fileRow in max(top, 0)..<(max(top, 0) + blockRows) {
                    for start in stride(from: 0, to: r.width, by: chunk) {
                        let from = start * k, to = min((start + chunk) * k, columns)
                        guard from < to else { break }
                        convertRow(rows, fileRow: fileRow, first: firstColumn + from, count: to - from, profile: profile, into: line)
                        for i in start..<min(start + chunk, r.width) {
                            let block = line + (i * k - from), n = min(k, to - i * k)
                            var sum = SIMD4<Float>.zero
                            for c in 0..<max(0, n) { sum += block[c] }
                            out[i] += sum
                        }
                    }
                }
                for i in 0..<r.width {
                    let n = blockRows * max(0, min(i * k + k, columns) - i * k)
                    out[i] = n > 0 ? out[i] / Float(n) : .zero
                }
            }
        }
    }

    /// Converts pixels `first ..< first + count` of decoded row `fileRow`.
    private func convertRow(_ rows: any DecodedRows, fileRow: Int, first: Int, count: Int, profile: RGBProfile?,
                            into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let raster = rows.raster, channels = raster.channels, alphaPremultiplied = raster.alphaPremultiplied
        let base = rows.rowPointer(fileRow: fileRow)
        if raster.depth == 32 {
            // Linear light already (OpenEXR): values above 1 are kept; alpha premultiplied.
            let floats = base.assumingMemoryBound(to: Float.self) + first * channels
            for i in 0..<count {
                let p = floats + i * channels
                let alpha: Float = channels == 2 || channels == 4 ? p[channels - 1] : 1
                let rgb = channels >= 3 ? SIMD3(p[0], p[1], p[2]) : SIMD3(repeating: p[0])
                out[i] = SIMD4(alphaPremultiplied ? rgb : rgb * alpha, alpha)
            }
        } else if let profile, channels >= 3, !alphaPremultiplied {
            if raster.depth == 8 {
                Self.convertRow(base.assumingMemoryBound(to: UInt8.self) + first * channels, channels: channels, count: count,
                                profile: profile, curves: profile.decode8, out: out)
            } else {
                Self.convertRow(base.assumingMemoryBound(to: UInt16.self) + first * channels, channels: channels, count: count,
                                profile: profile, curves: profile.decode16, out: out)
            }
        } else if raster.depth == 8, channels == 1 || channels == 3 {
            (tables ?? .srgb).expand(base.assumingMemoryBound(to: UInt8.self) + first * channels, channels: channels, count: count,
                                     into: out)
        } else if raster.depth == 8 {
            let bytes = base.assumingMemoryBound(to: UInt8.self) + first * channels
            TransferFunction.linearFrom8.withUnsafeBufferPointer { lut in
                Self.convertRow(bytes, channels: channels, count: count, lut: lut, scale: 1 / 255,
                                alphaPremultiplied: alphaPremultiplied, out: out)
            }
        } else {
            let words = base.assumingMemoryBound(to: UInt16.self) + first * channels
            TransferFunction.linearFrom16.withUnsafeBufferPointer { lut in
                Self.convertRow(words, channels: channels, count: count, lut: lut, scale: 1 / 65535,
                                alphaPremultiplied: alphaPremultiplied, out: out)
            }
        }
    }

    /// RGB(A) rows in a wide-gamut profile: its curves, then its matrix into linear sRGB,
    /// unclipped; alpha premultiplied.
    private static func convertRow<T: FixedWidthInteger & UnsignedInteger>(
        _ input: UnsafeMutablePointer<T>, channels: Int, count: Int, profile: RGBProfile, curves: [[Float]],
        out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let m = profile.toSRGB, offset = profile.offset, scale = 1 / Float(T.max)
        curves[0].withUnsafeBufferPointer { red in
            curves[1].withUnsafeBufferPointer { green in
                curves[2].withUnsafeBufferPointer { blue in
                    for i in 0..<count {
                        let at = channels * i
                        let rgb = RGBProfile.apply(m, SIMD3(red[Int(input[at])], green[Int(input[at + 1])], blue[Int(input[at + 2])])) + offset
                        let a = channels == 4 ? Float(input[at + 3]) * scale : 1
                        out[i] = SIMD4(rgb * a, a)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func convertRow<T: FixedWidthInteger & UnsignedInteger>(
        _ input: UnsafeMutablePointer<T>, channels: Int, count: Int, lut: UnsafeBufferPointer<Float>,
        scale: Float, alphaPremultiplied: Bool, out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let maxCode = Float(T.max)
        switch channels {
        case 1:
            for i in 0..<count {
                let g = lut[Int(input[i])]
                out[i] = SIMD4(g, g, g, 1)
            }
        case 3:
            for i in 0..<count {
                out[i] = SIMD4(lut[Int(input[3 * i])], lut[Int(input[3 * i + 1])], lut[Int(input[3 * i + 2])], 1)
            }
        default:
            let colorChannels = channels - 1
            for i in 0..<count {
                let alphaCode = input[channels * i + colorChannels]
                let a = Float(alphaCode) * scale
                func linear(_ c: Int) -> Float {
                    let code = input[channels * i + c]
                    guard alphaPremultiplied else { return lut[Int(code)] }
                    // Stored premultiplied in encoded space: unpremultiply before linearizing.
                    guard alphaCode > 0 else { return 0 }
                    let encoded = min(1, Float(code) / Float(alphaCode))
                    return lut[Int((encoded * maxCode).rounded())]
                }
                let rgb = colorChannels == 1 ? SIMD3(repeating: linear(0)) : SIMD3(linear(0), linear(1), linear(2))
                out[i] = SIMD4(rgb * a, a)
            }
        }
    }
}
