import CKernels

/// How an opaque 8-bit source's codes become working-space values: a table per channel
/// (the sRGB curve, or channel-separable colour folded into it). Sources expand their rows
/// through them, and a `CodeRowKernel` over such a source reads them (`RowSource.decodeTables`).
///
/// Three 256-entry tables: red, green and blue.
struct ChannelTables: Hashable, Sendable {
    let red, green, blue: [Float]
    /// The same values as whole pixels with the other lanes zero (alpha 1 with blue):
    /// entries 0…255 red's, 256…511 green's, 512…767 blue's, so a pixel is three loads
    /// and two ORs of their bits, exact, where building it from three floats took three
    /// shuffles.
    let lanes: [SIMD4<UInt32>]

    init(red: [Float], green: [Float], blue: [Float]) {
        (self.red, self.green, self.blue) = (red, green, blue)
        lanes = red.map { SIMD4($0.bitPattern, 0, 0, 0) } + green.map { SIMD4(0, $0.bitPattern, 0, 0) }
            + blue.map { SIMD4(0, 0, $0.bitPattern, Float(1).bitPattern) }
    }

    /// The code each value is written as (`EncodeTables.encode8`): red's 256, then
    /// green's, then blue's. For the sRGB curve, every code itself.
    var codes: [UInt8] { (red + green + blue).map { EncodeTables.shared.encode8($0) } }

    /// `codes`, or nil when every code maps to itself (the sRGB curve): a code kernel then copies.
    var mappedCodes: [UInt8]? {
        let codes = codes
        return codes.elementsEqual((0..<768).lazy.map { UInt8($0 & 255) }) ? nil : codes
    }

    /// Equal when the three tables are (`lanes` follows from them).
    static func == (a: Self, b: Self) -> Bool { a.red == b.red && a.green == b.green && a.blue == b.blue }
    func hash(into hasher: inout Hasher) { hasher.combine(red); hasher.combine(green); hasher.combine(blue) }

    /// The sRGB curve on every channel: an opaque 8-bit file's plain decode.
    static let srgb = ChannelTables(red: TransferFunction.linearFrom8, green: TransferFunction.linearFrom8,
                                    blue: TransferFunction.linearFrom8)

    /// Opaque 8-bit rows (`channels` 1 or 3) to working-space pixels through these tables
    /// (`lanes`; RGB through the C loop where there is one: the same loads, a third of this
    /// loop's instructions).
    func expand(_ input: UnsafePointer<UInt8>, channels: Int, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>,
                level: InstructionSet = .current) {
        if channels == 3, level > .baseline {
            return lanes.withUnsafeBufferPointer { lanes in
                CKernels_expand8RGB(level.cLevel, input, UnsafeRawPointer(lanes.baseAddress!).assumingMemoryBound(to: Float.self),
                                    UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self), count)
            }
        }
        lanes.withUnsafeBufferPointer { lanes in
            let red = lanes.baseAddress!, green = red + 256, blue = red + 512
            if channels == 1 {
                for i in 0..<count {
                    let g = Int(input[i])
                    out[i] = unsafeBitCast(red[g] | green[g] | blue[g], to: SIMD4<Float>.self)
                }
            } else {
                for i in 0..<count {
                    out[i] = unsafeBitCast(red[Int(input[3 * i])] | green[Int(input[3 * i + 1])] | blue[Int(input[3 * i + 2])],
                                           to: SIMD4<Float>.self)
                }
            }
        }
    }
}
