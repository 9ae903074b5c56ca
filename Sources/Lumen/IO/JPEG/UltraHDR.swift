import LumenPlatform

/// What becomes of an input's HDR gain map (an Ultra HDR JPEG's, an iPhone HEIC's) when an
/// image made from it is written: the map goes through the same geometry as the picture and
/// is written back as an Ultra HDR JPEG (or, for a HEIC output, as Apple's map:
/// `AppleGainMap`, `HEIFAuxiliaryLink`), or it is left out.
///
/// A map is carried when every step between the file and the output only places pixels
/// (turns, crops, scales, resamples: `GeometricKernel`). A step that changes values (a
/// colour filter, a blur, a composite, `expandToHDR`) would make the map describe another
/// picture, so the map is dropped and the render's report says so; re-deriving a map from an
/// edited HDR rendition is not done.
enum UltraHDR {
    /// A gain map that goes with an output: the map's picture placed like the output's, in
    /// the map's own codes (not linear light), and its parameters.
    struct Carried {
        let map: Image
        let parameters: GainMap
        /// 1 for a gray map (one gain for all channels), 3 for one per channel.
        let channels: Int
        /// The map's pixels per output pixel, as the input's map had them (Android writes ¼).
        let ratio: Double
        /// The input file, for messages.
        let file: String
    }

    /// Whether `output`'s primary file has a gain map, and if so whether it can go with
    /// `output`: nil without one; `.success` with the placed map; `.failure` with why not.
    static func carry(_ output: Image) throws -> Result<Carried, Dropped>? {
        var path: [ImageNode] = [], node = output.node
        while !(node.kernel is any RowSource), let input = node.inputs.first {
            path.append(node)
            node = input
        }
        guard let source = node.kernel as? any RowSource, source.header.hasGainMap else { return nil }
        if let changing = path.first(where: { !($0.kernel is any GeometricKernel) || $0.inputs.count != 1 }) {
            return .failure(Dropped(file: source.sourceName,
                                    reason: "'\(changing.kind)' changes the pixels' values, not only their places"))
        }
        // A map that cannot be read costs the output its HDR rendition, not the output itself.
        let parameters: GainMap, codes: Image
        do {
            guard let found = try source.gainMap() else { return nil }
            (parameters, codes) = (found, try found.image())
        } catch {
            return .failure(Dropped(file: source.sourceName, reason: "it cannot be read (\(error))"))
        }
        let channels = parameters.channels
        let (width, height) = (node.extent.width, node.extent.height)
        let (mapWidth, mapHeight) = (codes.extent.width, codes.extent.height)
        guard mapWidth >= 1, mapHeight >= 1, width >= 1, height >= 1 else { return nil }
        // The map over the picture it belongs to, in its codes (Android's readers interpolate codes).
        let scale = height / mapHeight, aspect = (width / mapWidth) / scale
        var placed = try codes.applyingLanczosScale(scale, aspectRatio: aspect).cropped(to: node.extent).node
        // The same steps over the map, from the file up (a loop: recipes can be deep).
        for step in path.reversed() { placed = step.replacingInputs([placed]) }
        // A map is at most the picture's size (a larger one, which no writer makes, is written at it).
        return .success(Carried(map: Image(placed), parameters: parameters, channels: channels,
                                ratio: min(1, ((mapWidth * mapHeight) / (width * height)).squareRoot()), file: source.sourceName))
    }

    /// Why a gain map was left out, for the render's warnings.
    struct Dropped: Error, CustomStringConvertible {
        let file: String
        let reason: String
        var message: String { "its HDR gain map is not written: \(reason) (--hdr drop leaves it out without this warning)" }
        var description: String { "\(file): \(message)" }
    }

    /// sRGB codes from linear light, per channel (the map's stored values).
    static let toCodes = ColorKernel("lumen.gainMapCodes") { p in
        SIMD4(TransferFunction.srgbMirrored(fromLinear: p.x), TransferFunction.srgbMirrored(fromLinear: p.y),
              TransferFunction.srgbMirrored(fromLinear: p.z), p.w)
    }
    /// Linear light from codes, so the encoder's sRGB step writes the codes back.
    static let fromCodes = ColorKernel("lumen.gainMapLinear") { p in
        SIMD4(TransferFunction.linearMirrored(fromSRGB: p.x), TransferFunction.linearMirrored(fromSRGB: p.y),
              TransferFunction.linearMirrored(fromSRGB: p.z), p.w)
    }

    // MARK: - The file

    /// An Ultra HDR JPEG: `primary` (a JPEG whose XMP already holds `containerXMP`'s
    /// directory) with the MPF index inserted among its first segments, then `gainMap`.
    static func assemble(primary: Data, gainMap: Data) throws -> Data {
        let bytes = [UInt8](primary)
        var at = 2
        // After the leading application segments (EXIF, XMP, ICC), before the tables.
        while at + 4 <= bytes.count, bytes[at] == 0xFF, (0xE0...0xEF).contains(bytes[at + 1]) || bytes[at + 1] == 0xFE {
            at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, at <= bytes.count else {
            throw LumenError.unwritable(file: "<Ultra HDR JPEG>", reason: "the primary JPEG's segments could not be read")
        }
        let segmentLength = 2 + 2 + 4 + 8 + 2 + 3 * 12 + 4 + 2 * 16
        let tiffStart = at + 4 + 4
        let primarySize = bytes.count + segmentLength
        let mpf = multiPictureIndex(primarySize: primarySize, gainMapSize: gainMap.count, gainMapOffset: primarySize - tiffStart)
        precondition(mpf.count == segmentLength)
        return Data(bytes[..<at]) + mpf + Data(bytes[at...]) + gainMap
    }

    /// CIPA DC-007's index as an APP2 segment: a big-endian TIFF header, one IFD (version,
    /// number of images, the entries' place), then the two 16-byte entries.
    static func multiPictureIndex(primarySize: Int, gainMapSize: Int, gainMapOffset: Int) -> Data {
        var body = Data("MPF\0".utf8) + Data("MM\0*".utf8)
        func u16(_ v: Int) { body += Data([UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        func u32(_ v: Int) { body += Data([UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        u32(8)
        u16(3)
        u16(0xB000); u16(7); u32(4); body += Data("0100".utf8)
        u16(0xB001); u16(4); u32(1); u32(2)
        u16(0xB002); u16(7); u32(32); u32(8 + 2 + 3 * 12 + 4)
        u32(0)
        u32(0x030000); u32(primarySize); u32(0); u16(0); u16(0)   // primary: baseline MP primary image
        u32(0); u32(gainMapSize); u32(gainMapOffset); u16(0); u16(0)
        let length = body.count + 2
        return Data([0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]) + body
    }

    static let xmpNamespaces = #"xmlns:Container="http://ns.google.com/photos/1.0/container/" "#
        + #"xmlns:Item="http://ns.google.com/photos/1.0/container/item/" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/""#

    /// `xmp` (an input's, kept) without an earlier gain-map directory: the same bytes when
    /// it has none.
    static func withoutDirectory(_ xmp: Data?) -> Data? {
        guard let xmp else { return nil }
        guard mentionsGainMap(xmp) else { return xmp }
        let text = String(decoding: xmp, as: UTF8.self)
        let cleaned = removingDirectory(text)
        return cleaned == text ? xmp : Data(cleaned.utf8)
    }

    /// Whether `xmp` names the gain map's or the container's namespace anywhere, in bytes
    /// (`XMPBytes.find`: memchr and memcmp), not with Foundation's String.contains (an
    /// NSString search, 0.25 ms of every JPEG written with its input's XMP) nor Data.firstRange
    /// (generic, 0.6 % of a 2560×1600 motion blur's CPU on a photo with 17 KB of XMP).
    static func mentionsGainMap(_ xmp: Data) -> Bool {
        xmp.withUnsafeBytes { bytes in
            ["hdr-gain-map", "photos/1.0/container"].contains { XMPBytes.find(Array($0.utf8), in: bytes, from: 0) != nil }
        }
    }

    /// The primary's XMP: `xmp` (already without an earlier directory) with this file's
    /// directory of its gain map added, or a packet of the directory alone; nil when `xmp`
    /// has no `</rdf:RDF>` to add it before.
    static func withDirectory(_ xmp: Data?, gainMapLength: Int) -> Data? {
        let description = #"<rdf:Description rdf:about="" "# + xmpNamespaces + #" hdrgm:Version="1.0"><Container:Directory><rdf:Seq>"#
            + #"<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>"#
            + #"<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" "#
            + #"Item:Length="\#(gainMapLength)"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description>"#
        guard let xmp else { return Data(packet(description).utf8) }
        let existing = String(decoding: xmp, as: UTF8.self)
        guard let end = existing.firstRange(of: "</rdf:RDF>") else { return nil }
        return Data((existing[..<end.lowerBound] + description + existing[end.lowerBound...]).utf8)
    }

    /// The XMP without a gain-map directory (`Container:Directory`, whatever its prefix)
    /// and without `hdrgm:Version`, so a file whose map was left out does not announce one.
    static func removingDirectory(_ xmp: String) -> String {
        var text = xmp
        // Only the gain map's namespaces: the container's directory (scanned once: its end is a
        // closing tag further on, see XMPBytes), hdrgm's version.
        let bytes = Array(text.utf8)
        let directories = XMPBytes.directories(bytes).filter {
            text.contains("xmlns:\(String(decoding: $0.prefix, as: UTF8.self))=\"http://ns.google.com/photos/1.0/container/\"")
        }
        text = String(decoding: XMPBytes.removing(directories.map(\.range), from: bytes), as: UTF8.self)
        if let expression = try? Regex(#"\s(\w+):Version\s*=\s*"[^"]*""#).matchingSemantics(.unicodeScalar) {
            var kept = "", from = text.startIndex
            for match in text.matches(of: expression) {
                guard let prefix = match.output[1].substring,
                      text.contains("xmlns:\(prefix)=\"http://ns.adobe.com/hdr-gain-map/1.0/\"") else { continue }
                kept += text[from..<match.range.lowerBound]
                from = match.range.upperBound
            }
            text = kept + text[from...]
        }
        // Their namespace declarations too, once nothing uses the prefix.
        for uri in ["http://ns.adobe.com/hdr-gain-map/1.0/", "http://ns.google.com/photos/1.0/container/",
                    "http://ns.google.com/photos/1.0/container/item/"] {
            let escaped = uri.map { "\\^$.|?*+()[]{}".contains($0) ? "\\\($0)" : String($0) }.joined()
            let pattern = #"\sxmlns:(\w+)\s*=\s*""# + escaped + #"""#
            guard let expression = try? Regex(pattern).matchingSemantics(.unicodeScalar), let match = text.firstMatch(of: expression),
                  let prefix = match.output[1].substring else { continue }
            let name = String(prefix), range = match.range
            if !text.contains("\(name):") { text.removeSubrange(range) }
        }
        return text
    }

    /// The gain map JPEG's XMP: its hdrgm parameters (one value, or a sequence of three
    /// when the channels differ).
    static func gainMapXMP(_ map: GainMap) -> Data {
        func value(_ name: String, _ v: SIMD3<Double>) -> (attribute: String, element: String) {
            if v.x == v.y && v.y == v.z { return (" hdrgm:\(name)=\"\(v.x)\"", "") }
            return ("", "<hdrgm:\(name)><rdf:Seq><rdf:li>\(v.x)</rdf:li><rdf:li>\(v.y)</rdf:li><rdf:li>\(v.z)</rdf:li></rdf:Seq></hdrgm:\(name)>")
        }
        let values = [value("GainMapMin", map.minimum), value("GainMapMax", map.maximum), value("Gamma", map.gamma),
                      value("OffsetSDR", map.offsetSDR), value("OffsetHDR", map.offsetHDR)]
        let description = #"<rdf:Description rdf:about="" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0""#
            + values.map(\.attribute).joined()
            + " hdrgm:HDRCapacityMin=\"\(map.capacityMinimum)\" hdrgm:HDRCapacityMax=\"\(map.capacityMaximum)\""
            + " hdrgm:BaseRenditionIsHDR=\"\(map.baseIsHDR ? "True" : "False")\">"
            + values.map(\.element).joined() + "</rdf:Description>"
        return Data(packet(description).utf8)
    }

    static func packet(_ description: String) -> String {
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + description + "</rdf:RDF></x:xmpmeta>"
    }
}

/// A gain map made for its output: an Ultra HDR JPEG's gain-map JPEG, or a HEIC's Apple map.
enum WrittenGainMap {
    case ultraHDR(Data)
    case apple(AppleGainMap.Written)
}

extension RenderContext {
    /// The input's gain map for an output that keeps it (nil for outputs other than JPEG
    /// and HEIC, and for inputs without one): placed like the output, or why it cannot be.
    func gainMapOutcome(_ image: Image, format: OutputFormat) throws -> Result<UltraHDR.Carried, UltraHDR.Dropped>? {
        guard format.fileFormat == .jpeg || format.fileFormat == .heic, format.hdr == .keep else { return nil }
        return try UltraHDR.carry(image)
    }

    /// The gain map for `job`'s output (rendered first, so `lastReport` is the picture's):
    /// the placed map cut to the output's region and scaled to the input map's share of the
    /// picture, as a JPEG for a JPEG output or as Apple's map for a HEIC. Nil, with `outcome`
    /// turned into why, when it cannot be made: the output is then written without it. A
    /// cancelled render stays cancelled.
    func encodeGainMap(_ outcome: inout Result<UltraHDR.Carried, UltraHDR.Dropped>?, for job: EncodeJob, format: OutputFormat) throws -> WrittenGainMap? {
        guard case let .success(carried)? = outcome else { return nil }
        let apple = format.fileFormat == .heic
        // The directory must fit the picture's XMP, in one JPEG segment, or readers miss the map.
        if !apple, UltraHDR.withDirectory(job.layout.metadata.xmp, gainMapLength: 999_999_999).map({ $0.count + 29 <= 65533 }) != true {
            outcome = .failure(UltraHDR.Dropped(file: carried.file, reason: "the picture's XMP cannot take the map's directory"))
            return nil
        }
        let appleHeadroom = AppleGainMap.headroom(for: carried.parameters)
        if apple && appleHeadroom == nil {
            outcome = .failure(UltraHDR.Dropped(file: carried.file, reason: "it only darkens, which a HEIC's (Apple's) gain map cannot say"))
            return nil
        }
        do {
            let region = job.region
            let width = max(1, Int((Double(region.width) * carried.ratio).rounded()))
            let height = max(1, Int((Double(region.height) * carried.ratio).rounded()))
            let scale = Double(height) / Double(region.height), aspect = (Double(width) / Double(region.width)) / scale
            // An image over the output's region, at the map's size.
            func atMapSize(_ image: Image) throws -> Image {
                try image.cropped(to: Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width), height: Double(region.height)))
                    .transformed(by: AffineTransform(translationX: -Double(region.x), y: -Double(region.y)))
                    .applyingLanczosScale(scale, aspectRatio: aspect)
            }
            let scaled = try atMapSize(carried.map)
            let extent = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
            let pixels = PixelRect(x: 0, y: 0, width: width, height: height)
            if let appleHeadroom, apple {
                cache.expectRenders(of: job.image)  // here at the map's size, then as the picture
                let codes = AppleGainMap.codes(fromUltraHDR: scaled, picture: try atMapSize(job.image), parameters: carried.parameters,
                                               headroom: appleHeadroom)
                let layout = EncodeLayout(width: width, height: height, channels: 1, depth: 8)
                let collector = SampleCollector(layout: layout)
                try renderBands(codes.cropped(to: extent), pixels, layout: layout, profile: nil, into: collector)
                return .apple(AppleGainMap.Written(samples: collector.samples, width: width, height: height, headroom: appleHeadroom))
            }
            let map = UltraHDR.fromCodes.apply(extent: extent, arguments: [scaled])
            var layout = EncodeLayout(width: width, height: height, channels: carried.channels, depth: 8)
            layout.metadata.xmp = UltraHDR.gainMapXMP(carried.parameters)
            let encoder = try ImageWriter.encoder(format: .jpeg(quality: format.quality, chroma444: true), layout: layout,
                                                  sink: .memory(name: "<gain map of \(carried.file)>"))
            try renderBands(map, pixels, layout: layout, profile: nil, into: encoder)
            guard let bytes = try encoder.finish() else { throw LumenError.unwritable(file: carried.file, reason: "no bytes") }
            return .ultraHDR(bytes)
        } catch LumenError.cancelled {
            throw LumenError.cancelled
        } catch {
            outcome = .failure(UltraHDR.Dropped(file: carried.file, reason: "it cannot be rendered (\(error))"))
            return nil
        }
    }

    /// The file of `job`'s output with its gain map: an Ultra HDR JPEG, or a HEIC whose
    /// primary picture has Apple's gain map as its auxiliary image and whose EXIF says the
    /// headroom. Nil, with `outcome` turned into why (reported as `reportDropped` does), when
    /// the map cannot be linked into libheif's file: the caller then writes the picture alone.
    func encode(_ job: EncodeJob, gainMap: WrittenGainMap, format: OutputFormat,
                outcome: inout Result<UltraHDR.Carried, UltraHDR.Dropped>?) throws -> Data? {
        switch gainMap {
        case let .ultraHDR(map):
            return try encodeUltraHDR(job, gainMap: map, format: format)
        case let .apple(map):
            var primaryJob = job
            primaryJob.layout.metadata.exif = AppleGainMap.exif(job.layout.metadata.exif, headroom: map.headroom)
            let name = "<HEIC with a gain map>"
            let encoder = try HEIFEncoder.heic(sink: .memory(name: name), format: format, layout: primaryJob.layout, gainMap: map)
            try primaryJob.run(into: encoder)
            do {
                guard let bytes = try encoder.finish() else { throw LumenError.unwritable(file: name, reason: "the encoder returned no bytes") }
                return bytes
            } catch let malformed as HEIFAuxiliaryLink.Malformed {
                if case let .success(carried)? = outcome {
                    outcome = .failure(UltraHDR.Dropped(file: carried.file, reason: malformed.description))
                }
                try reportDropped(outcome)
                return nil
            }
        }
    }

    /// The Ultra HDR JPEG of `job`'s output with `gainMap` (its JPEG) after the picture.
    func encodeUltraHDR(_ job: EncodeJob, gainMap: Data, format: OutputFormat) throws -> Data {
        var primaryJob = job
        guard let xmp = UltraHDR.withDirectory(job.layout.metadata.xmp, gainMapLength: gainMap.count) else {
            throw LumenError.unwritable(file: "<Ultra HDR primary>", reason: "the XMP cannot take the gain map's directory")
        }
        primaryJob.layout.metadata.xmp = xmp
        let encoder = try ImageWriter.encoder(format: format, layout: primaryJob.layout, sink: .memory(name: "<Ultra HDR primary>"))
        try primaryJob.run(into: encoder)
        guard let primary = try encoder.finish() else { throw LumenError.unwritable(file: "<Ultra HDR primary>", reason: "the encoder returned no bytes") }
        return try UltraHDR.assemble(primary: primary, gainMap: gainMap)
    }

    /// Reports why a gain map is left out, before anything is written: to the warnings of
    /// the caller's collector (a batch's, per input), or as the error `failOnWarning` makes of it.
    func reportDropped(_ outcome: Result<UltraHDR.Carried, UltraHDR.Dropped>?) throws {
        guard case let .failure(dropped)? = outcome else { return }
        if DecodeWarnings.current != nil {
            try DecodeWarnings.report(file: dropped.file, dropped.message)
        } else if options.failOnWarning {
            throw LumenError.corrupt(file: dropped.file, reason: "\(dropped.message) (a warning, an error with --fail-on warning)")
        }
    }

    /// Adds why a gain map was left out to the last report's warnings.
    func noteDropped(_ outcome: Result<UltraHDR.Carried, UltraHDR.Dropped>?) {
        guard case let .failure(dropped)? = outcome else { return }
        addWarning(dropped.description)
    }
}

/// Keeps the 8-bit rows an encoder would get, in memory (a gain map's samples).
final class SampleCollector: ImageEncoder {
    let layout: EncodeLayout
    private(set) var samples: Data

    init(layout: EncodeLayout) {
        self.layout = layout
        samples = Data(count: layout.height * layout.bytesPerRow)
    }

    func write(_ band: RowBand) throws {
        let rowBytes = layout.bytesPerRow
        samples.withUnsafeMutableBytes { out in
            for r in 0..<band.rowCount where band.firstRow + r < layout.height {
                (out.baseAddress! + (band.firstRow + r) * rowBytes).copyMemory(from: band.base + r * band.bytesPerRow, byteCount: rowBytes)
            }
        }
    }

    func finish() throws -> Data? { samples }
}
