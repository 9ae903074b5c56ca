import LumenPlatform
import CHEIF

/// The largest thumbnail of the primary image, if any: its handle (release it) and item ID.
private func largestThumbnail(of handle: OpaquePointer, _ heif: CHEIF_Functions) -> (handle: OpaquePointer, item: heif_item_id)? {
    let count = Int(heif.heif_image_handle_get_number_of_thumbnails!(handle))
    guard count > 0 else { return nil }
    var ids = [heif_item_id](repeating: 0, count: count)
    _ = heif.heif_image_handle_get_list_of_thumbnail_IDs!(handle, &ids, Int32(count))
    var best: OpaquePointer?, bestID: heif_item_id = 0
    var bestArea = 0
    for id in ids {
        var thumbnail: OpaquePointer?
        guard heif.heif_image_handle_get_thumbnail!(handle, id, &thumbnail).failure == nil, let thumbnail else { continue }
        let area = Int(heif.heif_image_handle_get_width!(thumbnail)) * Int(heif.heif_image_handle_get_height!(thumbnail))
        if area > bestArea {
            if let best { heif.heif_image_handle_release!(best) }
            best = thumbnail
            bestID = id
            bestArea = area
        } else {
            heif.heif_image_handle_release!(thumbnail)
        }
    }
    return best.map { ($0, bestID) }
}

/// The primary image, or its largest embedded thumbnail when `thumbnail` is set.
private func withPrimaryImage<T>(_ data: Data, path: String, thumbnail: Bool, sideLimit: Int = 65535,
                                 _ body: (OpaquePointer) throws -> T) throws -> T {
    let heif = try libheif(file: path)
    return try withPrimaryImage(data, path: path, sideLimit: sideLimit) { primary in
        guard thumbnail else { return try body(primary) }
        guard let preview = largestThumbnail(of: primary, heif) else {
            throw LumenError.unsupported(file: path, reason: "the file embeds no thumbnail")
        }
        defer { heif.heif_image_handle_release!(preview.handle) }
        return try body(preview.handle)
    }
}

/// A HEIF file opened from bytes, for the span of one call (libheif reads from memory
/// without copying, so the context must not outlive the bytes), and its primary image.
private func withPrimaryImage<T>(_ data: Data, path: String, sideLimit: Int = 65535, _ body: (OpaquePointer) throws -> T) throws -> T {
    let heif = try libheif(file: path)
    return try data.withUnsafeBytes { bytes in
        guard let context = heif.heif_context_alloc!() else { throw LumenError.unreadable(file: path, reason: "out of memory") }
        defer { heif.heif_context_free!(context) }
        // libheif's own guard against absurd sizes (each side); Lumen's pixel limit is checked
        // from the header, and a decode is held to the header's size (see forEachBand).
        heif.heif_context_set_maximum_image_size_limit!(context, Int32(min(max(sideLimit, 1), 65535)))
        if let failure = heif.heif_context_read_from_memory_without_copy!(context, bytes.baseAddress, bytes.count, nil).failure {
            throw LumenError.corrupt(file: path, reason: failure)
        }
        var handle: OpaquePointer?
        if let failure = heif.heif_context_get_primary_image_handle!(context, &handle).failure {
            throw LumenError.corrupt(file: path, reason: failure)
        }
        guard let handle else { throw LumenError.corrupt(file: path, reason: "no primary image") }
        defer { heif.heif_image_handle_release!(handle) }
        return try body(handle)
    }
}

/// The primary image of a HEIC or AVIF, decoded whole by libheif (which in Debian's 1.15
/// has no call to decode one tile of a grid) and handed out in bands.
final class HEIFDecoder: ImageDecoder {
    /// The library decodes the whole picture (or frame) before bands are handed out.
    var decodesWhole: Bool { true }
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String

    private let thumbnail: Bool

    init(data: Data, path: String, format: ImageFileFormat, thumbnail: Bool = false) throws {
        self.data = data
        self.path = path
        self.thumbnail = thumbnail
        let heif = try libheif(file: path)
        let codecName = format == .avif ? "AV1" : "HEVC"
        // The largest preview's size as decoded.
        let preview: (Int, Int) = try withPrimaryImage(data, path: path) { primary in
            guard let best = largestThumbnail(of: primary, heif) else { return (0, 0) }
            defer { heif.heif_image_handle_release!(best.handle) }
            return Self.decodedSize(of: best.handle, item: best.item, data, heif)
        }
        var (header, metadata) = try withPrimaryImage(data, path: path) { handle in
            let (width, height) = Self.decodedSize(of: handle, item: nil, data, heif)
            let alpha = heif.heif_image_handle_has_alpha_channel!(handle) != 0
            let bits = Int(heif.heif_image_handle_get_luma_bits_per_pixel!(handle))
            // No decoder configuration (hvcC/av1C): the stream's own headers would decide the
            // size, unchecked — a 6 KB fuzzed file made libde265 take 4.8 GB and 26 s.
            guard (1...16).contains(bits) else {
                throw LumenError.corrupt(file: path, reason: "undefined bit depth (no decoder configuration for the image)")
            }
            var metadata = ImageMetadata()
            let profileType = heif.heif_image_handle_get_color_profile_type!(handle)
            if profileType == heif_color_profile_type_prof || profileType == heif_color_profile_type_rICC {
                let size = heif.heif_image_handle_get_raw_color_profile_size!(handle)
                if size > 0 {
                    var profile = Data(count: size)
                    let failure = profile.withUnsafeMutableBytes { heif.heif_image_handle_get_raw_color_profile!(handle, $0.baseAddress).failure }
                    if failure == nil { metadata.iccProfile = profile }
                }
            }
            for (type, keep) in [("Exif", { (d: Data) in metadata.exif = d }), ("mime", { (d: Data) in metadata.xmp = d })] {
                let count = Int(heif.heif_image_handle_get_number_of_metadata_blocks!(handle, type))
                guard count > 0 else { continue }
                var ids = [heif_item_id](repeating: 0, count: count)
                _ = heif.heif_image_handle_get_list_of_metadata_block_IDs!(handle, type, &ids, Int32(count))
                for id in ids {
                    if type == "mime", let content = heif.heif_image_handle_get_metadata_content_type!(handle, id),
                       String(cString: content) != "application/rdf+xml" { continue }
                    let size = heif.heif_image_handle_get_metadata_size!(handle, id)
                    guard size > 0, size < 1 << 26 else { continue }
                    var block = Data(count: size)
                    guard block.withUnsafeMutableBytes({ heif.heif_image_handle_get_metadata!(handle, id, $0.baseAddress).failure }) == nil else { continue }
                    if type == "Exif" {
                        // HEIF's Exif item starts with a 4-byte offset to the TIFF header.
                        guard block.count > 4 else { continue }
                        let high: Int = Int(block[0]) << 24 | Int(block[1]) << 16
                        let offset: Int = high | Int(block[2]) << 8 | Int(block[3])
                        guard offset >= 0, 4 + offset < block.count else { continue }
                        // libheif applies the rotation and mirror boxes, so the pixels are
                        // upright: the EXIF orientation (informational in HEIF) must say 1,
                        // or outputs would be turned twice.
                        let exif = Data(block.dropFirst(4 + offset)).exifWithoutPrefix
                        var editor = ExifEditor(exif)
                        editor?.set(0x0112, to: 1)
                        keep(editor?.data ?? exif)
                    } else {
                        keep(block)
                    }
                    break
                }
            }
            var details = [codecName, "\(bits)-bit"]
            if preview.0 > 0 { details.append("thumbnail \(preview.0)×\(preview.1)") }
            if heif.heif_image_handle_has_depth_image!(handle) != 0 { details.append("depth map") }
            if let headroom = AppleGainMap.headroom(exif: metadata.exif), headroom > 1, AppleGainMap.hasGainMap(handle, heif) {
                details.append(String(printf: "HDR gain map (Apple, headroom %.3g)", headroom))
            } else if let headroom = ISOGainMap.headroom(heic: data), headroom > 1 {
                details.append(String(printf: "HDR gain map (ISO 21496-1, headroom %.3g)", headroom))
            }
            let header = ImageHeader(format: format, width: width, height: height, channels: alpha ? 4 : 3,
                                     bitDepth: bits, hasAlpha: alpha, orientation: 1,
                                     hasICCProfile: metadata.iccProfile != nil,
                                     iccDescription: ColorProfile(metadata.iccProfile)?.description, details: details,
                                     thumbnailWidth: preview.0, thumbnailHeight: preview.1)
            return (header, metadata)
        }
        if thumbnail {
            // The preview's own size and samples; the primary image's metadata and profile.
            try withPrimaryImage(data, path: path, thumbnail: true) { handle in
                (header.width, header.height) = (preview.0, preview.1)
                let alpha = heif.heif_image_handle_has_alpha_channel!(handle) != 0
                header.hasAlpha = alpha
                header.channels = alpha ? 4 : 3
                header.bitDepth = Int(heif.heif_image_handle_get_luma_bits_per_pixel!(handle))
                header.isEmbeddedThumbnail = true
                header.details.append("embedded thumbnail")
            }
        }
        self.header = header
        self.metadata = metadata
    }

    /// The size libheif's decode of `handle` delivers (its transformations applied): the
    /// handle's size, turned when the file's boxes say libheif reported it before a
    /// rotation (`HEIFItemGeometry`).
    private static func decodedSize(of handle: OpaquePointer, item: heif_item_id?, _ data: Data, _ heif: CHEIF_Functions) -> (Int, Int) {
        let reported = (Int(heif.heif_image_handle_get_width!(handle)), Int(heif.heif_image_handle_get_height!(handle)))
        return HEIFItemGeometry(data, item: item)?.decodedSize(handle: reported) ?? reported
    }

    func layout(reduction: Int) -> DecodedLayout {
        DecodedLayout(width: header.width, height: header.height, channels: header.channels, depth: header.bitDepth > 8 ? 16 : 8)
    }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let layout = self.layout(reduction: 1)
        let path = self.path
        let heif = try libheif(file: path)
        let bits = header.bitDepth
        // Nothing decoded may be much larger than the header says: a fuzzed grid of a 400×640
        // picture described a 48267×27014 canvas, which libheif allocated (3.9 GB) before any
        // check of Lumen's. The margin covers a grid's last tiles and the codec's padding.
        // (A preview is held by the primary image's size: libheif checks that one too.)
        let sideLimit = thumbnail ? 65535 : max(layout.width, layout.height) + 1024
        try withPrimaryImage(data, path: path, thumbnail: thumbnail, sideLimit: sideLimit) { handle in
            let chroma: heif_chroma = layout.depth == 8
                ? (layout.channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
                : (layout.channels == 4 ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
            var image: OpaquePointer?
            if let failure = heif.heif_decode_image!(handle, &image, heif_colorspace_RGB, chroma, nil).failure {
                throw LumenError.corrupt(file: path, reason: failure)
            }
            guard let image else { throw LumenError.corrupt(file: path, reason: "no image decoded") }
            defer { heif.heif_image_release!(image) }
            // Larger than the item says is the codec's padding, which libheif 1.15 leaves on some
            // items (Canon's thumbnails: 1664×1088 coded for an ispe of 1616×1080): the top-left
            // part is the picture, as newer libheif crops it. Smaller is an error.
            let decodedWidth = Int(heif.heif_image_get_width!(image, heif_channel_interleaved))
            let decodedHeight = Int(heif.heif_image_get_height!(image, heif_channel_interleaved))
            guard decodedWidth >= layout.width, decodedHeight >= layout.height else {
                throw LumenError.corrupt(file: path, reason: "the decoded image (\(decodedWidth)×\(decodedHeight)) is smaller than the header says (\(layout.width)×\(layout.height))")
            }
            var stride: Int32 = 0
            guard let plane = heif.heif_image_get_plane_readonly!(image, heif_channel_interleaved, &stride) else {
                throw LumenError.corrupt(file: path, reason: "no pixel plane")
            }
            let decodedBits = Int(heif.heif_image_get_bits_per_pixel_range!(image, heif_channel_interleaved))
            try HEIFDecoder.deliver(plane, stride: Int(stride), layout: layout, bits: layout.depth == 8 ? 8 : max(decodedBits, bits > 8 ? bits : 8),
                                    rows: rows, body)
        }
    }

    /// Hands out bands of the decoded plane: 8-bit rows as they are (when the stride
    /// allows), 10- and 12-bit samples stretched to the full 16-bit range.
    private static func deliver(_ plane: UnsafePointer<UInt8>, stride: Int, layout: DecodedLayout, bits: Int,
                                rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let rows = rows.clamped(to: 0..<layout.height)
        let rowBytes = layout.width * layout.channels * layout.depth / 8
        let bandRows = 64
        if layout.depth == 8 && stride == rowBytes {
            var row = rows.lowerBound
            while row < rows.upperBound {
                let count = min(bandRows, rows.upperBound - row)
                try body(RowBand(firstRow: row, rowCount: count, bytesPerRow: rowBytes, base: UnsafeRawPointer(plane + row * stride)))
                row += count
            }
            return
        }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * bandRows, alignment: 16)
        defer { scratch.deallocate() }
        let maximum = Float((1 << bits) - 1)
        var row = rows.lowerBound
        while row < rows.upperBound {
            let count = min(bandRows, rows.upperBound - row)
            for r in 0..<count {
                let source = UnsafeRawPointer(plane + (row + r) * stride), target = scratch + r * rowBytes
                if layout.depth == 8 {
                    target.copyMemory(from: source, byteCount: rowBytes)
                } else {
                    let samples = layout.width * layout.channels
                    let input = source.assumingMemoryBound(to: UInt16.self), output = target.assumingMemoryBound(to: UInt16.self)
                    let scale = 65535 / maximum
                    for i in 0..<samples {
                        output[i] = UInt16(min(65535, (Float(UInt16(littleEndian: input[i])) * scale).rounded()))
                    }
                }
            }
            try body(RowBand(firstRow: row, rowCount: count, bytesPerRow: rowBytes, base: UnsafeRawPointer(scratch)))
            row += count
        }
    }
}

extension HEIFDecoder {
    /// The primary image's handle of a HEIF file's bytes, for the span of `body`.
    static func withPrimaryHandle<T>(_ data: Data, path: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        try withPrimaryImage(data, path: path, sideLimit: 65535, body)
    }
}
