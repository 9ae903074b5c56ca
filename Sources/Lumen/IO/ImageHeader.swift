import Foundation

/// The file formats Lumen reads and writes.
public enum ImageFileFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, tiff

    /// The format a path's extension names (.jpg/.jpeg, .png, .tif/.tiff), if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        default: return nil
        }
    }

    /// The format the first bytes of a file announce, if any.
    init?(magic bytes: Data) {
        let b = [UInt8](bytes.prefix(8))
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { self = .jpeg }
        else if b.count >= 8, b == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { self = .png }
        else if b.count >= 4, (b[0...3] == [0x49, 0x49, 0x2A, 0x00] || b[0...3] == [0x4D, 0x4D, 0x00, 0x2A]) { self = .tiff }
        else { return nil }
    }
}

/// What a file's header says, read without decoding pixels.
public struct ImageHeader: Sendable, Hashable {
    public var format: ImageFileFormat
    /// Stored size in pixels (before orientation is applied).
    public var width: Int
    public var height: Int
    /// Channels as stored: 1 gray, 2 gray+alpha, 3 RGB/YCbCr, 4 RGBA or CMYK.
    public var channels: Int
    /// Bits per channel as stored (1, 2, 4, 8 or 16).
    public var bitDepth: Int
    public var hasAlpha: Bool
    /// EXIF orientation 1–8 (1 when absent).
    public var orientation: Int
    public var hasICCProfile: Bool
    /// The embedded profile's description ("Adobe RGB (1998)"), when there is one.
    public var iccDescription: String? = nil
    /// A short description of the encoding (e.g. "progressive", "CMYK", "palette", "LZW").
    public var details: [String]

    /// Size once EXIF orientation is applied (5–8 swap width and height).
    public var orientedSize: (width: Int, height: Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }

    /// The depth decoded pixels have: 16 when the file stores 16 bits, else 8.
    public var decodedDepth: Int { bitDepth == 16 ? 16 : 8 }
}
