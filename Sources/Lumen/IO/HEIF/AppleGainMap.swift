import CHEIF
import LumenPlatform

/// iPhones' HDR gain maps (iOS 14.1 and later), as Apple describes them in "Applying Apple
/// HDR effect to your photos": an auxiliary image of type
/// `urn:com:apple:photo:2020:aux:hdrgainmap` beside the primary picture — one gray channel,
/// usually a quarter of the picture's size, its linear gain encoded with Rec. 709's curve —
/// and a headroom worked out from two values of the EXIF's Apple maker note (tags 33 and 48).
/// HDR = SDR · (1 + (headroom − 1) · gain), in linear light.
///
/// Lumen carries it as the equivalent Ultra HDR map (`GainMap`): no offsets, gamma 1, boosts
/// from 1 to the headroom, each code's recovery log₂(1 + (headroom − 1) · gain) / log₂ headroom.
enum AppleGainMap {
    static let auxiliaryType = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// The headroom from the maker note's tags 33 and 48 (Apple's rule, in stops, held to
    /// 0…16 stops whatever a damaged note says), or nil when the EXIF has neither.
    static func headroom(exif: Data?) -> Double? {
        // Either value may be missing ("many images have a maker33 but not a maker48", Skia):
        // it counts as 0, as libavif's and Skia's readers take it.
        guard let exif, let values = makerNoteValues(exif, tags: [33, 48]) else { return nil }
        let (m33, m48) = (values[33] ?? 0, values[48] ?? 0)
        let stops = m33 < 1 ? (m48 <= 0.01 ? -20 * m48 + 1.8 : -0.101 * m48 + 1.601)
                            : (m48 <= 0.01 ? -70 * m48 + 3.0 : -0.303 * m48 + 2.303)
        return exp2(max(0, min(16, stops)))
    }

    /// The Ultra HDR parameters of a map with `headroom`.
    static func parameters(headroom: Double, map: GainMap.Encoded) -> GainMap {
        let stops = log2(max(headroom, 1))
        return GainMap(minimum: .zero, maximum: SIMD3(repeating: stops), gamma: SIMD3(repeating: 1),
                       offsetSDR: .zero, offsetHDR: .zero, capacityMinimum: 0, capacityMaximum: stops,
                       baseIsHDR: false, encoded: map)
    }

    /// Rec. 709's curve, which Apple's maps store their linear gain (0…1) with.
    @inline(__always)
    static func stored(gain: Float) -> Float { gain < 0.018 ? 4.5 * gain : 1.099 * powf(gain, 0.45) - 0.099 }

    /// The recovery (Ultra HDR's map value) of a stored code (0…1) for `headroom` (> 1):
    /// log₂(1 + (headroom − 1) · gain) / log₂ headroom, the gain found by undoing Rec. 709's curve.
    @inline(__always)
    static func recovery(stored: Float, headroom: Float) -> Float {
        let v = max(0, min(1, stored))
        let gain = v < 0.081 ? v / 4.5 : powf((v + 0.099) / 1.099, 1 / 0.45)
        return log2f(1 + (headroom - 1) * gain) / log2f(headroom)
    }

    /// Recovery for each of the 256 stored codes.
    static func recoveryTable(headroom: Double) -> [Float] {
        let h = Float(max(headroom, 1.000001))
        return (0..<256).map { recovery(stored: Float($0) / 255, headroom: h) }
    }

    // MARK: - Writing

    /// A gain map ready to go into a HEIC beside its picture: 8-bit gray samples (Rec.
    /// 709-encoded gain, rows from the top) and the headroom the maker note will say.
    struct Written {
        let samples: Data
        let width: Int
        let height: Int
        let headroom: Double
    }

    /// The largest headroom Apple's rule can say: 3 stops (tag 33 ≥ 1, tag 48 = 0).
    static let largestHeadroom = 8.0

    /// Maker-note values (tags 33, 48) that Apple's rule turns into `headroom` (1…8): tag
    /// 33 is 1, and tag 48 comes from the rule's branch that reaches that many stops.
    static func makerNoteValues(headroom: Double) -> (m33: Double, m48: Double) {
        // The rule's branches meet at 2.3 stops (tag 48 = 0.01) with a gap of 3·10⁻⁵ stops:
        // the second branch where it gives more than 0.01, else the first.
        let stops = log2(max(1, min(largestHeadroom, headroom)))
        let second = (2.303 - stops) / 0.303
        return second > 0.01 ? (1, second) : (1, min(0.01, (3 - stops) / 70))
    }

    /// An Apple maker note ("Apple iOS\0", version 1, big-endian) holding tags 33 and 48 as
    /// signed rationals over 10⁶, their offsets counted from the note's start, as iPhones write it.
    static func makerNote(headroom: Double) -> [UInt8] {
        let (m33, m48) = makerNoteValues(headroom: headroom)
        func be(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - $0))) } }
        let valuesAt = 16 + 2 * 12 + 4
        var note = Array("Apple iOS\0".utf8) + be(1, 2) + Array("MM".utf8) + be(2, 2)
        note += be(33, 2) + be(10, 2) + be(1, 4) + be(valuesAt, 4)
        note += be(48, 2) + be(10, 2) + be(1, 4) + be(valuesAt + 8, 4)
        note += be(0, 4)
        for value in [m33, m48] { note += be(Int((value * 1_000_000).rounded()), 4) + be(1_000_000, 4) }
        return note
    }

    /// The output's EXIF with an Apple maker note saying `headroom` (the only maker note a
    /// HEIC with an Apple gain map can carry: another camera's note is replaced), or an EXIF
    /// of that note alone when the output keeps none.
    static func exif(_ existing: Data?, headroom: Double) -> Data {
        TIFFExif.replacingMakerNote(in: existing, with: makerNote(headroom: headroom))
    }

    /// The headroom of an Apple map standing for an Ultra HDR map with `parameters`: its
    /// largest boost, at most Apple's 3 stops; nil when the map boosts nothing.
    static func headroom(for parameters: GainMap) -> Double? {
        let stops = min(log2(largestHeadroom), max(parameters.maximum.x, parameters.maximum.y, parameters.maximum.z))
        return stops > 0.01 ? exp2(stops) : nil
    }

    /// An Ultra HDR map's codes (`GainMap.image()`'s) as Apple's map codes for `headroom`,
    /// in linear light so that an 8-bit encoder's sRGB step writes the codes. `picture` is
    /// the SDR picture at the map's size. Per pixel: each channel's boost (gamma undone,
    /// between the minimum and maximum) gives the Ultra HDR rendition (SDR + offsetSDR) ·
    /// 2^boost − offsetHDR; Apple's one gain is the ratio of its luminance to the SDR's, so
    /// the offsets (1/64 in Android's files, which matter in dark tones) are kept where
    /// Apple's format can say them: gain = (ratio − 1) / (headroom − 1), held to 0…1 (Apple's
    /// maps only brighten, by at most the headroom), stored with Rec. 709's curve. Where the
    /// SDR is black the ratio is the boosts' own.
    static func codes(fromUltraHDR map: Image, picture: Image, parameters: GainMap, headroom: Double) -> Image {
        let kernel = ColorKernel("lumen.appleGainMapCodes", pixel: { pixel in
            let v = pixel.values, code = pixel[0], sdr = pixel[1]
            let weights = SIMD3<Float>(0.2126, 0.7152, 0.0722)
            var sdrY: Float = 0, hdrY: Float = 0, boostY: Float = 0
            for c in 0..<3 {
                let recovery = powf(max(0, min(1, code[c])), 1 / Float(v[6 + c]))
                let boost = Float(v[c]) * (1 - recovery) + Float(v[3 + c]) * recovery
                let base = max(0, sdr[c])
                sdrY += weights[c] * base
                hdrY += weights[c] * ((base + Float(v[9 + c])) * exp2f(boost) - Float(v[12 + c]))
                boostY += weights[c] * boost
            }
            let ratio = sdrY > 1e-4 ? hdrY / sdrY : exp2f(boostY)
            let gain = max(0, min(1, (ratio - 1) / (Float(v[15]) - 1)))
            let linear = TransferFunction.linearMirrored(fromSRGB: stored(gain: gain))
            return SIMD4(linear, linear, linear, 1)
        })
        let numbers = [parameters.minimum, parameters.maximum, parameters.gamma, parameters.offsetSDR, parameters.offsetHDR]
            .flatMap { [$0.x, $0.y, $0.z] } + [headroom]
        return kernel.apply(extent: map.extent, arguments: [map, picture] + numbers.map { $0 as any KernelArgument })
    }

    /// Apple's map codes (0…1, Rec. 709-encoded gain) as Ultra HDR recovery for `headroom`:
    /// `recoveryTable`'s function, for maps decoded to floats (an iPhone JPEG's).
    static func recovery(fromCodes codes: Image, headroom: Double) -> Image {
        let kernel = ColorKernel("lumen.appleGainMapRecovery", pixel: { pixel in
            let code = pixel[0], h = Float(pixel.values[0])
            return SIMD4(recovery(stored: code.x, headroom: h), recovery(stored: code.y, headroom: h), recovery(stored: code.z, headroom: h), 1)
        })
        return kernel.apply(extent: codes.extent, arguments: [codes, max(headroom, 1.000001)])
    }

    /// Whether the primary image `handle` has an auxiliary image of Apple's gain-map type
    /// (its list only: nothing is decoded).
    static func hasGainMap(_ primary: OpaquePointer, _ heif: CHEIF_Functions) -> Bool {
        withAuxiliaryHandle(primary, heif, where: { _, type in type == auxiliaryType }) { _ in true } ?? false
    }

    /// `body` with the handle of the primary image's first auxiliary image (alpha and depth
    /// aside) whose item id and type `matches`, or nil without one.
    static func withAuxiliaryHandle<T>(_ primary: OpaquePointer, _ heif: CHEIF_Functions, where matches: (heif_item_id, String) -> Bool,
                                       _ body: (OpaquePointer) throws -> T?) rethrows -> T? {
        let filter = Int32(LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH)
        let count = Int(heif.heif_image_handle_get_number_of_auxiliary_images!(primary, filter))
        guard count > 0, count < 64 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        _ = heif.heif_image_handle_get_list_of_auxiliary_image_IDs!(primary, filter, &ids, Int32(count))
        for id in ids {
            var handle: OpaquePointer?
            guard heif.heif_image_handle_get_auxiliary_image_handle!(primary, id, &handle).failure == nil, let handle else { continue }
            defer { heif.heif_image_handle_release!(handle) }
            var type: UnsafePointer<CChar>?
            guard heif.heif_image_handle_get_auxiliary_type!(handle, &type).failure == nil, let name = type else { continue }
            let found = matches(id, String(cString: name))
            heif.heif_image_handle_free_auxiliary_types!(handle, &type)
            if found { return try body(handle) }
        }
        return nil
    }

    /// The gain map of a HEIC's bytes: its 8-bit gray samples and size, or nil without one.
    static func read(heic data: Data, path: String) throws -> (samples: Data, width: Int, height: Int)? {
        let heif = try libheif(file: path)
        return try HEIFDecoder.withPrimaryHandle(data, path: path) { primary in
            try withAuxiliaryHandle(primary, heif, where: { _, type in type == auxiliaryType }) { handle -> (samples: Data, width: Int, height: Int)? in
                guard let map = try decodeMap(handle, primary: primary, heif, path: path) else { return nil }
                guard map.channels == 3 else { return (map.samples, map.width, map.height) }
                return (Data(stride(from: 1, to: map.samples.count, by: 3).map { map.samples[$0] }), map.width, map.height)  // green
            }
        }
    }

    /// A gain map's picture (an auxiliary image `handle` of `primary`) as 8-bit samples, rows
    /// from the top: one channel when gray (R = G = B everywhere), else RGB interleaved. Nil
    /// for a map larger than its picture or without a bit depth.
    static func decodeMap(_ handle: OpaquePointer, primary: OpaquePointer, _ heif: CHEIF_Functions,
                          path: String) throws -> (samples: Data, width: Int, height: Int, channels: Int)? {
        try decodeMap(handle, largest: (Int(heif.heif_image_handle_get_width!(primary)), Int(heif.heif_image_handle_get_height!(primary))),
                      heif, path: path)
    }

    /// The same, for a map no larger than `largest` (its picture's size).
    static func decodeMap(_ handle: OpaquePointer, largest: (width: Int, height: Int), _ heif: CHEIF_Functions,
                          path: String) throws -> (samples: Data, width: Int, height: Int, channels: Int)? {
        // Held as the primary image is (HEIFDecoder): a decoder configuration must say the
        // bit depth, and a map is no larger than its picture.
        let (width, height) = (Int(heif.heif_image_handle_get_width!(handle)), Int(heif.heif_image_handle_get_height!(handle)))
        let bits = Int(heif.heif_image_handle_get_luma_bits_per_pixel!(handle))
        guard (1...16).contains(bits), width >= 1, height >= 1, width <= largest.width, height <= largest.height else { return nil }
        // The map covers the picture as it is shown: its shape must be the picture's (within a
        // pixel and a half of the map), or it belongs to another orientation.
        let expectedHeight = Double(width) * Double(largest.height) / Double(largest.width)
        guard abs(Double(height) - expectedHeight) <= 1.5 + 0.01 * expectedHeight else { return nil }
        var image: OpaquePointer?
        // As RGB, whatever the map was coded as (monochrome, YCbCr, or a grid of tiles that
        // libheif 1.15 assembles in RGB and converts to no gray layout).
        if let failure = heif.heif_decode_image!(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil).failure {
            throw LumenError.corrupt(file: path, reason: "its HDR gain map: \(failure)")
        }
        guard let image else { return nil }
        defer { heif.heif_image_release!(image) }
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane_readonly!(image, heif_channel_interleaved, &stride), Int(stride) >= 3 * width,
              Int(heif.heif_image_get_width!(image, heif_channel_interleaved)) == width,
              Int(heif.heif_image_get_height!(image, heif_channel_interleaved)) == height else { return nil }
        var rgb = Data(count: 3 * width * height), gray = true
        rgb.withUnsafeMutableBytes { out in
            let samples = out.bindMemory(to: UInt8.self)
            for row in 0..<height {
                let line = plane + row * Int(stride)
                for x in 0..<(3 * width) { samples[3 * row * width + x] = line[x] }
                for x in 0..<width where line[3 * x] != line[3 * x + 1] || line[3 * x + 1] != line[3 * x + 2] { gray = false }
            }
        }
        guard gray else { return (rgb, width, height, 3) }
        return (Data(Swift.stride(from: 1, to: rgb.count, by: 3).map { rgb[$0] }), width, height, 1)
    }

    /// Numeric values of `tags` in the Apple maker note of a TIFF-structured EXIF block
    /// ("Apple iOS\0", a version, "MM", an IFD whose offsets count from the note's start).
    static func makerNoteValues(_ exif: Data, tags: Set<Int>) -> [Int: Double]? {
        let bytes = [UInt8](exif)
        guard bytes.count >= 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else { return nil }
        func reader(_ little: Bool, _ base: Int) -> (u16: (Int) -> Int?, u32: (Int) -> Int?) {
            let u16: (Int) -> Int? = { at in
                let i = base + at
                guard at >= 0, i + 2 <= bytes.count else { return nil }
                return little ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])
            }
            let u32: (Int) -> Int? = { at in
                guard let a = u16(at), let b = u16(at + 2) else { return nil }
                return little ? a | b << 16 : a << 16 | b
            }
            return (u16, u32)
        }
        let tiff = reader(bytes[0] == 0x49, 0)
        func entry(_ tag: Int, ifd: Int, _ r: (u16: (Int) -> Int?, u32: (Int) -> Int?)) -> Int? {
            guard let count = r.u16(ifd), count < 1000 else { return nil }
            return (0..<count).map { ifd + 2 + 12 * $0 }.first { r.u16($0) == tag }
        }
        guard let ifd0 = tiff.u32(4), let pointer = entry(0x8769, ifd: ifd0, tiff), let exifIFD = tiff.u32(pointer + 8),
              let note = entry(0x927C, ifd: exifIFD, tiff), let length = tiff.u32(note + 4), let start = tiff.u32(note + 8),
              length >= 16, start + length <= bytes.count,
              bytes[start..<(start + 10)].elementsEqual(Array("Apple iOS\0".utf8)) else { return nil }
        let little = bytes[start + 12] == 0x49
        let maker = reader(little, start)
        guard let count = maker.u16(14), count < 1000 else { return nil }
        var values: [Int: Double] = [:]
        for i in 0..<count {
            let at = 16 + 12 * i
            guard let tag = maker.u16(at), tags.contains(tag), let type = maker.u16(at + 2), let offset = maker.u32(at + 8) else { continue }
            func signed(_ v: Int) -> Int { v >= 1 << 31 ? v - (1 << 32) : v }
            switch type {
            case 5, 10:  // (signed) rational, stored at the offset
                guard offset + 8 <= length, let n = maker.u32(offset), let d = maker.u32(offset + 4), d != 0 else { continue }
                values[tag] = type == 10 ? Double(signed(n)) / Double(signed(d)) : Double(n) / Double(d)
            case 11:  // float, in place
                guard let raw = maker.u32(at + 8) else { continue }
                values[tag] = Double(Float(bitPattern: UInt32(raw)))
            case 3, 4, 9:
                guard let raw = type == 3 ? maker.u16(at + 8) : maker.u32(at + 8) else { continue }
                values[tag] = Double(type == 9 ? signed(raw) : raw)
            default:
                continue
            }
            if let v = values[tag], !v.isFinite { values[tag] = nil }
        }
        return values.isEmpty ? nil : values
    }
}
