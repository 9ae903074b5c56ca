/// Reads the orientation tag (0x0112) from the TIFF-structured block inside an EXIF
/// APP1 segment or a PNG eXIf chunk. Returns 1 when the tag is absent or malformed.
func exifOrientation(in exif: UnsafeBufferPointer<UInt8>) -> Int {
    guard exif.count >= 8 else { return 1 }
    let little: Bool
    switch (exif[0], exif[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return 1
    }
    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= exif.count else { return nil }
        return little ? Int(exif[at]) | Int(exif[at + 1]) << 8 : Int(exif[at]) << 8 | Int(exif[at + 1])
    }
    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }
    guard let ifd = u32(4), let count = u16(ifd) else { return 1 }
    for entry in 0..<count {
        let at = ifd + 2 + entry * 12
        guard let tag = u16(at) else { return 1 }
        if tag == 0x0112, let value = u16(at + 8), (1...8).contains(value) { return value }
    }
    return 1
}
