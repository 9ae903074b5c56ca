import CJPEG
import CPNG
import CTIFF
import Foundation

/// The pixel layout an encoder receives: rows top first, interleaved 8- or 16-bit
/// channels (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA), unpremultiplied sRGB.
struct EncodeLayout: Equatable {
    var width: Int
    var height: Int
    var channels: Int
    var depth: Int
    var bytesPerRow: Int { width * channels * depth / 8 }
}

/// One codec's writer, fed a band of rows at a time so memory stays flat.
protocol ImageEncoder: AnyObject {
    func write(_ band: RowBand) throws
    func finish() throws
}

/// Writes image files atomically: the codec writes a temporary file beside the target,
/// which is renamed over it only once complete. A failure leaves the target untouched.
enum ImageWriter {
    static func write(to url: URL, format: OutputFormat, layout: EncodeLayout,
                      rows: (@escaping (RowBand) throws -> Void) throws -> Void) throws {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.isEmpty ? "." : directory, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw LumenError.unwritable(file: path, reason: "directory \(directory) does not exist")
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
        do {
            let encoder = try makeEncoder(path: temporary, displayPath: path, format: format, layout: layout)
            try rows { band in try encoder.write(band) }
            try encoder.finish()
            guard rename(temporary, path) == 0 else {
                throw LumenError.unwritable(file: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func makeEncoder(path: String, displayPath: String, format: OutputFormat,
                                    layout: EncodeLayout) throws -> ImageEncoder {
        switch format.fileFormat {
        case .jpeg: return try JPEGEncoder(path: path, displayPath: displayPath, format: format, layout: layout)
        case .png: return try PNGEncoder(path: path, displayPath: displayPath, format: format, layout: layout)
        case .tiff: return try TIFFEncoder(path: path, displayPath: displayPath, format: format, layout: layout)
        }
    }
}

final class JPEGEncoder: ImageEncoder {
    private let encoder: OpaquePointer
    private let displayPath: String

    init(path: String, displayPath: String, format: OutputFormat, layout: EncodeLayout) throws {
        precondition(layout.channels == 1 || layout.channels == 3, "JPEG takes gray or RGB rows")
        self.displayPath = displayPath
        var message = [CChar](repeating: 0, count: 256)
        let quality = Int32(max(1, min(100, (format.quality * 100).rounded())))
        guard let encoder = CJPEG_encoder_create(path, Int32(layout.width), Int32(layout.height), Int32(layout.channels),
                                                 quality, format.chroma444 ? 1 : 0, format.progressive ? 1 : 0,
                                                 nil, 0, &message, message.count) else {
            throw LumenError.unwritable(file: displayPath, reason: String(cString: message))
        }
        self.encoder = encoder
    }

    deinit { CJPEG_encoder_destroy(encoder) }

    func write(_ band: RowBand) throws {
        guard CJPEG_write_rows(encoder, band.base.assumingMemoryBound(to: UInt8.self), band.bytesPerRow, Int32(band.rowCount)) == 0 else {
            throw LumenError.unwritable(file: displayPath, reason: String(cString: CJPEG_encoder_message(encoder)))
        }
    }

    func finish() throws {
        guard CJPEG_encoder_finish(encoder) == 0 else {
            throw LumenError.unwritable(file: displayPath, reason: String(cString: CJPEG_encoder_message(encoder)))
        }
    }
}

final class PNGEncoder: ImageEncoder {
    private let encoder: OpaquePointer
    private let displayPath: String

    init(path: String, displayPath: String, format: OutputFormat, layout: EncodeLayout) throws {
        self.displayPath = displayPath
        var message = [CChar](repeating: 0, count: 256)
        guard let encoder = CPNG_encoder_create(path, Int32(layout.width), Int32(layout.height), Int32(layout.channels),
                                                Int32(layout.depth), Int32(max(0, min(9, format.compressionLevel))),
                                                &message, message.count) else {
            throw LumenError.unwritable(file: displayPath, reason: String(cString: message))
        }
        self.encoder = encoder
    }

    deinit { CPNG_encoder_destroy(encoder) }

    func write(_ band: RowBand) throws {
        guard CPNG_write_rows(encoder, band.base.assumingMemoryBound(to: UInt8.self), band.bytesPerRow, Int32(band.rowCount)) == 0 else {
            throw LumenError.unwritable(file: displayPath, reason: String(cString: CPNG_encoder_message(encoder)))
        }
    }

    func finish() throws {
        guard CPNG_encoder_finish(encoder) == 0 else {
            throw LumenError.unwritable(file: displayPath, reason: String(cString: CPNG_encoder_message(encoder)))
        }
    }
}

final class TIFFEncoder: ImageEncoder {
    private var file: OpaquePointer?
    private let displayPath: String
    private var nextRow: UInt32 = 0

    init(path: String, displayPath: String, format: OutputFormat, layout: EncodeLayout) throws {
        self.displayPath = displayPath
        guard let file = CTIFF_open(path, "w") else {
            throw LumenError.unwritable(file: displayPath, reason: String(cString: CTIFF_last_error()))
        }
        self.file = file
        CTIFF_begin_write(file, UInt32(layout.width), UInt32(layout.height), Int32(layout.channels),
                          Int32(layout.depth), format.tiffCompression.rawValue, nil, 0)
    }

    deinit { if let file { CTIFF_close(file) } }

    func write(_ band: RowBand) throws {
        for i in 0..<band.rowCount {
            guard CTIFF_write_row(file, (band.base + i * band.bytesPerRow).assumingMemoryBound(to: UInt8.self), nextRow) == 0 else {
                throw LumenError.unwritable(file: displayPath, reason: String(cString: CTIFF_last_error()))
            }
            nextRow += 1
        }
    }

    func finish() throws {
        CTIFF_close(file)
        file = nil
        let message = String(cString: CTIFF_last_error())
        if !message.isEmpty { throw LumenError.unwritable(file: displayPath, reason: message) }
    }
}
