import CLCMS
import LumenPlatform

/// An RGB matrix/curves ICC profile other than sRGB — Display P3 from phones, Adobe RGB,
/// ProPhoto — as exact, unclipped conversions between its codes and the working space
/// (linear extended-range sRGB): per-channel curves, then a 3×3 matrix (the relative
/// colorimetric path Little CMS takes for such profiles). Colours outside sRGB keep
/// their negative or >1 components through the graph and come back out when written in
/// the same profile. Profiles of other kinds (lookup tables, CMYK, gray) are converted to
/// sRGB when decoded instead (`ColorManagedDecoder`).
final class RGBProfile: Sendable {
    let data: Data
    let description: String
    /// Rows of the matrix from the profile's linear RGB to linear sRGB, and back.
    let toSRGB: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    let fromSRGB: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    /// Added after `toSRGB` (and taken off before `fromSRGB`): black-point compensation for
    /// a profile whose black is not black (a measured display's); zero for most.
    let offset: SIMD3<Float>
    /// Per channel: 8-bit code → linear value.
    let decode8: [[Float]]
    /// Whether every channel uses the sRGB tone curve (Display P3 does): encoding then
    /// uses the exact sRGB encoders after the matrix.
    let hasSRGBCurves: Bool
    private let inverseSamples: Int = 4097
    /// Per channel: the inverse curve sampled over linear 0…1 (for other curves).
    private let inverse: [[Float]]

    private init?(_ data: Data) {
        var matrix = [Double](repeating: 0, count: 9), offset = [Double](repeating: 0, count: 3)
        let isMatrixShaper = data.withUnsafeBytes {
            CLCMS_matrix_shaper($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &matrix, &offset)
        }
        guard isMatrixShaper == 1, let described = ColorProfile(data) else { return nil }
        func table(_ channel: Int, inverse: Bool, count: Int) -> [Float]? {
            var values = [Float](repeating: 0, count: count)
            let status = data.withUnsafeBytes {
                CLCMS_curve_table($0.bindMemory(to: UInt8.self).baseAddress, $0.count, Int32(channel), inverse ? 1 : 0, &values, Int32(count))
            }
            return status == 0 ? values : nil
        }
        guard let r = table(0, inverse: false, count: 256), let g = table(1, inverse: false, count: 256),
              let b = table(2, inverse: false, count: 256) else { return nil }
        var inverseTables: [[Float]] = []
        for channel in 0..<3 {
            guard let t = table(channel, inverse: true, count: inverseSamples) else { return nil }
            inverseTables.append(t)
        }
        let m = matrix.map(Float.init)
        let rows = (SIMD3(m[0], m[1], m[2]), SIMD3(m[3], m[4], m[5]), SIMD3(m[6], m[7], m[8]))
        guard let inverted = Self.invert(rows) else { return nil }
        self.data = data
        description = described.description
        toSRGB = rows
        fromSRGB = inverted
        self.offset = SIMD3(Float(offset[0]), Float(offset[1]), Float(offset[2]))
        decode8 = [r, g, b]
        inverse = inverseTables
        hasSRGBCurves = [r, g, b].allSatisfy { curve in zip(curve, TransferFunction.linearFrom8).allSatisfy { abs($0 - $1) < 2e-5 } }
        makeDecode16 = {
            (0..<3).map { channel in
                var values = [Float](repeating: 0, count: 65536)
                _ = data.withUnsafeBytes {
                    CLCMS_curve_table($0.bindMemory(to: UInt8.self).baseAddress, $0.count, Int32(channel), 0, &values, 65536)
                }
                return values
            }
        }
    }

    /// The profile behind `data`, when it is an RGB matrix/curves profile that is not
    /// sRGB (those need no conversion); cached by bytes.
    static func wideGamut(_ data: Data?) -> RGBProfile? {
        guard let data, let described = ColorProfile(data), !described.isSRGB else { return nil }
        if let known = cache.withLock({ $0[data] }) { return known }
        guard let profile = RGBProfile(data) else { return nil }
        cache.withLock { cache in
            if cache.count > 64 { cache.removeAll() }
            cache[data] = profile
        }
        return profile
    }

    private static let cache = LockedValue([Data: RGBProfile]())

    /// Little CMS's Display P3 (DCI-P3 primaries, D65, the sRGB curve).
    static let displayP3Data: Data = makeProfile(1)
    /// Little CMS's sRGB, embedded when a wide-gamut input is written as sRGB.
    static let sRGBData: Data = makeProfile(0)

    private static func makeProfile(_ which: Int32) -> Data {
        var length = 0
        guard let bytes = CLCMS_make_profile(which, &length) else { return Data() }
        defer { CLCMS_free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    /// Per channel: 16-bit code → linear value, made on first use (768 KB, only for 16-bit files).
    var decode16: [[Float]] {
        decode16Tables.withLock { tables in
            if let tables { return tables }
            let made = makeDecode16()
            tables = made
            return made
        }
    }
    private let decode16Tables = LockedValue<[[Float]]?>(nil)
    private let makeDecode16: @Sendable () -> [[Float]]

    @inline(__always)
    static func apply(_ m: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>), _ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((m.0 * v).sum(), (m.1 * v).sum(), (m.2 * v).sum())
    }

    /// A linear value of this profile's channel `c` as the linear sRGB value whose sRGB
    /// code equals this profile's code for it: what lets the sRGB encoders write it.
    @inline(__always)
    func srgbEquivalent(_ v: Float, channel c: Int) -> Float {
        guard !hasSRGBCurves else { return v }
        let x = min(max(v, 0), 1) * Float(inverseSamples - 1)
        let i = min(Int(x), inverseSamples - 2), t = x - Float(i)
        let encoded = inverse[c][i] * (1 - t) + inverse[c][i + 1] * t
        return Float(TransferFunction.linear(fromSRGB: Double(encoded)))
    }

    /// Rewrites working-space pixels (premultiplied linear sRGB) in place so that the sRGB
    /// encoders write this profile's codes for them.
    func prepareForEncoding(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = pixels[i]
            let a = p.w
            guard a > 0 else { continue }
            let rgb = Self.apply(fromSRGB, SIMD3(p.x, p.y, p.z) / a - offset)
            let out = SIMD3(srgbEquivalent(rgb.x, channel: 0), srgbEquivalent(rgb.y, channel: 1), srgbEquivalent(rgb.z, channel: 2))
            pixels[i] = SIMD4(out * a, a)
        }
    }

    private static func invert(_ m: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)? {
        let (a, b, c) = (Double(m.0.x), Double(m.0.y), Double(m.0.z))
        let (d, e, f) = (Double(m.1.x), Double(m.1.y), Double(m.1.z))
        let (g, h, i) = (Double(m.2.x), Double(m.2.y), Double(m.2.z))
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        func row(_ x: Double, _ y: Double, _ z: Double) -> SIMD3<Float> { SIMD3(Float(x / det), Float(y / det), Float(z / det)) }
        return (row(e * i - f * h, c * h - b * i, b * f - c * e),
                row(f * g - d * i, a * i - c * g, c * d - a * f),
                row(d * h - e * g, b * g - a * h, a * e - b * d))
    }
}

/// The colour an output's pixels are written in: sRGB (`profile` nil) or a wide-gamut
/// RGB profile, resolved from `OutputFormat.profile` and the input's own profile.
struct OutputColour {
    let profile: RGBProfile?
    /// The ICC to embed when writing sRGB: the input's own sRGB profile is kept; a wide-gamut
    /// input converted to sRGB gets Little CMS's sRGB profile; untagged input stays untagged.
    private let sRGBProfile: Data?
    private let keepSourceProfile: Bool

    init(format: OutputFormat, sourceGamut: Data?, name: String) throws {
        let source = RGBProfile.wideGamut(sourceGamut)
        keepSourceProfile = format.profile == .input || format.profile == .sRGB
        switch format.profile {
        case .input:
            // Without an embedded profile, wide-gamut codes would be read as sRGB: write sRGB.
            profile = format.metadata == .strip ? nil : source
            sRGBProfile = source == nil ? nil : RGBProfile.sRGBData
        case .sRGB:
            profile = nil
            sRGBProfile = source == nil ? nil : RGBProfile.sRGBData
        case .displayP3:
            profile = RGBProfile.wideGamut(RGBProfile.displayP3Data)
            sRGBProfile = nil
        case let .icc(data):
            if let wide = RGBProfile.wideGamut(data) {
                profile = wide
                sRGBProfile = nil
            } else if let described = ColorProfile(data), described.isSRGB {
                profile = nil
                sRGBProfile = data
            } else {
                throw LumenError.unwritable(file: name, reason: "the output profile must be an RGB matrix/curves ICC profile (as Display P3, Adobe RGB or sRGB are)")
            }
        }
    }

    /// The profile to embed, given the input's own (`sourceProfile`).
    func embeddedProfile(sourceProfile: Data?) -> Data? {
        if let profile { return profile.data }
        if keepSourceProfile, let sourceProfile, ColorProfile(sourceProfile)?.isSRGB == true { return sourceProfile }
        return sRGBProfile
    }
}
