import Foundation

/// A decoded image file. Building one reads only the header; pixels are decoded on
/// first render (through the context's cache), limited to the rows the render needs.
final class SourceNode: ImageNode, @unchecked Sendable {
    let url: URL
    let header: ImageHeader
    /// JPEG DCT reduction (1, 2, 4, 8) applied while decoding.
    let reduction: Int

    init(url: URL, header: ImageHeader, reduction: Int = 1, fileStamp: String) {
        self.url = url
        self.header = header
        self.reduction = reduction
        let w = (header.width + reduction - 1) / reduction, h = (header.height + reduction - 1) / reduction
        super.init(kind: "source", parameters: "\(url.path)|\(fileStamp)|1/\(reduction)",
                   extent: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
    }

    /// The same file decoded at 1/`reduction` scale.
    func reduced(by reduction: Int) -> SourceNode {
        SourceNode(url: url, header: header, reduction: reduction,
                   fileStamp: String(identity.parameters.split(separator: "|")[1]))
    }

    override var isOpaque: Bool { !header.hasAlpha }

    /// Converts the raster rows covering `output.rect` into working-space pixels.
    /// `raster` holds file rows starting at `firstRow` (file rows run top to bottom).
    func convert(_ raster: PixelRaster, firstRow: Int, into output: Tile) {
        let height = Int(extent.height)
        let r = output.rect
        let alphaPremultiplied = raster.alphaPremultiplied
        for y in r.y..<r.maxY {
            let rasterRow = height - 1 - y - firstRow
            precondition(rasterRow >= 0 && rasterRow < raster.height, "source rows not decoded")
            let out = output.row(y)
            let channels = raster.channels
            let base = raster.rowPointer(rasterRow)
            if raster.depth == 8 {
                let bytes = base.assumingMemoryBound(to: UInt8.self) + r.x * channels
                TransferFunction.linearFrom8.withUnsafeBufferPointer { lut in
                    Self.convertRow(bytes, channels: channels, count: r.width, lut: lut, scale: 1 / 255,
                                    alphaPremultiplied: alphaPremultiplied, out: out)
                }
            } else {
                let words = base.assumingMemoryBound(to: UInt16.self) + r.x * channels
                TransferFunction.linearFrom16.withUnsafeBufferPointer { lut in
                    Self.convertRow(words, channels: channels, count: r.width, lut: lut, scale: 1 / 65535,
                                    alphaPremultiplied: alphaPremultiplied, out: out)
                }
            }
        }
    }

    @inline(__always)
    private static func convertRow<T: FixedWidthInteger & UnsignedInteger>(
        _ input: UnsafeMutablePointer<T>, channels: Int, count: Int, lut: UnsafeBufferPointer<Float>,
        scale: Float, alphaPremultiplied: Bool, out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let maxCode = Float(T.max)
        switch channels {
        case 1:
            for i in 0..<count {
                let g = lut[Int(input[i])]
                out[i] = SIMD4(g, g, g, 1)
            }
        case 3:
            for i in 0..<count {
                out[i] = SIMD4(lut[Int(input[3 * i])], lut[Int(input[3 * i + 1])], lut[Int(input[3 * i + 2])], 1)
            }
        default:
            let colorChannels = channels - 1
            for i in 0..<count {
                let alphaCode = input[channels * i + colorChannels]
                let a = Float(alphaCode) * scale
                func linear(_ c: Int) -> Float {
                    let code = input[channels * i + c]
                    guard alphaPremultiplied else { return lut[Int(code)] }
                    // Stored premultiplied in encoded space: unpremultiply before linearizing.
                    guard alphaCode > 0 else { return 0 }
                    let encoded = min(1, Float(code) / Float(alphaCode))
                    return lut[Int((encoded * maxCode).rounded())]
                }
                let rgb = colorChannels == 1 ? SIMD3(repeating: linear(0)) : SIMD3(linear(0), linear(1), linear(2))
                out[i] = SIMD4(rgb * a, a)
            }
        }
    }
}
