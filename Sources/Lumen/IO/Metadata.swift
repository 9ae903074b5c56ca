import Foundation

/// What a file carries beside its pixels, kept from input to output by default (as
/// libvips and ImageMagick do): the ICC profile, EXIF, XMP, IPTC and the resolution.
public struct ImageMetadata: Sendable, Hashable {
    /// The embedded ICC profile.
    public var iccProfile: Data?
    /// EXIF as a TIFF-structured block (starting `II*\0` or `MM\0*`, without JPEG's `Exif\0\0`).
    public var exif: Data?
    /// The XMP packet (XML).
    public var xmp: Data?
    /// IPTC-IIM records (as in JPEG's Photoshop APP13 block or TIFF tag 33723).
    public var iptc: Data?
    /// Pixels per inch, horizontally and vertically, when the file says.
    public var resolution: (x: Double, y: Double)? {
        get { resolutionX.map { ($0, resolutionY ?? $0) } }
        set { resolutionX = newValue?.x; resolutionY = newValue?.y }
    }
    private var resolutionX: Double?
    private var resolutionY: Double?

    public init(iccProfile: Data? = nil, exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil) {
        self.iccProfile = iccProfile
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }

    public var isEmpty: Bool { iccProfile == nil && exif == nil && xmp == nil && iptc == nil && resolutionX == nil }

    /// What is present, for `lumen info --json`: sizes in bytes, the resolution, and the
    /// EXIF orientation.
    public var summary: [String: Any] {
        var summary: [String: Any] = [:]
        if let iccProfile { summary["icc"] = iccProfile.count }
        if let exif {
            summary["exif"] = exif.count
            summary["exifOrientation"] = exif.withUnsafeBytes { exifOrientation(in: $0.bindMemory(to: UInt8.self)) }
        }
        if let xmp { summary["xmp"] = xmp.count }
        if let iptc { summary["iptc"] = iptc.count }
        if let resolution { summary["resolution"] = [resolution.x, resolution.y] }
        return summary
    }

    /// The names of the blocks present ("icc", "exif", "xmp", "iptc", "resolution").
    public var blockNames: [String] {
        [("icc", iccProfile != nil), ("exif", exif != nil), ("xmp", xmp != nil), ("iptc", iptc != nil),
         ("resolution", resolutionX != nil)].filter(\.1).map(\.0)
    }
}

extension Data {
    /// EXIF as stored in JPEG APP1, WebP and HEIF may start with `Exif\0\0`; the block
    /// Lumen keeps starts at the TIFF header.
    var exifWithoutPrefix: Data {
        let prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        return starts(with: prefix) ? Data(dropFirst(6)) : self
    }
}
