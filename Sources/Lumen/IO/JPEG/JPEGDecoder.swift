import CJPEG
import CLCMS
import LumenPlatform

/// Reads JPEG through libjpeg-turbo: baseline, progressive, grayscale, CMYK/YCCK,
/// with DCT-domain downscaling by 2, 4 or 8.
final class JPEGDecoder: ImageDecoder {
    let header: ImageHeader
    let metadata: ImageMetadata
    var iccProfile: Data? { metadata.iccProfile }
    private let data: Data
    private let path: String
    private let colorSpace: Int32
    private let adobeInverted: Bool

    init(data: Data, path: String) throws {
        self.data = data
        self.path = path
        var raw = CJPEG_Header()
        var orientation = 1
        var icc: Data?
        var metadata = ImageMetadata()
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let decoder = CJPEG_decoder_create(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            defer { CJPEG_decoder_destroy(decoder) }
            guard let decoder else { throw LumenError.unreadable(file: path, reason: "out of memory") }
            if CJPEG_read_header(decoder, &raw) != 0 {
                throw LumenError.corrupt(file: path, reason: String(cString: CJPEG_decoder_message(decoder)))
            }
            var length = 0
            if let exif = CJPEG_exif(decoder, &length) {
                orientation = exifOrientation(in: UnsafeBufferPointer(start: exif, count: length))
                metadata.exif = Data(bytes: exif, count: length)
            }
            if let bytes = CJPEG_icc(decoder, &length) { icc = Data(bytes: bytes, count: length) }
            if let xmp = CJPEG_marker(decoder, 1, JPEGMarkers.xmpPrefix, JPEGMarkers.xmpPrefix.utf8.count + 1, &length) {
                metadata.xmp = Data(bytes: xmp, count: length)
            }
            if let photoshop = CJPEG_marker(decoder, 13, JPEGMarkers.photoshopPrefix, JPEGMarkers.photoshopPrefix.utf8.count + 1, &length) {
                metadata.iptc = IPTC.records(inPhotoshopResources: Data(bytes: photoshop, count: length))
            }
        }
        metadata.iccProfile = icc
        let perInch = raw.densityUnit == 1 ? 1.0 : raw.densityUnit == 2 ? 2.54 : 0
        if perInch > 0, raw.xDensity > 0, raw.yDensity > 0 {
            metadata.resolution = (Double(raw.xDensity) * perInch, Double(raw.yDensity) * perInch)
        }
        self.metadata = metadata
        colorSpace = raw.colorSpace
        adobeInverted = raw.adobeInverted != 0
        var details = raw.progressive != 0 ? ["progressive"] : ["baseline"]
        switch raw.colorSpace {
        case 1: details.append("grayscale")
        case 4: details.append("CMYK")
        case 5: details.append("YCCK")
        default: details.append("YCbCr")
        }
        if GainMap.hasMultiPictureIndex(data), let map = GainMap.read(fromJPEG: data) {
            let apple: Bool = if case .appleJPEG = map.encoded { true } else { false }
            details.append("HDR gain map (\(apple ? "Apple, " : "")headroom \(String(printf: "%.3g", map.headroom)))")
        }
        var header = ImageHeader(format: .jpeg, width: Int(raw.width), height: Int(raw.height),
                                 channels: Int(raw.components), bitDepth: 8, hasAlpha: false,
                                 orientation: orientation, hasICCProfile: icc != nil,
                                 iccDescription: ColorProfile(icc)?.description, details: details)
        header.reductions = JPEGCodec().capabilities.shrinkOnLoad  // libjpeg's DCT scaling
        self.header = header
    }

    private var isGray: Bool { colorSpace == 1 }
    private var isCMYK: Bool { colorSpace == 4 || colorSpace == 5 }
    var convertsProfileItself: Bool { isCMYK }

    func layout(reduction: Int) -> DecodedLayout {
        let r = Self.validReduction(reduction)
        return DecodedLayout(width: (header.width + r - 1) / r, height: (header.height + r - 1) / r,
                             channels: isGray ? 1 : 3, depth: 8)
    }

    static func validReduction(_ reduction: Int) -> Int {
        [8, 4, 2].first { reduction >= $0 } ?? 1
    }

    func forEachBand(reduction: Int, rows wanted: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let path = self.path
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let decoder = CJPEG_decoder_create(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            defer { CJPEG_decoder_destroy(decoder) }
            guard let decoder else { throw LumenError.unreadable(file: path, reason: "out of memory") }
            func fail() -> LumenError { .corrupt(file: path, reason: String(cString: CJPEG_decoder_message(decoder))) }
            var raw = CJPEG_Header()
            guard CJPEG_read_header(decoder, &raw) == 0 else { throw fail() }
            var width: Int32 = 0, height: Int32 = 0
            let decodedComponents: Int32 = isGray ? 1 : isCMYK ? 4 : 3
            guard CJPEG_start(decoder, Int32(Self.validReduction(reduction)), decodedComponents, &width, &height) == 0 else { throw fail() }
            let outChannels = isGray ? 1 : 3
            // With a profile, CMYK converts through it; without, by the naive formula.
            let cmykProfile = isCMYK ? try ColorProfile(iccProfile).map {
                try $0.converter(for: adobeInverted ? CLCMS_CMYK_INVERTED : CLCMS_CMYK, depth: 8, file: path)
            } : nil
            let bandRows = 16
            let stride = Int(width) * Int(decodedComponents)
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * bandRows)
            let converted = UnsafeMutableRawPointer.allocate(byteCount: cmykProfile == nil ? 1 : Int(width) * 3 * bandRows, alignment: 16)
            defer { buffer.deallocate(); converted.deallocate() }
            var row = 0
            if wanted.lowerBound > 0 {
                let skipped = Int(CJPEG_skip_rows(decoder, Int32(min(wanted.lowerBound, Int(height)))))
                guard skipped >= 0 else { throw fail() }
                row = skipped
            }
            let end = min(Int(height), wanted.upperBound)
            while row < end {
                let read = Int(CJPEG_read_rows(decoder, buffer, stride, Int32(min(bandRows, end - row))))
                guard read > 0 else { throw read < 0 ? fail() : LumenError.corrupt(file: path, reason: "no rows decoded") }
                var rows = UnsafeRawPointer(buffer)
                if let cmykProfile {
                    cmykProfile.convert(buffer, into: converted, pixels: Int(width) * read)
                    rows = UnsafeRawPointer(converted)
                } else if isCMYK {
                    CMYK.naiveToRGB(buffer, into: buffer, pixels: Int(width) * read, inverted: adobeInverted)
                }
                try body(RowBand(firstRow: row, rowCount: read, bytesPerRow: Int(width) * outChannels, base: rows))
                row += read
            }
            guard CJPEG_finish(decoder, end == Int(height) ? 1 : 0) == 0 else { throw fail() }
            var warnings: Int32 = 0
            if let warning = CJPEG_warning(decoder, &warnings) {
                let more = warnings > 1 ? " (and \(warnings - 1) more warning\(warnings == 2 ? "" : "s"))" : ""
                try DecodeWarnings.report(file: path, "libjpeg: " + String(cString: warning) + more)
            }
        }
    }
}
