import LumenPlatform

/// BlurHash (Wolt's placeholder format, https://blurha.sh): a short base-83 string holding
/// an image's average colour and a few cosine components, which a client decodes into a
/// blurry stand-in while the real image loads.
///
/// The encoder follows the reference C implementation's arithmetic (single-precision sums,
/// its rounding and quantisation), so the same pixels give the same string as
/// `blurhash-python` (which wraps that C code). The decoder gives the reference's pixels.
public enum BlurHash {
    /// The base-83 alphabet.
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// Encodes `width` × `height` pixels of 8-bit sRGB (`channels` 3 or 4 interleaved per
    /// pixel, rows `bytesPerRow` apart; alpha is ignored, as the reference does) with
    /// `xComponents` × `yComponents` cosine components (each 1…9; 4 × 3 is usual).
    public static func encode(pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channels: Int = 3, bytesPerRow: Int? = nil,
                              xComponents: Int = 4, yComponents: Int = 3) throws -> String {
        let stride = bytesPerRow ?? width * channels
        guard (1...9).contains(xComponents), (1...9).contains(yComponents) else {
            throw LumenError.invalidValue(filter: "blurHash", key: "components", reason: "must be 1…9 each, got \(xComponents)×\(yComponents)")
        }
        guard width > 0, height > 0, channels == 3 || channels == 4, stride >= width * channels,
              pixels.count >= stride * (height - 1) + width * channels else {
            throw LumenError.invalidValue(filter: "blurHash", key: "pixels", reason: "\(pixels.count) bytes do not hold \(width)×\(height) pixels of \(channels) channels")
        }
        let linear = (0..<256).map(sRGBToLinear)
        var factors: [SIMD3<Float>] = []
        factors.reserveCapacity(xComponents * yComponents)
        for j in 0..<yComponents {
            // cosf of an angle computed in double, as the reference's `cosf(M_PI * i * x / width)`.
            let cosY = (0..<height).map { y in cosf(Float(Double.pi * Double(j) * Double(y) / Double(height))) }
            for i in 0..<xComponents {
                let cosX = (0..<width).map { x in cosf(Float(Double.pi * Double(i) * Double(x) / Double(width))) }
                var r: Float = 0, g: Float = 0, b: Float = 0
                for y in 0..<height {
                    let row = y * stride
                    for x in 0..<width {
                        let basis = cosX[x] * cosY[y]
                        let at = row + x * channels
                        r += basis * linear[Int(pixels[at])]
                        g += basis * linear[Int(pixels[at + 1])]
                        b += basis * linear[Int(pixels[at + 2])]
                    }
                }
                let normalisation: Float = i == 0 && j == 0 ? 1 : 2
                let scale = normalisation / Float(width * height)
                factors.append(SIMD3(r * scale, g * scale, b * scale))
            }
        }
        var hash = [UInt8]()
        append(&hash, (xComponents - 1) + (yComponents - 1) * 9, digits: 1)
        let ac = factors.dropFirst()
        var maximum: Float = 1
        if !ac.isEmpty {
            var actual: Float = 0
            for f in ac { actual = Swift.max(actual, abs(f.x), abs(f.y), abs(f.z)) }
            let quantised = Int(Swift.max(0, Swift.min(82, floorf(Float(Double(actual * 166) - 0.5)))))
            maximum = (Float(quantised) + 1) / 166
            append(&hash, quantised, digits: 1)
        } else {
            append(&hash, 0, digits: 1)
        }
        let dc = factors[0]
        append(&hash, (linearToSRGB(dc.x) << 16) + (linearToSRGB(dc.y) << 8) + linearToSRGB(dc.z), digits: 4)
        for f in ac {
            func quantise(_ v: Float) -> Int {
                let signed = copysignf(powf(abs(v / maximum), 0.5), v / maximum)
                return Int(Swift.max(0, Swift.min(18, floorf(Float(Double(signed * 9) + 9.5)))))
            }
            append(&hash, quantise(f.x) * 19 * 19 + quantise(f.y) * 19 + quantise(f.z), digits: 2)
        }
        return String(decoding: hash, as: UTF8.self)
    }

    /// Decodes `hash` into `width` × `height` pixels of 8-bit sRGB RGB, rows top first;
    /// `punch` (> 0) scales the contrast of the components, as the reference's.
    public static func decode(_ hash: String, width: Int, height: Int, punch: Double = 1) throws -> [UInt8] {
        let bytes = Array(hash.utf8)
        func value(_ range: Range<Int>) throws -> Int {
            var v = 0
            for byte in bytes[range] {
                guard let digit = alphabet.firstIndex(of: byte) else {
                    throw LumenError.invalidValue(filter: "blurHash", key: "hash", reason: "'\(hash)' has a character outside BlurHash's alphabet")
                }
                v = v * 83 + digit
            }
            return v
        }
        guard bytes.count >= 6 else { throw LumenError.invalidValue(filter: "blurHash", key: "hash", reason: "'\(hash)' is too short (at least 6 characters)") }
        guard width > 0, height > 0, width <= 4096, height <= 4096 else {
            throw LumenError.invalidValue(filter: "blurHash", key: "size", reason: "must be 1…4096 a side, got \(width)×\(height)")
        }
        guard punch.isFinite, punch > 0 else { throw LumenError.invalidValue(filter: "blurHash", key: "punch", reason: "must be a positive number, got \(punch)") }
        let sizeFlag = try value(0..<1)
        let nx = sizeFlag % 9 + 1, ny = sizeFlag / 9 + 1
        guard bytes.count == 4 + 2 * nx * ny else {
            throw LumenError.invalidValue(filter: "blurHash", key: "hash", reason: "'\(hash)' should have \(4 + 2 * nx * ny) characters for \(nx)×\(ny) components, has \(bytes.count)")
        }
        let maximum = Float(Double(try value(1..<2) + 1) / 166) * Float(punch)
        var colors = [SIMD3<Float>](repeating: .zero, count: nx * ny)
        let dc = try value(2..<6)
        colors[0] = SIMD3(sRGBToLinear(dc >> 16), sRGBToLinear((dc >> 8) & 255), sRGBToLinear(dc & 255))
        for i in 1..<(nx * ny) {
            let ac = try value((4 + 2 * i)..<(6 + 2 * i))
            func component(_ q: Int) -> Float {
                let v = Float((Double(q) - 9) / 9)
                return copysignf(powf(abs(v), 2), v) * maximum
            }
            colors[i] = SIMD3(component(ac / (19 * 19)), component((ac / 19) % 19), component(ac % 19))
        }
        // The reference's basis, cos(π x i / w) · cos(π y j / h) in double rounded to single, from tables.
        let cosX = (0..<(nx * width)).map { k in cos(Double.pi * Double(k % width) * Double(k / width) / Double(width)) }
        let cosY = (0..<(ny * height)).map { k in cos(Double.pi * Double(k % height) * Double(k / height) / Double(height)) }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var sum = SIMD3<Float>.zero
                for j in 0..<ny {
                    for i in 0..<nx {
                        let basis = Float(cosX[i * width + x] * cosY[j * height + y])
                        sum += colors[i + j * nx] * basis
                    }
                }
                let at = 3 * (y * width + x)
                pixels[at] = UInt8(linearToSRGB(sum.x))
                pixels[at + 1] = UInt8(linearToSRGB(sum.y))
                pixels[at + 2] = UInt8(linearToSRGB(sum.z))
            }
        }
        return pixels
    }

    /// The reference's `sRGBToLinear`: `value / 255` in single precision, the curve in double, the result in single.
    static func sRGBToLinear(_ value: Int) -> Float {
        let v = Float(value) / 255
        if Double(v) <= 0.04045 { return Float(Double(v) / 12.92) }
        return powf(Float((Double(v) + 0.055) / 1.055), 2.4)
    }

    /// The reference's `linearTosRGB`: clamped, the curve in double, truncated after adding 0.5.
    static func linearToSRGB(_ value: Float) -> Int {
        let v = Swift.max(0, Swift.min(1, value))
        if Double(v) <= 0.0031308 { return Int(Double(v) * 12.92 * 255 + 0.5) }
        return Int((1.055 * Double(powf(v, Float(1 / 2.4))) - 0.055) * 255 + 0.5)
    }

    static func append(_ hash: inout [UInt8], _ value: Int, digits: Int) {
        var divisor = 1
        for _ in 1..<Swift.max(1, digits) { divisor *= 83 }
        for _ in 0..<digits {
            hash.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
    }
}
