import LumenPlatform

/// An HDR gain map carried beside an SDR picture, as Android's Ultra HDR JPEGs hold it (the
/// `hdrgm` XMP namespace, ISO 21496-1's parameters): a second, usually smaller JPEG, found
/// through the primary's MPF index, whose pixels say how much brighter each part of the
/// picture is in its HDR rendition. `Image.LoadOptions.expandToHDR` applies it.
public struct GainMap: Sendable, Hashable {
    /// log2 of the smallest and largest boost the map encodes, per channel.
    public var minimum: SIMD3<Double>, maximum: SIMD3<Double>
    /// The map's encoding gamma, per channel.
    public var gamma: SIMD3<Double>
    /// Offsets added to SDR and HDR values before their ratio is taken, per channel.
    public var offsetSDR: SIMD3<Double>, offsetHDR: SIMD3<Double>
    /// log2 of the display headroom from which the map starts to apply and at which it applies fully.
    public var capacityMinimum: Double, capacityMaximum: Double
    /// Whether the primary image is the HDR rendition (the map then leads down to SDR).
    public var baseIsHDR: Bool
    /// The map's pixels as the file holds them.
    let encoded: Encoded

    /// Where a map's pixels are.
    enum Encoded: Hashable, Sendable {
        /// An Ultra HDR file's second JPEG (its codes are the recovery).
        case jpeg(Data)
        /// An iPhone HEIC's auxiliary image: 8-bit gray codes of Rec. 709-encoded linear gain,
        /// turned into recovery by `AppleGainMap.recoveryTable`.
        case apple(samples: Data, width: Int, height: Int, headroom: Double)
        /// An iPhone HDR JPEG's second image: Apple's map (Rec. 709-encoded linear gain) as a JPEG.
        case appleJPEG(Data, headroom: Double)
        /// A HEIF's ISO 21496-1 map picture: 8-bit codes (the recovery), 1 or 3 channels
        /// interleaved, rows from the top.
        case codes(samples: Data, width: Int, height: Int, channels: Int)
    }

    /// The gain map's JPEG, for an Ultra HDR file's map.
    var jpeg: Data? { if case let .jpeg(data) = encoded { data } else { nil } }

    /// The content's headroom: how many times brighter than SDR white its HDR rendition goes.
    public var headroom: Double { exp2(capacityMaximum) }

    /// The gain map of an Ultra HDR JPEG's bytes, or nil when it has none (or it cannot be read).
    public static func read(fromJPEG data: Data) -> GainMap? {
        guard let mpf = segments(of: data).first(where: { $0.marker == 0xE2 && data[$0.payload].starts(with: Array("MPF\0".utf8)) }),
              let gainMap = secondImage(data, tiffStart: mpf.payload.lowerBound + 4),
              let xmp = segments(of: gainMap).first(where: { $0.marker == 0xE1 && gainMap[$0.payload].starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)) })
        else { return nil }
        let text = String(decoding: gainMap[xmp.payload], as: UTF8.self)
        if text.contains(AppleGainMap.auxiliaryType) { return appleMap(text, map: gainMap, primary: data) }
        guard text.contains("hdr-gain-map"), let parameters = parameters(text) else { return nil }
        // A map that leads from an HDR base down to SDR is the other way round from what
        // Lumen applies and writes; such a file is read as its base picture alone.
        guard !text.lowercased().contains(#"baserenditionishdr="true""#) else { return nil }
        func triple(_ name: String, _ fallback: Double) -> SIMD3<Double> {
            guard let values = parameters[name], !values.isEmpty else { return SIMD3(repeating: fallback) }
            return values.count >= 3 ? SIMD3(values[0], values[1], values[2]) : SIMD3(repeating: values[0])
        }
        let maximum = triple("GainMapMax", 1)
        return GainMap(minimum: triple("GainMapMin", 0), maximum: maximum, gamma: triple("Gamma", 1),
                       offsetSDR: triple("OffsetSDR", 1.0 / 64), offsetHDR: triple("OffsetHDR", 1.0 / 64),
                       capacityMinimum: parameters["HDRCapacityMin"]?.first ?? 0,
                       capacityMaximum: parameters["HDRCapacityMax"]?.first ?? maximum.max(),
                       baseIsHDR: false,
                       encoded: .jpeg(gainMap))
    }

    /// A JPEG's marker segments before its scan: each marker and its payload's byte range.
    static func segments(of data: Data) -> [(marker: UInt8, payload: Range<Int>)] {
        data.withUnsafeBytes { raw -> [(marker: UInt8, payload: Range<Int>)] in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return [] }
            var found: [(marker: UInt8, payload: Range<Int>)] = [], at = 2
            while at + 4 <= bytes.count, bytes[at] == 0xFF, found.count < 256 {
                let marker = bytes[at + 1]
                if marker == 0xDA || marker == 0xD9 { break }
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard length >= 2, at + 2 + length <= bytes.count else { break }
                found.append((marker, (data.startIndex + at + 4)..<(data.startIndex + at + 2 + length)))
                at += 2 + length
            }
            return found
        }
    }

    /// An iPhone's HDR JPEG (what Photos exports): the same MPF layout, the second image
    /// Apple's gain map (its XMP names the auxiliary type), the headroom in that XMP's
    /// `HDRGainMap:HDRGainMapHeadroom` (newer iOS) or else in the primary's EXIF maker note,
    /// as libavif's and Skia's readers take it. Nil without a headroom above 1.
    static func appleMap(_ xmp: String, map: Data, primary: Data) -> GainMap? {
        var headroom: Double?
        if let start = xmp.firstRange(of: "HDRGainMapHeadroom>")?.upperBound, let end = xmp[start...].firstIndex(of: "<") {
            headroom = Double(xmp[start..<end].trimmingSpaces())
        }
        if headroom == nil, let exif = segments(of: primary).first(where: { $0.marker == 0xE1 && primary[$0.payload].starts(with: Array("Exif\0\0".utf8)) }) {
            headroom = AppleGainMap.headroom(exif: Data(primary[exif.payload].dropFirst(6)))
        }
        guard let headroom, headroom.isFinite, headroom > 1 else { return nil }
        return AppleGainMap.parameters(headroom: min(headroom, exp2(16)), map: .appleJPEG(map, headroom: min(headroom, exp2(16))))
    }

    /// Whether a JPEG's bytes index a second image with an MPF segment (cheap: markers only).
    static func hasMultiPictureIndex(_ data: Data) -> Bool {
        segments(of: data).contains { $0.marker == 0xE2 && data[$0.payload].starts(with: Array("MPF\0".utf8)) }
    }

    /// The second image an MPF index (its TIFF header at `tiffStart`) points at.
    static func secondImage(_ data: Data, tiffStart: Int) -> Data? {
        let bytes = [UInt8](data[tiffStart..<min(data.endIndex, tiffStart + 4096)])
        guard bytes.count >= 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else { return nil }
        let little = bytes[0] == 0x49
        func u16(_ i: Int) -> Int? { i + 2 <= bytes.count ? (little ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])) : nil }
        func u32(_ i: Int) -> Int? { guard let a = u16(i), let b = u16(i + 2) else { return nil }; return little ? a | b << 16 : a << 16 | b }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for i in 0..<min(count, 64) {
            let entry = ifd + 2 + 12 * i
            guard u16(entry) == 0xB002, let size = u32(entry + 4), size >= 32, let offset = u32(entry + 8) else { continue }
            // The second 16-byte entry: attributes, size, offset from the MPF header, dependents.
            guard let length = u32(offset + 16 + 4), let start = u32(offset + 16 + 8), length > 0 else { return nil }
            let from = tiffStart + start
            guard from > tiffStart, from + length <= data.endIndex else { return nil }
            let image = data[from..<(from + length)]
            return image.starts(with: [0xFF, 0xD8]) ? Data(image) : nil
        }
        return nil
    }

    /// The hdrgm values of an XMP packet, as attributes (`hdrgm:GainMapMax="2.3"`), elements
    /// (`<hdrgm:GainMapMax>2.3</hdrgm:GainMapMax>`) or sequences of three (per channel).
    static func parameters(_ xmp: String) -> [String: [Double]]? {
        var values: [String: [Double]] = [:]
        func take(_ name: some StringProtocol, _ text: String) {
            let numbers = text.contains("<rdf:li")
                ? text.split(separator: "<rdf:li>", omittingEmptySubsequences: false).dropFirst().compactMap {
                    Double($0.split(separator: "</rdf:li>", omittingEmptySubsequences: false)[0].trimmingSpaces())
                }
                : [Double(text.trimmingSpaces())].compactMap { $0 }
            if !numbers.isEmpty, numbers.allSatisfy(\.isFinite) { values[String(name)] = numbers }
        }
        // Attributes and one-value elements: each match ends at the next quote or tag.
        for pattern in [#"hdrgm:(\w+)\s*=\s*"([^"]*)""#, #"<hdrgm:(\w+)>([^<]*)</hdrgm:\w+>"#] {
            guard let expression = try? Regex(pattern).matchingSemantics(.unicodeScalar) else { continue }
            for match in xmp.matches(of: expression) {
                guard let name = match.output[1].substring, let body = match.output[2].substring else { continue }
                take(name, String(body))
            }
        }
        // Sequences, whose end is a closing tag further on: scanned once (XMPBytes).
        for (name, body) in XMPBytes.gainMapSequences(Array(xmp.utf8)) {
            take(String(decoding: name, as: UTF8.self), String(decoding: body, as: UTF8.self))
        }
        return values.isEmpty ? nil : values
    }

    /// The gain map of the file at `url` (an Ultra HDR JPEG's, or an iPhone HEIC's), or nil
    /// when it has none.
    public static func read(contentsOf url: URL) throws -> GainMap? {
        try read(from: try Data(contentsOf: url, options: ImageFile.mappingOptions(url.path)), name: url.path)
    }

    /// The gain map of a file's bytes: an Ultra HDR JPEG's, an iPhone HEIC's auxiliary image
    /// with its maker note's headroom (`AppleGainMap`), or a HEIF's ISO 21496-1 map
    /// (`ISOGainMap`: Samsung's, iOS 18's); nil for other files.
    public static func read(from data: Data, name: String? = nil) throws -> GainMap? {
        let name = name ?? "<\(data.count) bytes>"
        if data.starts(with: [0xFF, 0xD8]) { return read(fromJPEG: data) }
        guard [.heic, .avif].contains(where: { Codecs.codec(for: $0)?.recognizes(data.prefix(64)) == true }) else { return nil }
        let metadata = try ImageFile.metadata(of: data)
        if let headroom = AppleGainMap.headroom(exif: metadata.exif), headroom > 1, let map = try AppleGainMap.read(heic: data, path: name) {
            return AppleGainMap.parameters(headroom: headroom, map: .apple(samples: map.samples, width: map.width, height: map.height,
                                                                           headroom: headroom))
        }
        return try ISOGainMap.read(heic: data, path: name)
    }

    /// 1 for a gray map (one gain for every channel), 3 for one per channel.
    var channels: Int {
        switch encoded {
        case let .jpeg(data): return (try? ImageFile.header(of: data))?.channels == 1 ? 1 : 3
        case .apple, .appleJPEG: return 1
        case let .codes(_, _, _, channels): return channels
        }
    }

    /// The map's pixels as stored: its codes (0…1, the recovery) as the values of every
    /// channel, not colour-managed (a map is data, not a picture), at the map's own size.
    public func image() throws -> Image {
        switch encoded {
        case let .jpeg(data):
            let map = try Image(data: data, options: .init(appliesOrientation: false), name: "gain map")
            return UltraHDR.toCodes.apply(extent: map.extent, arguments: [map])
        case let .appleJPEG(data, headroom):
            let map = try Image(data: data, options: .init(appliesOrientation: false), name: "gain map")
            return AppleGainMap.recovery(fromCodes: UltraHDR.toCodes.apply(extent: map.extent, arguments: [map]), headroom: headroom)
        case let .apple(samples, width, height, headroom):
            let table = AppleGainMap.recoveryTable(headroom: headroom)
            var pixels = [SIMD4<Float>](repeating: .zero, count: width * height)
            samples.withUnsafeBytes { codes in
                for row in 0..<height {  // stored from the top; the working space's rows go from the bottom
                    for x in 0..<width {
                        let value = table[Int(codes[row * width + x])]
                        pixels[(height - 1 - row) * width + x] = SIMD4(value, value, value, 1)
                    }
                }
            }
            return try Image(workingSpacePixels: pixels, width: width, height: height, colorManaged: false)
        case let .codes(samples, width, height, channels):
            guard samples.count == width * height * channels, channels == 1 || channels == 3 else {
                throw LumenError.corrupt(file: "gain map", reason: "\(samples.count) samples for \(width)×\(height)×\(channels)")
            }
            var pixels = [SIMD4<Float>](repeating: .zero, count: width * height)
            samples.withUnsafeBytes { codes in
                for row in 0..<height {
                    for x in 0..<width {
                        let at = (row * width + x) * channels
                        let c = (0..<3).map { Float(codes[at + (channels == 3 ? $0 : 0)]) / 255 }
                        pixels[(height - 1 - row) * width + x] = SIMD4(c[0], c[1], c[2], 1)
                    }
                }
            }
            return try Image(workingSpacePixels: pixels, width: width, height: height, colorManaged: false)
        }
    }

    /// `base` (the SDR primary, in the working space) raised to its full HDR rendition.
    func expand(_ base: Image) throws -> Image {
        try base.applyingGainMap(try image(), parameters: self)
    }

    /// The weight of the map's boost on a display with `headroom` (Ultra HDR's rule: none at
    /// or below `capacityMinimum`, all of it at or above `capacityMaximum`, log-linear between).
    public func weight(headroom: Double) -> Double {
        guard !headroom.isNaN, headroom > 0 else { return 0 }
        guard headroom.isFinite else { return 1 }
        guard capacityMaximum > capacityMinimum else { return log2(headroom) >= capacityMaximum ? 1 : 0 }
        return max(0, min(1, (log2(headroom) - capacityMinimum) / (capacityMaximum - capacityMinimum)))
    }
}

extension Image {
    /// The image raised towards its HDR rendition by a gain map (Core Image's
    /// `applyingGainMap(_:headroom:)`): HDR = (SDR + offsetSDR) · 2^(w · log boost) − offsetHDR,
    /// the boost interpolated between the parameters' minimum and maximum by the map's code
    /// (`map` holds codes, as `GainMap.image()` gives them; gamma undone), the map resampled to
    /// the image's size. w is 1 without a `headroom` (the full HDR rendition), else the weight
    /// for a display of that headroom (`GainMap.weight(headroom:)`): 1 gives the SDR image.
    public func applyingGainMap(_ map: Image, parameters: GainMap, headroom: Double? = nil) throws -> Image {
        let (w, h) = (extent.width, extent.height)
        guard map.extent.width >= 1, map.extent.height >= 1, !extent.isInfinite, w >= 1, h >= 1 else { return self }
        let weight = headroom.map(parameters.weight(headroom:)) ?? 1
        guard weight > 0 else { return self }
        let scale = h / map.extent.height, aspect = (w / map.extent.width) / scale
        let placed = map.transformed(by: AffineTransform(translationX: -map.extent.x, y: -map.extent.y))
        let fitted = scale == 1 && aspect == 1 ? placed : try placed.applyingLanczosScale(scale, aspectRatio: aspect)
        let aligned = fitted.transformed(by: AffineTransform(translationX: extent.x, y: extent.y))
        var kernel = ColorKernel(HDRRendition.expansion, version: 2, pixel: { pixel in
            let v = pixel.values
            let sdr = pixel[0], code = pixel[1]
            var out = SIMD4<Float>(0, 0, 0, sdr.w)
            for c in 0..<3 {
                let recovery = powf(max(0, min(1, code[c])), 1 / Float(v[6 + c]))
                let boost = Float(v[c]) * (1 - recovery) + Float(v[3 + c]) * recovery
                out[c] = (sdr[c] + Float(v[9 + c])) * exp2f(boost * Float(v[15])) - Float(v[12 + c])
            }
            return out
        })
        kernel.alphaFromInput = 0  // the SDR picture's alpha, kept
        let numbers = [parameters.minimum, parameters.maximum, parameters.gamma, parameters.offsetSDR, parameters.offsetHDR]
            .flatMap { [$0.x, $0.y, $0.z] } + [weight]
        return kernel.apply(extent: extent, arguments: [self, aligned] + numbers.map { $0 as any KernelArgument })
    }
}
