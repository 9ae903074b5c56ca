// The part of Core Video that Core Image code passes around: pixel buffers in memory
// (`CVPixelBufferCreate`, lock, base address, width, height), which `CIImage(cvPixelBuffer:)`
// reads and `CIContext.render(_:to:)` writes. `import CoreImage` brings Core Video with it on
// Apple platforms. Buffers here are plain memory: no IOSurface, no planar (YUV) formats.
import Foundation
import Lumen
#if !canImport(CoreVideo)

/// A four-character code (`kCVPixelFormatType_32BGRA`…).
public typealias OSType = UInt32
/// Core Video's result code.
public typealias CVReturn = Int32
/// Core Video's success result.
public let kCVReturnSuccess: CVReturn = 0
/// Core Video's result for an invalid argument.
public let kCVReturnInvalidArgument: CVReturn = -6661
/// Core Video's result for a pixel format it cannot make.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// Core Video's result for pixel-buffer attributes that do not describe a buffer.
public let kCVReturnInvalidPixelBufferAttributes: CVReturn = -6682

/// Core Foundation's allocator (the default one is all there is here).
public final class CFAllocator: @unchecked Sendable {}
/// The default allocator: nil, as Core Foundation accepts it.
public let kCFAllocatorDefault: CFAllocator? = nil

/// 8-bit B, G, R, A (premultiplied), the camera's usual format.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241  // 'BGRA'
/// 8-bit A, R, G, B (premultiplied).
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// 8-bit R, G, B, A (premultiplied).
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241  // 'RGBA'
/// 8-bit A, B, G, R (premultiplied).
public let kCVPixelFormatType_32ABGR: OSType = 0x4142_4752  // 'ABGR'
/// 16-bit float R, G, B, A.
public let kCVPixelFormatType_64RGBAHalf: OSType = 0x5247_6841  // 'RGhA'
/// 32-bit float R, G, B, A.
public let kCVPixelFormatType_128RGBAFloat: OSType = 0x5247_6641  // 'RGfA'
/// One 8-bit channel (read as grey).
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038  // 'L008'
/// One 32-bit float channel (read as grey, values unchanged).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066  // 'L00f'
/// Depth in metres, one 32-bit float (read as grey, values unchanged).
public let kCVPixelFormatType_DepthFloat32: OSType = 0x6664_6570  // 'fdep'
/// Disparity in 1/metres, one 32-bit float (read as grey, values unchanged).
public let kCVPixelFormatType_DisparityFloat32: OSType = 0x6664_6973  // 'fdis'

/// Pixel-buffer attribute: the buffer may back a CGImage (accepted; always true here).
public let kCVPixelBufferCGImageCompatibilityKey = "CGImageCompatibility" as CFString
/// Pixel-buffer attribute: a CGContext may draw into the buffer (accepted; always true here).
public let kCVPixelBufferCGBitmapContextCompatibilityKey = "CGBitmapContextCompatibility" as CFString
/// Pixel-buffer attribute: the pixel format (an NSNumber of an OSType).
public let kCVPixelBufferPixelFormatTypeKey = "PixelFormatType" as CFString
/// Pixel-buffer attribute: the width in pixels.
public let kCVPixelBufferWidthKey = "Width" as CFString
/// Pixel-buffer attribute: the height in pixels.
public let kCVPixelBufferHeightKey = "Height" as CFString

/// Whether a lock is for reading only.
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    /// The flag bits.
    public let rawValue: UInt64
    /// Flags from their bits.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The buffer is only read while locked.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}

/// A pixel buffer in memory: one plane, rows from the top, 16-byte aligned.
public final class CVPixelBuffer: @unchecked Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The format's four-character code.
    public let pixelFormatType: OSType
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The pixels.
    public let baseAddress: UnsafeMutableRawPointer
    var locks = 0

    init?(width: Int, height: Int, pixelFormatType: OSType) {
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16, let size = Self.bytesPerPixel(pixelFormatType) else { return nil }
        self.width = width; self.height = height; self.pixelFormatType = pixelFormatType
        bytesPerRow = (width * size + 15) / 16 * 16
        baseAddress = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * height, alignment: 16)
        baseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * height)
    }

    deinit { baseAddress.deallocate() }

    static func bytesPerPixel(_ format: OSType) -> Int? {
        switch format {
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB, kCVPixelFormatType_32RGBA, kCVPixelFormatType_32ABGR: return 4
        case kCVPixelFormatType_64RGBAHalf: return 8
        case kCVPixelFormatType_128RGBAFloat: return 16
        case kCVPixelFormatType_OneComponent8: return 1
        case kCVPixelFormatType_OneComponent32Float, kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32: return 4
        default: return nil
        }
    }

    /// The Core Image format of a four-component buffer.
    var ciFormat: CIFormat? {
        switch pixelFormatType {
        case kCVPixelFormatType_32BGRA: return .BGRA8
        case kCVPixelFormatType_32ARGB: return .ARGB8
        case kCVPixelFormatType_32RGBA: return .RGBA8
        case kCVPixelFormatType_32ABGR: return .ABGR8
        case kCVPixelFormatType_64RGBAHalf: return .RGBAh
        case kCVPixelFormatType_128RGBAFloat: return .RGBAf
        default: return nil
        }
    }
}

/// Core Video's name for the buffers Core Image reads.
public typealias CVImageBuffer = CVPixelBuffer

/// Makes a cleared buffer of `width × height` pixels in `pixelFormatType` (the 8-bit RGB
/// orders, 64RGBAHalf, 128RGBAFloat, OneComponent8, OneComponent32Float, DepthFloat32,
/// DisparityFloat32); `kCVReturnInvalidPixelFormat` for another format.
public func CVPixelBufferCreate(_ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
                                _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidArgument }
    guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: pixelFormatType) else { return kCVReturnInvalidPixelFormat }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// Marks the buffer in use by the CPU (memory buffers are always accessible).
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.locks += 1
    return kCVReturnSuccess
}
/// Ends a `CVPixelBufferLockBaseAddress`.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.locks = max(0, pixelBuffer.locks - 1)
    return kCVReturnSuccess
}
/// The first byte of the pixels.
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? { pixelBuffer.baseAddress }
/// Columns.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.width }
/// Rows.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.height }
/// Bytes from one row to the next.
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.bytesPerRow }
/// The format's four-character code.
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType { pixelBuffer.pixelFormatType }
/// The size of the pixel data in bytes.
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.bytesPerRow * pixelBuffer.height }

/// Pool attribute: how many buffers the pool keeps ready (accepted; buffers are plain
/// memory here and each request makes a new one).
public let kCVPixelBufferPoolMinimumBufferCountKey = "MinimumBufferCount" as CFString

/// A source of pixel buffers of one size and format, as a camera or video writer hands
/// them out (`CVPixelBufferPoolCreatePixelBuffer`). Buffers here are plain memory, so
/// the pool makes each buffer new and frees it when its last user lets go.
public final class CVPixelBufferPool: @unchecked Sendable {
    let width: Int, height: Int, pixelFormatType: OSType
    let pixelBufferAttributes: CFDictionary

    init(width: Int, height: Int, pixelFormatType: OSType, pixelBufferAttributes: CFDictionary) {
        self.width = width; self.height = height; self.pixelFormatType = pixelFormatType
        self.pixelBufferAttributes = pixelBufferAttributes
    }
}

/// A pool of buffers described by `pixelBufferAttributes`: `kCVPixelBufferWidthKey`,
/// `kCVPixelBufferHeightKey` and `kCVPixelBufferPixelFormatTypeKey` (numbers) are needed,
/// as in Core Video; without them (or with a side over 65,536), `kCVReturnInvalidPixelBufferAttributes`, and
/// `kCVReturnInvalidPixelFormat` for a format `CVPixelBufferCreate` cannot make.
public func CVPixelBufferPoolCreate(_ allocator: CFAllocator?, _ poolAttributes: CFDictionary?, _ pixelBufferAttributes: CFDictionary?,
                                    _ poolOut: UnsafeMutablePointer<CVPixelBufferPool?>) -> CVReturn {
    func integer(_ key: CFString) -> Int? {
        guard let number = pixelBufferAttributes?.object(forKey: key as NSString) as? NSNumber else { return nil }
        let value = number.doubleValue
        return value.isFinite && value >= 0 && value <= Double(UInt32.max) ? Int(value) : nil
    }
    guard let attributes = pixelBufferAttributes, let width = integer(kCVPixelBufferWidthKey), let height = integer(kCVPixelBufferHeightKey),
          let format = integer(kCVPixelBufferPixelFormatTypeKey), width > 0, height > 0, width <= 1 << 16, height <= 1 << 16
    else { return kCVReturnInvalidPixelBufferAttributes }
    guard CVPixelBuffer.bytesPerPixel(OSType(format)) != nil else { return kCVReturnInvalidPixelFormat }
    poolOut.pointee = CVPixelBufferPool(width: width, height: height, pixelFormatType: OSType(format), pixelBufferAttributes: attributes)
    return kCVReturnSuccess
}

/// A cleared buffer of the pool's size and format.
public func CVPixelBufferPoolCreatePixelBuffer(_ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool,
                                              _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn {
    CVPixelBufferCreate(allocator, pixelBufferPool.width, pixelBufferPool.height, pixelBufferPool.pixelFormatType, nil, pixelBufferOut)
}

/// The pixel-buffer attributes the pool was made with.
public func CVPixelBufferPoolGetPixelBufferAttributes(_ pool: CVPixelBufferPool) -> CFDictionary? { pool.pixelBufferAttributes }

extension CIImage {
    /// The buffer's pixels: 8-bit formats as sRGB (Core Video's default for camera frames),
    /// half and float formats as linear working values, one-channel formats as grey with
    /// their values unchanged (depth and disparity maps). `.colorSpace` in `options`
    /// overrides the space (`NSNull()` for values as they are).
    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer, options: [CIImageOption: Any]? = nil) {
        let w = pixelBuffer.width, h = pixelBuffer.height
        let data = Data(bytes: pixelBuffer.baseAddress, count: pixelBuffer.bytesPerRow * h)
        if let format = pixelBuffer.ciFormat {
            let defaultSpace = format.layout!.component == 1 ? CGColorSpace(name: CGColorSpace.sRGB) : nil
            let space = options?[.colorSpace] is NSNull ? nil : (options?[.colorSpace] as? CGColorSpace) ?? defaultSpace
            let image = (try? BitmapImport.image(data, bytesPerRow: pixelBuffer.bytesPerRow, width: w, height: h, format: format,
                                                 colorSpace: space, premultiplied: true, opaque: false)) ?? Image.empty
            self.init(lumenImage: image, colorSpace: space)
            return
        }
        // One channel: expand to grey RGBA floats, rows from the bottom.
        var pixels = [SIMD4<Float>](repeating: .zero, count: w * h)
        let byteFormat = pixelBuffer.pixelFormatType == kCVPixelFormatType_OneComponent8
        let space = byteFormat ? ((options?[.colorSpace] as? CGColorSpace) ?? CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)) : nil
        for row in 0..<h {
            let line = pixelBuffer.baseAddress.advanced(by: row * pixelBuffer.bytesPerRow)
            for x in 0..<w {
                let v = byteFormat ? Float(line.load(fromByteOffset: x, as: UInt8.self)) / 255
                                   : line.loadUnaligned(fromByteOffset: 4 * x, as: Float.self)
                pixels[(h - 1 - row) * w + x] = BitmapImport.working(SIMD4(v, v, v, 1), premultiplied: true, colorSpace: space)
            }
        }
        let image = (try? Image(workingSpacePixels: pixels, width: w, height: h, colorManaged: space != nil)) ?? Image.empty
        self.init(lumenImage: image, colorSpace: space)
    }

    /// As `init(cvPixelBuffer:options:)`.
    public convenience init(cvImageBuffer imageBuffer: CVImageBuffer, options: [CIImageOption: Any]? = nil) {
        self.init(cvPixelBuffer: imageBuffer, options: options)
    }
}

extension CIContext {
    /// Renders the image's pixels from (0, 0) to (width, height) into the buffer, in its format:
    /// 8-bit formats in the context's output colour space (sRGB by default), half and float
    /// formats as working values, one-channel formats from the red channel.
    public func render(_ image: CIImage, to buffer: CVPixelBuffer) {
        render(image, to: buffer, bounds: CGRect(x: 0, y: 0, width: buffer.width, height: buffer.height),
               colorSpace: buffer.ciFormat?.layout?.component == 1 || buffer.pixelFormatType == kCVPixelFormatType_OneComponent8 ? outputColorSpace : nil)
    }

    /// Renders `bounds` of the image into the buffer (from its top-left corner), values in
    /// `colorSpace` (nil: working values).
    public func render(_ image: CIImage, to buffer: CVPixelBuffer, bounds: CGRect, colorSpace: CGColorSpace?) {
        let w = min(buffer.width, Int(bounds.width.rounded())), h = min(buffer.height, Int(bounds.height.rounded()))
        guard w > 0, h > 0 else { return }
        let rect = CGRect(x: bounds.minX, y: bounds.maxY - CGFloat(h), width: CGFloat(w), height: CGFloat(h))
        if buffer.ciFormat != nil {
            render(image, toBitmap: buffer.baseAddress, rowBytes: buffer.bytesPerRow, bounds: rect, format: buffer.ciFormat!, colorSpace: colorSpace)
            return
        }
        do {
            let bitmap = try pixels(image, rect)
            let space = outputSpace(colorSpace)
            for row in 0..<bitmap.height {
                let line = buffer.baseAddress.advanced(by: row * buffer.bytesPerRow)
                for x in 0..<bitmap.width {
                    let v = BitmapImport.output(bitmap.pixel(x: x, row: row), premultiplied: true, colorSpace: space).x
                    if buffer.pixelFormatType == kCVPixelFormatType_OneComponent8 {
                        line.storeBytes(of: UInt8((Self.unit(v) * 255).rounded()), toByteOffset: x, as: UInt8.self)
                    } else {
                        line.storeBytes(of: v, toByteOffset: 4 * x, as: Float.self)
                    }
                }
            }
        } catch {
            CIFilter.report("render(_:to: CVPixelBuffer): \(error)")
        }
    }
}
#endif
