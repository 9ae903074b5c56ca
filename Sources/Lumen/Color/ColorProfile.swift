import CLCMS
import LumenPlatform

/// An embedded ICC profile and the conversion of decoded pixels from it to sRGB
/// (Little CMS, relative colorimetric with black-point compensation). Profiles that are
/// sRGB colorimetrically (`matchesSRGB`) leave pixels untouched, whatever their name:
/// "sRGB-elle-V2-g10" (linear) and Ghostscript's "esRGB" are not sRGB.
struct ColorProfile {
    let data: Data
    /// The profile's description tag ("Adobe RGB (1998)"), or "" when it has none.
    let description: String

    init?(_ data: Data?) {
        guard let data, !data.isEmpty else { return nil }
        self.data = data
        var text = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { CLCMS_describe($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &text, text.count) }
        description = status == 0 ? String(nulTerminated: text) : ""
    }

    /// Whether pixels in this profile are sRGB's: `matchesSRGB`, remembered per profile.
    var isSRGB: Bool {
        if let known = Self.sRGBVerdicts.withLock({ $0[data] }) { return known }
        let verdict = matchesSRGB
        Self.sRGBVerdicts.withLock { verdicts in
            if verdicts.count > 256 { verdicts.removeAll() }
            verdicts[data] = verdict
        }
        return verdict
    }
    private static let sRGBVerdicts = LockedValue([Data: Bool]())

    /// Whether the profile describes sRGB colorimetrically, whatever its name: an RGB
    /// matrix/curves profile whose primaries are sRGB's (its matrix to sRGB within 2·10⁻³
    /// of identity) and whose three curves are the sRGB curve within 10⁻³ (linear light,
    /// under half an 8-bit code). HP's "sRGB IEC61966-2.1", colord's, Ghostscript's and
    /// Little CMS's all are; Display P3 (sRGB curves, other primaries) is not.
    var matchesSRGB: Bool {
        var matrix = [Double](repeating: 0, count: 9), offset = [Double](repeating: 0, count: 3)
        let isMatrixShaper = data.withUnsafeBytes {
            CLCMS_matrix_shaper($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &matrix, &offset)
        }
        guard isMatrixShaper == 1, offset.allSatisfy({ abs($0) < 1e-4 }) else { return false }
        for row in 0..<3 {
            for column in 0..<3 where abs(matrix[row * 3 + column] - (row == column ? 1 : 0)) > 2e-3 { return false }
        }
        for channel in 0..<3 {
            var curve = [Float](repeating: 0, count: 256)
            let status = data.withUnsafeBytes {
                CLCMS_curve_table($0.bindMemory(to: UInt8.self).baseAddress, $0.count, Int32(channel), 0, &curve, 256)
            }
            guard status == 0, zip(curve, TransferFunction.linearFrom8).allSatisfy({ abs($0 - $1) <= 1e-3 }) else { return false }
        }
        return true
    }

    /// A converter for pixels of `layout` to sRGB.
    func converter(for layout: CLCMS_Layout, depth: Int, file: String) throws -> ProfileConverter {
        var message = [CChar](repeating: 0, count: 256)
        let transform = data.withUnsafeBytes {
            CLCMS_create_to_srgb($0.bindMemory(to: UInt8.self).baseAddress, $0.count, layout, Int32(depth), &message, message.count)
        }
        guard let transform else { throw LumenError.unsupported(file: file, reason: String(nulTerminated: message)) }
        return ProfileConverter(transform: transform)
    }
}

/// Owns a Little CMS transform; converts rows of pixels.
final class ProfileConverter {
    private let transform: OpaquePointer

    init(transform: OpaquePointer) { self.transform = transform }
    deinit { CLCMS_destroy(transform) }

    func convert(_ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, pixels: Int) {
        CLCMS_apply(transform, input, output, pixels)
    }
}

/// Wraps a decoder whose file carries a non-sRGB profile so that its bands arrive in sRGB.
final class ColorManagedDecoder: ImageDecoder {
    private let inner: ImageDecoder
    private let profile: ColorProfile
    private let file: String

    init(_ inner: ImageDecoder, profile: ColorProfile, file: String) {
        self.inner = inner
        self.profile = profile
        self.file = file
    }

    var header: ImageHeader { inner.header }
    var iccProfile: Data? { profile.data }
    var metadata: ImageMetadata { inner.metadata }
    var decodesWhole: Bool { inner.decodesWhole }
    func layout(reduction: Int) -> DecodedLayout { inner.layout(reduction: reduction) }

    func forEachBand(reduction: Int, rows: Range<Int>, _ body: (RowBand) throws -> Void) throws {
        let layout = inner.layout(reduction: reduction)
        let kinds: [Int: CLCMS_Layout] = [1: CLCMS_GRAY, 2: CLCMS_GRAY_ALPHA, 3: CLCMS_RGB, 4: CLCMS_RGBA]
        let converter = try profile.converter(for: kinds[layout.channels] ?? CLCMS_RGB, depth: layout.depth, file: file)
        var buffer: UnsafeMutableRawPointer?
        var capacity = 0
        defer { buffer?.deallocate() }
        try inner.forEachBand(reduction: reduction, rows: rows) { band in
            let bytes = band.rowCount * band.bytesPerRow
            if bytes > capacity {
                buffer?.deallocate()
                buffer = .allocate(byteCount: bytes, alignment: 16)
                capacity = bytes
            }
            converter.convert(band.base, into: buffer!, pixels: band.rowCount * layout.width)
            try body(RowBand(firstRow: band.firstRow, rowCount: band.rowCount, bytesPerRow: band.bytesPerRow, base: UnsafeRawPointer(buffer!)))
        }
    }
}
