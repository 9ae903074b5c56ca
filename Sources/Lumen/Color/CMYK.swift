/// CMYK without a profile: the naive conversion every reader falls back to (R = (1−C)(1−K),
/// as libtiff's RGBA interface and libjpeg's users do).
enum CMYK {
    /// Converts `pixels` CMYK(A) pixels of 8 or 16 bits into RGB(A) of the same depth.
    /// `output` may be `input`: each pixel is written no further on than it was read.
    /// Adobe's JPEGs store the inks inverted (`inverted`: 255 = no ink).
    static func naiveToRGB(_ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, pixels: Int,
                           depth: Int = 8, alpha: Bool = false, inverted: Bool = false) {
        let inChannels = alpha ? 5 : 4, outChannels = alpha ? 4 : 3
        if depth == 16 {
            let source = input.assumingMemoryBound(to: UInt16.self), target = output.assumingMemoryBound(to: UInt16.self)
            for i in 0..<pixels { convert(source + i * inChannels, target + i * outChannels, alpha: alpha, inverted: inverted) }
        } else {
            let source = input.assumingMemoryBound(to: UInt8.self), target = output.assumingMemoryBound(to: UInt8.self)
            for i in 0..<pixels { convert(source + i * inChannels, target + i * outChannels, alpha: alpha, inverted: inverted) }
        }
    }

    @inline(__always)
    private static func convert<T: FixedWidthInteger & UnsignedInteger>(_ p: UnsafePointer<T>, _ q: UnsafeMutablePointer<T>,
                                                                        alpha: Bool, inverted: Bool) {
        let full = Int(T.max)
        var c = Int(p[0]), m = Int(p[1]), y = Int(p[2]), k = Int(p[3])
        let a = alpha ? p[4] : 0
        if !inverted { (c, m, y, k) = (full - c, full - m, full - y, full - k) }
        q[0] = T((c * k + full / 2) / full)
        q[1] = T((m * k + full / 2) / full)
        q[2] = T((y * k + full / 2) / full)
        if alpha { q[3] = a }
    }
}
