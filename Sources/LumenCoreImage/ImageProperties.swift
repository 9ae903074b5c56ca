import Foundation
import Lumen

/// `CIImage.properties` as ImageIO gives them: top-level keys (`PixelWidth`, `Orientation`,
/// `DPIWidth`…) and the `{TIFF}` and `{Exif}` dictionaries read from the file's EXIF block.
enum ImageProperties {
    static let tiffTags: [Int: String] = [
        0x010E: "ImageDescription", 0x010F: "Make", 0x0110: "Model", 0x0112: "Orientation", 0x011A: "XResolution",
        0x011B: "YResolution", 0x0128: "ResolutionUnit", 0x0131: "Software", 0x0132: "DateTime", 0x013B: "Artist",
        0x8298: "Copyright",
    ]
    static let exifTags: [Int: String] = [
        0x829A: "ExposureTime", 0x829D: "FNumber", 0x8822: "ExposureProgram", 0x8827: "ISOSpeedRatings",
        0x9003: "DateTimeOriginal", 0x9004: "DateTimeDigitized", 0x9201: "ShutterSpeedValue", 0x9202: "ApertureValue",
        0x9204: "ExposureBiasValue", 0x9207: "MeteringMode", 0x9209: "Flash", 0x920A: "FocalLength",
        0xA001: "ColorSpace", 0xA002: "PixelXDimension", 0xA003: "PixelYDimension", 0xA405: "FocalLenIn35mmFilm",
        0xA432: "LensSpecification", 0xA433: "LensMake", 0xA434: "LensModel",
    ]

    static func properties(header: ImageHeader, metadata: ImageMetadata?) -> [String: Any] {
        var result: [String: Any] = [
            "PixelWidth": header.width, "PixelHeight": header.height, "Depth": header.bitDepth,
            "HasAlpha": header.hasAlpha, "Orientation": header.orientation, "ColorModel": header.channels >= 3 ? "RGB" : "Gray",
        ]
        if let profile = header.iccDescription { result["ProfileName"] = profile }
        if let resolution = metadata?.resolution { result["DPIWidth"] = resolution.x; result["DPIHeight"] = resolution.y }
        if let exif = metadata?.exif, let reader = ExifReader(exif) {
            let (tiff, sub) = reader.read(tiffTags, exifTags)
            if !tiff.isEmpty { result["{TIFF}"] = tiff }
            if !sub.isEmpty { result["{Exif}"] = sub }
        }
        return result
    }
}

/// Reads tag values from a TIFF-structured EXIF block (bounds-checked: a damaged block
/// gives fewer values, never a crash).
struct ExifReader {
    let bytes: [UInt8]
    let little: Bool

    init?(_ data: Data) {
        var b = [UInt8](data)
        if b.count >= 6, b.prefix(6) == [0x45, 0x78, 0x69, 0x66, 0, 0] { b.removeFirst(6) }  // "Exif\0\0"
        guard b.count >= 8, b[0] == b[1], b[0] == 0x49 || b[0] == 0x4D else { return nil }
        bytes = b
        little = b[0] == 0x49
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }
    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    /// The values of the named tags in IFD0 and in the Exif sub-IFD.
    func read(_ ifd0Names: [Int: String], _ exifNames: [Int: String]) -> ([String: Any], [String: Any]) {
        guard let ifd0 = u32(4) else { return ([:], [:]) }
        var exifOffset: Int?
        let tiff = entries(at: ifd0, names: ifd0Names) { tag, at in if tag == 0x8769 { exifOffset = u32(at + 8) } }
        let exif = exifOffset.map { entries(at: $0, names: exifNames) { _, _ in } } ?? [:]
        return (tiff, exif)
    }

    private func entries(at ifd: Int, names: [Int: String], visit: (Int, Int) -> Void) -> [String: Any] {
        guard let count = u16(ifd), count < 512 else { return [:] }
        var result: [String: Any] = [:]
        for i in 0..<count {
            let at = ifd + 2 + 12 * i
            guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { break }
            visit(tag, at)
            guard let name = names[tag], n > 0, n < 1 << 16 else { continue }
            let size = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8][type] ?? 0
            guard size > 0 else { continue }
            let start = size * n <= 4 ? at + 8 : (u32(at + 8) ?? -1)
            guard start >= 0, start + size * n <= bytes.count else { continue }
            var values: [Any] = []
            switch type {
            case 2:
                let text = bytes[start..<(start + n)].prefix { $0 != 0 }
                result[name] = String(decoding: text, as: UTF8.self)
                continue
            case 3: values = (0..<n).compactMap { u16(start + 2 * $0) }
            case 4: values = (0..<n).compactMap { u32(start + 4 * $0) }
            case 5, 10:
                values = (0..<n).compactMap { k -> Double? in
                    guard var num = u32(start + 8 * k), var den = u32(start + 8 * k + 4) else { return nil }
                    if type == 10 { num = Int(Int32(truncatingIfNeeded: num)); den = Int(Int32(truncatingIfNeeded: den)) }
                    return den == 0 ? nil : Double(num) / Double(den)
                }
            default: values = (0..<n).map { Int(bytes[start + $0]) }
            }
            if values.count == 1 { result[name] = values[0] } else if !values.isEmpty { result[name] = values }
        }
        return result
    }
}
