import LumenPlatform

/// ThumbHash (Evan Wallace's placeholder format, https://evanw.github.io/thumbhash/): about
/// 25 bytes holding an image's average colour, alpha, approximate aspect ratio and a few
/// cosine components of luminance and two colour-difference channels, decoded by clients
/// into a blurry stand-in.
///
/// Written from the format's description and its reference implementation's arithmetic
/// (double precision, JavaScript's `Math.round`, which rounds halves up): the canonical
/// encoder's bytes for the same pixels. The PyPI port `thumbhash` 0.1.2 agrees on opaque
/// images except where a value lands exactly on a half, which Python rounds to even (2.5
/// gives 2 there, 3 here and in the reference), and it cannot encode images with
/// transparency (a precedence slip in its alpha line).
public enum ThumbHash {
    /// Encodes `width` × `height` (each 1…100) pixels of 8-bit sRGB RGBA, straight alpha,
    /// rows top first and packed.
    public static func encode(rgba: [UInt8], width w: Int, height h: Int) throws -> [UInt8] {
        guard (1...100).contains(w), (1...100).contains(h) else {
            throw LumenError.invalidValue(filter: "thumbHash", key: "size", reason: "must fit in 100×100, got \(w)×\(h)")
        }
        guard rgba.count == w * h * 4 else {
            throw LumenError.invalidValue(filter: "thumbHash", key: "pixels", reason: "\(rgba.count) bytes are not \(w)×\(h) RGBA pixels")
        }
        // The average colour, weighted by alpha.
        var average = SIMD4<Double>.zero  // r, g, b, a
        for i in 0..<(w * h) {
            let alpha = Double(rgba[4 * i + 3]) / 255
            average.x += alpha / 255 * Double(rgba[4 * i])
            average.y += alpha / 255 * Double(rgba[4 * i + 1])
            average.z += alpha / 255 * Double(rgba[4 * i + 2])
            average.w += alpha
        }
        if average.w > 0 {
            average.x /= average.w
            average.y /= average.w
            average.z /= average.w
        }
        let hasAlpha = average.w < Double(w * h)
        let limit = hasAlpha ? 5.0 : 7.0  // fewer luminance components when alpha takes room
        let lx = max(1, Int(round(limit * Double(w) / Double(max(w, h)))))
        let ly = max(1, Int(round(limit * Double(h) / Double(max(w, h)))))
        // RGBA → LPQA, composited over the average colour.
        var l = [Double](repeating: 0, count: w * h), p = l, q = l, a = l
        for i in 0..<(w * h) {
            let alpha = Double(rgba[4 * i + 3]) / 255
            let r = average.x * (1 - alpha) + alpha / 255 * Double(rgba[4 * i])
            let g = average.y * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 1])
            let b = average.z * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }
        let lChannel = Channel(encoding: l, width: w, height: h, nx: max(3, lx), ny: max(3, ly))
        let pChannel = Channel(encoding: p, width: w, height: h, nx: 3, ny: 3)
        let qChannel = Channel(encoding: q, width: w, height: h, nx: 3, ny: 3)
        let aChannel = hasAlpha ? Channel(encoding: a, width: w, height: h, nx: 5, ny: 5) : nil
        let landscape = w > h
        let header24 = round(63 * lChannel.dc) | round(31.5 + 31.5 * pChannel.dc) << 6 | round(31.5 + 31.5 * qChannel.dc) << 12
            | round(31 * lChannel.scale) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 = (landscape ? ly : lx) | round(63 * pChannel.scale) << 3 | round(63 * qChannel.scale) << 9 | (landscape ? 1 << 15 : 0)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16), UInt8(header16 & 255), UInt8(header16 >> 8)]
        if let aChannel { hash.append(UInt8(round(15 * aChannel.dc) | round(15 * aChannel.scale) << 4)) }
        let start = hash.count
        var index = 0
        for channel in [lChannel, pChannel, qChannel] + (aChannel.map { [$0] } ?? []) {
            for f in channel.ac {
                if start + index / 2 == hash.count { hash.append(0) }
                hash[start + index / 2] |= UInt8(round(15 * f)) << ((index & 1) * 4)
                index += 1
            }
        }
        return hash
    }

    /// JavaScript's `Math.round`: halves go up.
    static func round(_ x: Double) -> Int { Int((x + 0.5).rounded(.down)) }

    /// One channel's cosine components: the triangle `cx·ny < nx·(ny − cy)` of them, the
    /// first (DC) kept apart, the rest normalised to 0…1 by their largest magnitude.
    struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0

        init(encoding channel: [Double], width w: Int, height h: Int, nx: Int, ny: Int) {
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        }
    }

    /// The placeholder a hash describes: about 32 pixels on its longer side at the
    /// hash's aspect ratio, 8-bit sRGB RGBA with straight alpha, rows top first.
    public static func decode(_ hash: [UInt8]) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        guard hash.count >= 5 else { throw LumenError.invalidValue(filter: "thumbHash", key: "hash", reason: "\(hash.count) bytes are too few (at least 5)") }
        let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let header16 = Int(hash[3]) | Int(hash[4]) << 8
        let lDC = Double(header24 & 63) / 63
        let pDC = Double(header24 >> 6 & 63) / 31.5 - 1
        let qDC = Double(header24 >> 12 & 63) / 31.5 - 1
        let lScale = Double(header24 >> 18 & 31) / 31
        let hasAlpha = header24 >> 23 != 0
        let pScale = Double(header16 >> 3 & 63) / 63
        let qScale = Double(header16 >> 9 & 63) / 63
        let landscape = header16 >> 15 != 0
        let lx = max(3, landscape ? (hasAlpha ? 5 : 7) : header16 & 7)
        let ly = max(3, landscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        guard !hasAlpha || hash.count >= 6 else { throw LumenError.invalidValue(filter: "thumbHash", key: "hash", reason: "the alpha byte is missing") }
        let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
        let aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0
        let start = hasAlpha ? 6 : 5
        var index = 0
        func components(_ nx: Int, _ ny: Int, scale: Double) throws -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    guard start + index / 2 < hash.count else {
                        throw LumenError.invalidValue(filter: "thumbHash", key: "hash", reason: "\(hash.count) bytes are too few for its components")
                    }
                    ac.append((Double(hash[start + index / 2] >> ((index & 1) * 4) & 15) / 7.5 - 1) * scale)
                    index += 1
                    cx += 1
                }
            }
            return ac
        }
        // Saturation is boosted by 1.25 to make up for the quantisation, as the reference does.
        let lAC = try components(lx, ly, scale: lScale)
        let pAC = try components(3, 3, scale: pScale * 1.25)
        let qAC = try components(3, 3, scale: qScale * 1.25)
        let aAC = hasAlpha ? try components(5, 5, scale: aScale) : []
        let ratio = Double(landscape ? (hasAlpha ? 5 : 7) : header16 & 7) / Double(landscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        guard ratio.isFinite, ratio > 0 else { throw LumenError.invalidValue(filter: "thumbHash", key: "hash", reason: "its aspect ratio is zero") }
        let w = Self.round(ratio > 1 ? 32 : 32 * ratio), h = Self.round(ratio > 1 ? 32 / ratio : 32)
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let cxStop = max(lx, hasAlpha ? 5 : 3), cyStop = max(ly, hasAlpha ? 5 : 3)
        var fx = [Double](repeating: 0, count: cxStop), fy = [Double](repeating: 0, count: cyStop)
        for y in 0..<h {
            for cy in 0..<cyStop { fy[cy] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
            for x in 0..<w {
                for cx in 0..<cxStop { fx[cx] = cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) }
                var l = lDC, p = pDC, q = qDC, a = aDC
                var j = 0
                for cy in 0..<ly {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx * ly < lx * (ly - cy) { l += lAC[j] * fx[cx] * fy2; j += 1; cx += 1 }
                }
                j = 0
                for cy in 0..<3 {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx < 3 - cy { let f = fx[cx] * fy2; p += pAC[j] * f; q += qAC[j] * f; j += 1; cx += 1 }
                }
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        var cx = cy > 0 ? 0 : 1
                        let fy2 = fy[cy] * 2
                        while cx < 5 - cy { a += aAC[j] * fx[cx] * fy2; j += 1; cx += 1 }
                    }
                }
                let b = l - 2 / 3 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                let at = 4 * (y * w + x)
                for (k, v) in [r, g, b, a].enumerated() { rgba[at + k] = UInt8(max(0, Self.round(255 * min(1, v)))) }
            }
        }
        return (w, h, rgba)
    }
}
