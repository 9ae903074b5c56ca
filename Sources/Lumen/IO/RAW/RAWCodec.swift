import LumenPlatform
import CRAW

extension ImageFileFormat {
    /// Camera RAW (LibRaw): DNG and the formats LibRaw 0.20 reads (CR2, CR3, NEF, ARW, RAF,
    /// ORF, RW2, PEF…), developed to 16-bit sRGB; read only.
    public static let raw = ImageFileFormat(rawValue: "raw")
}

/// Camera RAW through LibRaw (opened on first use, `Sources/CRAW`): developed as
/// `RAWDevelopment` says (as shot by default) into 16-bit RGB with sRGB's primaries and
/// curve, oriented by Lumen from the camera's flip; half-size development (2×2 photosites a
/// pixel, no demosaicing) is its shrink-on-load, and the embedded JPEG preview its
/// thumbnail. Files are recognised by content: the TIFF-based ones (DNG, CR2, NEF, ARW,
/// PEF…) by a DNG version, a Canon marker or a colour-filter-array image among their first
/// IFDs, the others by their own signatures.
struct RAWCodec: ImageCodec {
    var format: ImageFileFormat { .raw }
    var extensions: [String] { ["dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw", "3fr", "iiq", "erf", "mrw", "x3f", "raw", "rwl", "kdc", "dcr", "mos"] }
    var displayName: String { "RAW" }
    let capabilities = CodecCapabilities(writes: false, depths: [16], alpha: false, shrinkOnLoad: [2], embeddedThumbnails: true)

    func recognizes(_ prefix: Data) -> Bool {
        let bytes = [UInt8](prefix.prefix(32))
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let signature = Array(text.utf8)
            return bytes.count >= offset + signature.count && Array(bytes[offset..<(offset + signature.count)]) == signature
        }
        if starts("FUJIFILMCCD-RAW") || starts("IIRO") || starts("IIRS") || starts("MMOR") || starts("FOVb") { return true }
        if bytes.starts(with: [0x49, 0x49, 0x55, 0x00]) || bytes.starts(with: [0x00, 0x4D, 0x52, 0x4D]) { return true }  // RW2, MRW
        if starts("ftypcrx ", at: 4) { return true }  // CR3
        return starts("II*\0") && starts("CR", at: 8)  // CR2
    }

    /// The TIFF-based RAW files, which start as any TIFF does: a DNG version tag, or a
    /// colour filter array (photometric 32803) or linear raw (34892) image in IFD0, its
    /// SubIFDs or the next IFDs.
    func recognizes(contents data: Data) -> Bool {
        if recognizes(data.prefix(32)) { return true }
        return TIFFStructure.looksLikeRAW(data)
    }

    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder {
        try RAWDecoder(data: data, path: name, development: nil)
    }

    func decoder(data: Data, name: String, frame: Int, development: RAWDevelopment?) throws -> any ImageDecoder {
        try RAWDecoder(data: data, path: name, development: development)
    }

    func thumbnailDecoder(data: Data, name: String) throws -> any ImageDecoder {
        var jpeg = CRAW_Buffer()
        var error = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes { CRAW_preview($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &jpeg, &error, error.count) }
        defer { CRAW_free(&jpeg) }
        guard ok != 0, let base = jpeg.data else { throw LumenError.unsupported(file: name, reason: String(nulTerminated: error)) }
        let preview = Data(bytes: base, count: jpeg.size)
        guard let codec = Codecs.codec(recognizing: preview), codec.format == .jpeg else {
            throw LumenError.unsupported(file: name, reason: "the embedded preview is not a JPEG")
        }
        return try codec.decoder(data: preview, name: name, frame: 0)
    }
}

/// A RAW file developed whole by LibRaw when its pixels are asked for.
final class RAWDecoder: ImageDecoder {
    var decodesWhole: Bool { true }
    let header: ImageHeader
    /// The EXIF of TIFF-based RAW files (DNG, CR2, NEF, ARW…), gathered from IFD0 and its sub-IFDs.
    let metadata: ImageMetadata
    var iccProfile: Data? { nil }
    private let data: Data
    private let path: String
    private let development: RAWDevelopment
    private let info: CRAW_Info

    init(data: Data, path: String, development: RAWDevelopment?) throws {
        try development?.validate()
        self.data = data
        self.path = path
        self.development = development ?? RAWDevelopment()
        metadata = ImageMetadata(exif: TIFFExif.block(fromTIFF: data))
        var info = CRAW_Info()
        var error = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes { CRAW_read_info($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &info, &error, error.count) }
        guard ok != 0 else {
            let reason = String(nulTerminated: error)
            throw reason.hasPrefix("LibRaw is not") || reason.hasPrefix("LibRaw has no") ? LumenError.unsupported(file: path, reason: reason)
                                                                                          : LumenError.corrupt(file: path, reason: reason)
        }
        self.info = info
        let make = withUnsafeBytes(of: info.make) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let model = withUnsafeBytes(of: info.model) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var details = [info.dng_version != 0 ? "DNG" : "camera RAW"]
        let camera = [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        if !camera.isEmpty { details.append(camera) }
        if info.iso > 0 { details.append("ISO \(Int(info.iso.rounded()))") }
        if info.shutter > 0 { details.append(info.shutter < 1 ? "1/\(Int(min(1 / info.shutter, 1e9).rounded())) s" : String(printf: "%g s", info.shutter)) }
        if info.aperture > 0 { details.append(String(printf: "f/%g", info.aperture)) }
        if info.focal_length > 0 { details.append(String(printf: "%g mm", info.focal_length)) }
        var header = ImageHeader(format: .raw, width: Int(info.width), height: Int(info.height), channels: 3, bitDepth: 16,
                                 hasAlpha: false, orientation: Int(info.orientation), details: details)
        header.reductions = [2]
        if info.preview_jpeg != 0 {
            header.thumbnailWidth = Int(info.preview_width)
            header.thumbnailHeight = Int(info.preview_height)
        }
        header.development = development
        self.header = header
    }

    func layout(reduction: Int) -> DecodedLayout {
        let r = reduction >= 2 ? 2 : 1
        return DecodedLayout(width: (header.width + r - 1) / r, height: (header.height + r - 1) / r, channels: 3, depth: 16)
    }

    /// LibRaw's settings for `development`.
    private func settings(halfSize: Bool) -> CRAW_Settings {
        var s = CRAW_Settings()
        s.half_size = halfSize ? 1 : 0
        s.depth = 16
        s.exposure = Float(pow(2, development.exposure))
        s.preserve_highlights = Float(development.preserveHighlights)
        s.highlights = Int32(development.highlights.rawValue)
        s.noise_threshold = Float(development.noiseReduction * 1000)
        s.auto_brightness = development.autoBrightness ? 1 : 0
        s.demosaic = Int32(development.demosaic.rawValue)
        switch development.whiteBalance {
        case .asShot: s.white_balance = 0
        case .automatic: s.white_balance = 1
        case .daylight: s.white_balance = 3
        case let .multipliers(red, green, blue):
            s.white_balance = 2
            s.multipliers = (Float(red), Float(green), Float(blue), Float(green))
        case let .temperature(kelvin, tint):
            s.white_balance = 2
            let m = RAWDecoder.multipliers(kelvin: kelvin, tint: tint, rgbCam: info.rgb_cam, preMul: info.pre_mul)
            s.multipliers = (Float(m.x), Float(m.y), Float(m.z), Float(m.y))
        }
        return s
    }

    /// Channel multipliers that make a white lit at `kelvin` (and `tint`) neutral: the
    /// white's chromaticity on the CIE daylight locus from 4000 K (so 6504 K is D65) and
    /// the Planckian locus below (Kim et al.'s fit, from 1667 K), moved across it by the tint, to XYZ, to linear sRGB, to the camera's RGB (LibRaw's
    /// `rgb_cam` inverted, then its daylight balance undone), inverted. D65 gives the
    /// camera's daylight multipliers.
    static func multipliers(kelvin: Double, tint: Double, rgbCam: ((Float, Float, Float), (Float, Float, Float), (Float, Float, Float)),
                            preMul: (Float, Float, Float)) -> SIMD3<Double> {
        let t = max(1667, min(25000, kelvin))
        let x: Double, y: Double
        if t < 4000 {  // the Planckian locus (Kim et al.'s cubic fit)
            x = -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
            y = t <= 2222 ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
                          : -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {  // the CIE daylight locus: 6504 K is D65
            x = t <= 7000 ? -4.6070e9 / (t * t * t) + 2.9678e6 / (t * t) + 0.09911e3 / t + 0.244063
                          : -2.0064e9 / (t * t * t) + 1.9018e6 / (t * t) + 0.24748e3 / t + 0.237040
            y = -3.000 * x * x + 2.870 * x - 0.275
        }
        // Tint: along the normal to the locus in CIE 1960 uv, 1 unit = 1.5·10⁻⁴ (positive: the
        // neutral is greener, so the picture turns magenta, as Lightroom's and Core Image's sliders).
        let d = 12 * y - 2 * x + 3
        let u = 4 * x / d, v = 6 * y / d + tint * 1.5e-4
        let dd = 2 * u - 8 * v + 4
        let xw = 3 * u / dd, yw = 2 * v / dd
        let white = SIMD3(xw / yw, 1, (1 - xw - yw) / yw)
        let toSRGB = [SIMD3(3.2406, -1.5372, -0.4986), SIMD3(-0.9689, 1.8758, 0.0415), SIMD3(0.0557, -0.2040, 1.0570)]
        let srgb = SIMD3<Double>(toSRGB.map { ($0 * white).sum() })
        let rows = [rgbCam.0, rgbCam.1, rgbCam.2].map { SIMD3(Double($0.0), Double($0.1), Double($0.2)) }
        guard let inverse = invert3(rows) else { return SIMD3(Double(preMul.0), Double(preMul.1), Double(preMul.2)) / Double(preMul.1) }
        let balanced = SIMD3<Double>(inverse.map { ($0 * srgb).sum() })
        let camera = balanced / SIMD3(Double(preMul.0), Double(preMul.1), Double(preMul.2))
        let m = 1 / SIMD3(max(camera.x, 1e-6), max(camera.y, 1e-6), max(camera.z, 1e-6))
        return m / m.y
    }

    /// The inverse of a 3×3 matrix given by rows, nil when singular.
    static func invert3(_ m: [SIMD3<Double>]) -> [SIMD3<Double>]? {
        let (a, b, c) = (m[0], m[1], m[2])
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        let determinant = a.x * r0.x + a.y * r1.x + a.z * r2.x
        guard abs(determinant) > 1e-12 else { return nil }
        return [r0 / determinant, r1 / determinant, r2 / determinant]
    }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let layout = self.layout(reduction: reduction)
        var settings = self.settings(halfSize: reduction >= 2)
        var picture: UnsafeMutableRawPointer?
        var pixels: UnsafePointer<UInt8>?
        var width: UInt32 = 0, height: UInt32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes {
            CRAW_develop($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &settings, &picture, &pixels, &width, &height, &error, error.count)
        }
        defer { CRAW_release(picture) }
        guard ok != 0, let base = pixels else { throw LumenError.corrupt(file: path, reason: String(nulTerminated: error)) }
        guard Int(width) == layout.width, Int(height) == layout.height else {
            throw LumenError.corrupt(file: path, reason: "LibRaw developed \(width)×\(height) pixels, its header said \(layout.width)×\(layout.height)")
        }
        try RowBand.deliver(whole: base, bytesPerRow: layout.width * 6, height: layout.height, rows: rows, body)
    }
}
