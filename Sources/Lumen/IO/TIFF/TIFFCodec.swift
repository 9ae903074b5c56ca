import CTIFF
import LumenPlatform

extension ImageFileFormat {
    /// TIFF (libtiff): strips or tiles, 8 or 16 bits or 32-bit floats, read and written.
    public static let tiff = ImageFileFormat(rawValue: "tiff")
}

/// TIFF through libtiff: the first page, strips or tiles, any compression libtiff has
/// in; 8- or 16-bit gray or RGB(A) out, or 32-bit linear-light floats (libvips's scRGB:
/// values above 1 kept, alpha premultiplied, no ICC profile), Deflate, LZW or none.
struct TIFFCodec: ImageCodec {
    var format: ImageFileFormat { .tiff }
    var extensions: [String] { ["tif", "tiff"] }
    let capabilities = CodecCapabilities(depths: [8, 16, 32], pyramids: true, metadata: [.xmp, .iptc, .icc, .resolution],
                                         options: [.compression])

    func recognizes(_ prefix: Data) -> Bool {
        prefix.starts(with: [0x49, 0x49, 0x2A, 0x00]) || prefix.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || prefix.starts(with: [0x49, 0x49, 0x2B, 0x00]) || prefix.starts(with: [0x4D, 0x4D, 0x00, 0x2B])  // BigTIFF
    }

    // libtiff is opened on first use (`CTIFF`): a machine without it is told so, not that
    // the file is not a readable TIFF.
    func decoder(data: Data, name: String, frame: Int) throws -> any ImageDecoder {
        try openOnFirstUse(for: name, CTIFF_available)
        return try TIFFDecoder(data: data, path: name)
    }

    func encoder(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws -> any ImageEncoder {
        try openOnFirstUse(for: sink.name, CTIFF_available)
        return try TIFFEncoder(sink: sink, format: format, layout: layout)
    }
}

/// A TIFF opened from bytes in memory: the file and its memory, closed together.
final class TIFFMemoryFile {
    let file: OpaquePointer
    private let memory: OpaquePointer

    /// Opens `bytes` for reading; they must stay valid while this lives.
    init(reading bytes: UnsafeRawBufferPointer, name: String) throws {
        var memory: OpaquePointer?
        guard let file = CTIFF_open_memory(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &memory), let memory else {
            let message = String(cString: CTIFF_last_error())
            throw LumenError.corrupt(file: name, reason: message.isEmpty ? "not a readable TIFF" : message)
        }
        self.file = file
        self.memory = memory
    }

    deinit {
        CTIFF_close(file)
        CTIFF_memory_free(memory)
    }
}

final class TIFFEncoder: ImageEncoder {
    private var file: OpaquePointer?
    private var memory: OpaquePointer?
    private let name: String
    private var nextRow: UInt32 = 0

    init(sink: EncodeSink, format: OutputFormat, layout: EncodeLayout) throws {
        name = sink.name
        switch sink {
        case let .file(path, _):
            file = CTIFF_open(path, "w")
        case .memory:
            file = CTIFF_open_memory_writer(&memory)
        }
        guard let file else { throw LumenError.unwritable(file: name, reason: String(cString: CTIFF_last_error())) }
        let metadata = layout.metadata
        Data.withOptionalBytes(metadata.iccProfile) { icc in
            _ = CTIFF_begin_write(file, UInt32(layout.width), UInt32(layout.height), Int32(layout.channels),
                                  Int32(layout.depth), format.tiffCompression.rawValue, icc.baseAddress, icc.count)
        }
        // EXIF stays out of TIFF outputs (as in libvips): it would need its own sub-IFD.
        let status = Data.withOptionalBytes(metadata.xmp) { xmp in
            Data.withOptionalBytes(metadata.iptc) { iptc in
                CTIFF_set_metadata(file, xmp.baseAddress, xmp.count, iptc.baseAddress, iptc.count,
                                   Float(metadata.resolution?.x ?? 0), Float(metadata.resolution?.y ?? 0))
            }
        }
        guard status == 0 else { throw LumenError.unwritable(file: name, reason: String(cString: CTIFF_last_error())) }
    }

    deinit {
        if let file { CTIFF_close(file) }
        CTIFF_memory_free(memory)
    }

    func write(_ band: RowBand) throws {
        for i in 0..<band.rowCount {
            guard CTIFF_write_row(file, (band.base + i * band.bytesPerRow).assumingMemoryBound(to: UInt8.self), nextRow) == 0 else {
                throw LumenError.unwritable(file: name, reason: String(cString: CTIFF_last_error()))
            }
            nextRow += 1
        }
    }

    func finish() throws -> Data? {
        guard let file else { throw LumenError.unwritable(file: name, reason: "already finished") }
        self.file = nil
        guard CTIFF_finish_write(file) == 0 else {
            let message = String(cString: CTIFF_last_error())
            throw LumenError.unwritable(file: name, reason: message.isEmpty ? "libtiff could not flush the file" : message)
        }
        guard let memory else { return nil }
        var length = 0
        guard let bytes = CTIFF_memory_bytes(memory, &length) else { return Data() }
        return Data(bytes: bytes, count: length)
    }
}
