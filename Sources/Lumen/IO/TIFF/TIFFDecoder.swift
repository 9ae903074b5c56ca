import CTIFF
import CLCMS
import LumenPlatform

/// Reads the first page of a TIFF through libtiff, in bands of strips or tile rows, in
/// either planar configuration and any compression libtiff has (LZW, Deflate, PackBits,
/// CCITT, JPEG — JPEG's YCbCr at any subsampling comes out as RGB from libtiff's JPEG
/// codec): 1/2/4/8/16-bit gray (min-is-black or min-is-white) with or without alpha,
/// 8/16-bit RGB(A), 1/2/4/8-bit palettes (as RGB), and 8/16-bit CMYK(A), converted to RGB
/// through its embedded profile (Little CMS) or, without one, by the naive formula, and
/// 32-bit floating-point gray and RGB(A) as linear light (libvips's scRGB). A
/// pyramid's reduced levels (SubIFDs, or later pages marked reduced) are offered as
/// shrink-on-load (`ImageHeader.reductions`). Anything else libtiff's RGBA interface
/// understands (uncompressed YCbCr, odd sample counts) reads whole as 8-bit RGBA. Old-style
/// JPEG (compression 6) is refused.
final class TIFFDecoder: ImageDecoder {
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String
    private let info: CTIFF_Info
    /// The RGBA route reads the whole page into one buffer.
    var decodesWhole: Bool { plan == nil }
    var convertsProfileItself: Bool { if case .cmyk = plan?.samples { true } else { false } }
    /// How the stored samples become the delivered layout, or nil for the RGBA route.
    private let plan: Plan?
    /// Reduced levels by factor: the level to read for a reduction of r.
    private let levels: [Int: CTIFF_Level]

    init(data: Data, path: String) throws {
        self.data = data
        self.path = path
        let (info, metadata, levels) = try data.withUnsafeBytes { bytes -> (CTIFF_Info, ImageMetadata, [Int: CTIFF_Level]) in
            let tiff = try TIFFMemoryFile(reading: bytes, name: path)
            var info = CTIFF_Info()
            guard CTIFF_info(tiff.file, &info) == 0 else {
                throw LumenError.corrupt(file: path, reason: "missing width or height")
            }
            var length = 0
            var metadata = ImageMetadata()
            metadata.iccProfile = CTIFF_icc(tiff.file, &length).map { Data(bytes: $0, count: length) }
            metadata.xmp = CTIFF_xmp(tiff.file, &length).map { Data(bytes: $0, count: length) }
            metadata.iptc = CTIFF_iptc(tiff.file, &length).map { Data(bytes: $0, count: length) }
            metadata.exif = TIFFExif.block(fromTIFF: data)
            var x: Float = 0, y: Float = 0
            if CTIFF_resolution(tiff.file, &x, &y) != 0 { metadata.resolution = (Double(x), Double(y)) }
            return (info, metadata, Self.pyramid(tiff.file, info))
        }
        plan = try data.withUnsafeBytes { bytes in
            let tiff = try TIFFMemoryFile(reading: bytes, name: path)
            return Self.plan(tiff.file, info)
        }
        self.info = info
        self.metadata = metadata
        self.levels = levels
        let icc = metadata.iccProfile
        let compressions = [1: "uncompressed", 5: "LZW", 6: "old-style JPEG", 7: "JPEG", 8: "Deflate", 32773: "PackBits", 32946: "Deflate",
                            34925: "LZMA", 50000: "Zstandard", 50001: "WebP"]
        let photometrics = [0: "min-is-white", 1: "gray", 2: "RGB", 3: "palette", 5: "CMYK", 6: "YCbCr"]
        var details = [photometrics[Int(info.photometric)] ?? "photometric \(info.photometric)",
                       compressions[Int(info.compression)] ?? "compression \(info.compression)"]
        if info.tiled != 0 { details.append("tiled") }
        if info.planarConfig == 2 { details.append("separate planes") }
        if !levels.isEmpty { details.append("pyramid of \(levels.count + 1) levels") }
        let hasAlpha = plan.map { $0.layout.channels == 2 || $0.layout.channels == 4 } ?? (info.extraSamples > 0)
        var header = ImageHeader(format: .tiff, width: Int(info.width), height: Int(info.height),
                                 channels: Int(info.samplesPerPixel), bitDepth: Int(info.bitsPerSample),
                                 hasAlpha: hasAlpha, orientation: (1...8).contains(Int(info.orientation)) ? Int(info.orientation) : 1,
                                 hasICCProfile: info.hasICC != 0, iccDescription: ColorProfile(icc)?.description, details: details)
        header.reductions = levels.keys.sorted()
        header.reductionMargin = 1
        self.header = header
        if info.sampleFormat == 3 && plan == nil {
            throw LumenError.unsupported(file: path, reason: "\(info.bitsPerSample)-bit floating-point samples (32-bit gray and RGB(A) are read)")
        }
        if info.compression == 6 {
            throw LumenError.unsupported(file: path, reason: "old-style JPEG compression (TIFF 6.0's compression 6, withdrawn in 1995): rewrite it with tiffcp -c jpeg")
        }
    }

    /// What a band of stored samples needs before it is delivered.
    enum Samples: Equatable {
        /// Delivered as stored (8/16-bit gray, RGB, JPEG's YCbCr read as RGB).
        case asStored
        /// Gray of `bits` bits (one byte each when under 8), scaled to 8 bits and/or inverted.
        case gray(bits: Int, minIsWhite: Bool)
        /// Indexes into a colour map of 16-bit entries, delivered as 8-bit RGB.
        case palette(red: [UInt16], green: [UInt16], blue: [UInt16])
        /// Ink amounts (0 = no ink), delivered as RGB(A) of the same depth.
        case cmyk(alpha: Bool)
        /// 32-bit IEEE floats, linear light as libvips reads them (scRGB): delivered as they
        /// are, values above 1 kept, except NaN and infinities, which become 0.
        case float
    }

    /// Reading a page in bands: the stored samples (interleaved by CTIFF_read_rows, sub-byte
    /// samples one byte each) and what they become.
    struct Plan: Equatable {
        var samples: Samples
        /// Samples per pixel and bytes per sample in the buffer CTIFF_read_rows fills.
        var storedChannels: Int, storedBytes: Int
        /// What the decoder delivers.
        var layout: DecodedLayout
    }

    /// The plan for the current directory, or nil when only libtiff's RGBA route reads it.
    private static func plan(_ file: OpaquePointer, _ info: CTIFF_Info) -> Plan? {
        let bits = Int(info.bitsPerSample), channels = Int(info.samplesPerPixel)
        let width = Int(info.width), height = Int(info.height), premultiplied = info.alphaAssociated != 0
        if info.sampleFormat == 3 {  // floats: 32-bit gray or RGB, with or without alpha
            guard bits == 32, (info.photometric == 1 && channels <= 2) || (info.photometric == 2 && (3...4).contains(channels)) else { return nil }
            return Plan(samples: .float, storedChannels: channels, storedBytes: 4,
                        layout: DecodedLayout(width: width, height: height, channels: channels, depth: 32, alphaPremultiplied: premultiplied))
        }
        guard info.sampleFormat <= 1 || info.sampleFormat == 4 else { return nil }  // unsigned integers only
        func plan(_ samples: Samples, _ outChannels: Int, _ outDepth: Int) -> Plan {
            Plan(samples: samples, storedChannels: channels, storedBytes: bits == 16 ? 2 : 1,
                 layout: DecodedLayout(width: width, height: height, channels: outChannels, depth: outDepth,
                                       alphaPremultiplied: premultiplied))
        }
        switch (Int(info.photometric), channels, bits) {
        case (1, 1...2, 8), (1, 1...2, 16), (2, 3...4, 8), (2, 3...4, 16):
            return plan(.asStored, channels, bits)
        case (6, 3, 8) where info.compression == 7 && info.planarConfig == 1:  // JPEG's YCbCr, read as RGB
            return plan(.asStored, channels, bits)
        case (0, 1...2, 1), (0, 1...2, 2), (0, 1...2, 4), (0, 1...2, 8), (0, 1...2, 16),
             (1, 1...2, 1), (1, 1...2, 2), (1, 1...2, 4):
            return plan(.gray(bits: bits, minIsWhite: info.photometric == 0), channels, bits == 16 ? 16 : 8)
        case (3, 1, 1), (3, 1, 2), (3, 1, 4), (3, 1, 8):
            var red: UnsafePointer<UInt16>?, green: UnsafePointer<UInt16>?, blue: UnsafePointer<UInt16>?
            guard CTIFF_colormap(file, &red, &green, &blue) == 0, let red, let green, let blue else { return nil }
            let entries = 1 << bits
            return plan(.palette(red: Array(UnsafeBufferPointer(start: red, count: entries)),
                                 green: Array(UnsafeBufferPointer(start: green, count: entries)),
                                 blue: Array(UnsafeBufferPointer(start: blue, count: entries))), 3, 8)
        case (5, 4...5, 8) where CTIFF_inkset(file) == 1, (5, 4...5, 16) where CTIFF_inkset(file) == 1:
            return plan(.cmyk(alpha: channels == 5), channels - 1, bits)
        default:
            return nil
        }
    }

    /// The reduced levels usable as shrink-on-load: each read as stored with page 0's layout,
    /// within a pixel of ⌈size / r⌉ for a power of two r.
    private static func pyramid(_ file: OpaquePointer, _ info: CTIFF_Info) -> [Int: CTIFF_Level] {
        guard let full = plan(file, info), full.samples == .asStored else { return [:] }
        var found = [CTIFF_Level](repeating: CTIFF_Level(), count: 32)
        let count = Int(CTIFF_levels(file, &found, Int32(found.count)))
        var levels: [Int: CTIFF_Level] = [:]
        for var level in found.prefix(count) {
            let r = 1 << Int(log2(Double(info.width) / Double(level.width)).rounded())
            guard r >= 2, r <= 1 << 16, abs((Int(info.width) + r - 1) / r - Int(level.width)) <= 1,
                  abs((Int(info.height) + r - 1) / r - Int(level.height)) <= 1, levels[r] == nil,
                  CTIFF_select(file, &level) == 0 else { continue }
            var levelInfo = CTIFF_Info()
            guard CTIFF_info(file, &levelInfo) == 0, let layout = plan(file, levelInfo)?.layout, plan(file, levelInfo)?.samples == .asStored,
                  layout.channels == full.layout.channels, layout.depth == full.layout.depth,
                  layout.alphaPremultiplied == full.layout.alphaPremultiplied
            else { continue }
            levels[r] = level
        }
        _ = CTIFF_select(file, nil)
        return levels
    }

    func layout(reduction: Int) -> DecodedLayout {
        guard let full = plan?.layout else {
            return DecodedLayout(width: Int(info.width), height: Int(info.height), channels: 4, depth: 8,
                                 alphaPremultiplied: true)  // libtiff's RGBA interface premultiplies
        }
        guard levels[reduction] != nil else { return full }
        return DecodedLayout(width: (full.width + reduction - 1) / reduction, height: (full.height + reduction - 1) / reduction,
                             channels: full.channels, depth: full.depth, alphaPremultiplied: full.alphaPremultiplied)
    }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        var stale = [CChar](repeating: 0, count: 8)
        _ = CTIFF_take_warning(&stale, stale.count)  // raised by earlier reads on this thread
        try data.withUnsafeBytes { bytes in
            let tiff = try TIFFMemoryFile(reading: bytes, name: path)
            try withExtendedLifetime(tiff) {
                if var level = levels[reduction] {
                    guard CTIFF_select(tiff.file, &level) == 0 else { throw failure() }
                    try decodeLevel(tiff.file, level: level, target: layout(reduction: reduction), rows: rows, body)
                } else {
                    try decode(tiff.file, rows: rows, body)
                }
            }
        }
        var warning = [CChar](repeating: 0, count: 512)
        if CTIFF_take_warning(&warning, warning.count) != 0 {
            try DecodeWarnings.report(file: path, "libtiff: " + String(nulTerminated: warning))
        }
    }

    private func decode(_ file: OpaquePointer, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let layout = self.layout(reduction: 1)
        let stride = layout.width * layout.channels * layout.depth / 8
        guard let plan else {
            // Uncompressed YCbCr, odd sample counts…: libtiff's RGBA interface, whole image at once.
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * layout.height, alignment: 16)
            defer { buffer.deallocate() }
            guard CTIFF_read_rgba(file, buffer.assumingMemoryBound(to: UInt32.self)) == 0 else { throw failure() }
            try body(RowBand(firstRow: 0, rowCount: layout.height, bytesPerRow: stride, base: UnsafeRawPointer(buffer)))
            return
        }
        let storedStride = layout.width * plan.storedChannels * plan.storedBytes
        if plan.samples == .asStored {
            try readBands(file, width: layout.width, height: layout.height, stride: storedStride, rows: rows, body)
            return
        }
        let convert = try converter(plan)
        var converted: UnsafeMutableRawPointer?
        var capacity = 0
        defer { converted?.deallocate() }
        try readBands(file, width: layout.width, height: layout.height, stride: storedStride, rows: rows) { band in
            if band.rowCount * stride > capacity {
                converted?.deallocate()
                capacity = band.rowCount * stride
                converted = .allocate(byteCount: capacity, alignment: 16)
            }
            convert(band.base, converted!, band.rowCount * layout.width)
            try body(RowBand(firstRow: band.firstRow, rowCount: band.rowCount, bytesPerRow: stride, base: UnsafeRawPointer(converted!)))
        }
    }

    /// Turns `pixels` stored pixels (as CTIFF_read_rows leaves them) into the delivered layout.
    private func converter(_ plan: Plan) throws -> (UnsafeRawPointer, UnsafeMutableRawPointer, Int) -> Void {
        let channels = plan.storedChannels
        switch plan.samples {
        case .asStored:
            let bytes = channels * plan.storedBytes
            return { input, output, pixels in output.copyMemory(from: input, byteCount: pixels * bytes) }
        case .gray(let bits, let minIsWhite):
            if bits == 16 {  // 16-bit min-is-white: inverted, alpha kept
                return { input, output, pixels in
                    let source = input.assumingMemoryBound(to: UInt16.self), target = output.assumingMemoryBound(to: UInt16.self)
                    for i in 0..<pixels * channels { target[i] = i % channels == 0 ? .max - source[i] : source[i] }
                }
            }
            // A table per sample: gray scaled to 0…255 (inverted for min-is-white), alpha scaled.
            let top = (1 << bits) - 1
            let levels = (0...top).map { UInt8(($0 * 255 + top / 2) / top) }
            let grays = minIsWhite ? Array(levels.reversed()) : levels
            return { input, output, pixels in
                let source = input.assumingMemoryBound(to: UInt8.self), target = output.assumingMemoryBound(to: UInt8.self)
                for i in 0..<pixels * channels { target[i] = (i % channels == 0 ? grays : levels)[Int(source[i])] }
            }
        case .palette(let red, let green, let blue):
            // As libtiff and libvips: a map whose entries all fit 8 bits is 8-bit, else its high bytes.
            let shift = (red + green + blue).allSatisfy { $0 < 256 } ? 0 : 8
            let table = red.indices.map { SIMD3(UInt8(red[$0] >> shift), UInt8(green[$0] >> shift), UInt8(blue[$0] >> shift)) }
            return { input, output, pixels in
                let source = input.assumingMemoryBound(to: UInt8.self), target = output.assumingMemoryBound(to: UInt8.self)
                for i in 0..<pixels {
                    let entry = table[Int(source[i]) & (table.count - 1)]
                    target[3 * i] = entry.x; target[3 * i + 1] = entry.y; target[3 * i + 2] = entry.z
                }
            }
        case .float:
            return { input, output, pixels in
                let source = input.assumingMemoryBound(to: Float.self), target = output.assumingMemoryBound(to: Float.self)
                for i in 0..<pixels * channels { target[i] = source[i].isFinite ? source[i] : 0 }
            }
        case .cmyk(let alpha):
            let depth = plan.storedBytes * 8
            if let profile = ColorProfile(iccProfile) {
                let transform = try profile.converter(for: alpha ? CLCMS_CMYK_ALPHA : CLCMS_CMYK, depth: depth, file: path)
                return { input, output, pixels in transform.convert(input, into: output, pixels: pixels) }
            }
            return { input, output, pixels in CMYK.naiveToRGB(input, into: output, pixels: pixels, depth: depth, alpha: alpha) }
        }
    }

    /// Bands of whole strips or tile rows (at least 64 rows) of the current directory, read once each.
    private func readBands(_ file: OpaquePointer, width: Int, height: Int, stride: Int, rows: Range<Int>,
                           _ body: (RowBand) throws -> Void) throws {
        let unit = Int(CTIFF_row_unit(file))
        let bandRows = max(unit, (64 + unit - 1) / unit * unit)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * min(bandRows, height), alignment: 16)
        defer { buffer.deallocate() }
        var first = rows.lowerBound / unit * unit
        while first < min(rows.upperBound, height) {
            let count = min(bandRows, height - first)
            guard CTIFF_read_rows(file, buffer.assumingMemoryBound(to: UInt8.self), stride, UInt32(first), UInt32(count)) == 0 else {
                throw failure()
            }
            try body(RowBand(firstRow: first, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(buffer)))
            first += count
        }
    }

    /// A reduced level as ⌈size / r⌉ pixels: a level a pixel narrower or shorter repeats
    /// its last column or row, one a pixel larger is cut.
    private func decodeLevel(_ file: OpaquePointer, level: CTIFF_Level, target: DecodedLayout, rows: Range<Int>,
                             _ body: (RowBand) throws -> Void) throws {
        let pixelBytes = target.channels * target.depth / 8
        let levelWidth = Int(level.width), levelHeight = Int(level.height)
        let levelStride = levelWidth * pixelBytes, stride = target.width * pixelBytes
        var widened: UnsafeMutableRawPointer?
        var capacity = 0
        defer { widened?.deallocate() }
        var lastRow = [UInt8](repeating: 0, count: stride)
        let levelRows = rows.lowerBound.clamped(0, levelHeight - 1)..<min(rows.upperBound, levelHeight)
        try readBands(file, width: levelWidth, height: levelHeight, stride: levelStride, rows: levelRows) { band in
            let count = min(band.rowCount, target.height - band.firstRow)
            guard count > 0 else { return }
            if count * stride > capacity {
                widened?.deallocate()
                widened = .allocate(byteCount: count * stride, alignment: 16)
                capacity = count * stride
            }
            for r in 0..<count {
                let source = band.base + r * band.bytesPerRow, destination = widened! + r * stride
                let copied = min(levelStride, stride)
                destination.copyMemory(from: source, byteCount: copied)
                for x in Swift.stride(from: copied, to: stride, by: pixelBytes) {
                    destination.advanced(by: x).copyMemory(from: source + copied - pixelBytes, byteCount: pixelBytes)
                }
            }
            lastRow.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: widened! + (count - 1) * stride, byteCount: stride) }
            try body(RowBand(firstRow: band.firstRow, rowCount: count, bytesPerRow: stride, base: UnsafeRawPointer(widened!)))
        }
        // Rows the level lacks (it is a pixel short): its last row again.
        if target.height > levelHeight, rows.upperBound > levelHeight {
            try lastRow.withUnsafeBytes { last in
                for row in max(levelHeight, rows.lowerBound)..<min(rows.upperBound, target.height) {
                    try body(RowBand(firstRow: row, rowCount: 1, bytesPerRow: stride, base: last.baseAddress!))
                }
            }
        }
    }

    private func failure() -> LumenError {
        let message = String(cString: CTIFF_last_error())
        return LumenError.corrupt(file: path, reason: message.isEmpty ? "cannot decode pixels" : message)
    }
}

private extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), Swift.max(low, high)) }
}
