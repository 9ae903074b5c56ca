import LumenPlatform

/// The pixel layout an encoder receives: rows top first, interleaved 8- or 16-bit
/// channels (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA), unpremultiplied sRGB.
public struct EncodeLayout: Equatable, Sendable {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Interleaved channels: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    public var channels: Int
    /// Bits per channel: 8 or 16 (host order), or 32 for linear-light Float32 (`CodecCapabilities.linearFloat`).
    public var depth: Int
    /// What the file carries beside its pixels (nothing unless the writer was asked to keep it).
    public var metadata = ImageMetadata()
    /// How 16-bit codes stand for light (PQ or HLG for HDR PNG; sRGB otherwise).
    public var transfer = OutputFormat.Transfer.sRGB
    /// Bytes per row.
    public var bytesPerRow: Int { width * channels * depth / 8 }

    /// A layout of `width` × `height` pixels of `channels` channels of `depth` bits, with `metadata` to write.
    public init(width: Int, height: Int, channels: Int, depth: Int, metadata: ImageMetadata = ImageMetadata()) {
        self.width = width
        self.height = height
        self.channels = channels
        self.depth = depth
        self.metadata = metadata
    }
}

/// Where an encoder's bytes go.
public enum EncodeSink: Sendable {
    /// A file at `path` (a temporary name; `ImageWriter` renames it); `name` is the
    /// path users asked for, for messages.
    case file(path: String, name: String)
    /// Memory, returned by `finish()`.
    case memory(name: String)

    /// The name for messages: the path the user asked for.
    public var name: String {
        switch self {
        case let .file(_, name), let .memory(name): return name
        }
    }

    /// Writes a whole encoded file (for codecs whose library hands back bytes); returns
    /// the bytes for memory sinks.
    public func write(_ bytes: Data) throws -> Data? {
        switch self {
        case let .file(path, name):
            // POSIX calls, so a full disk is reported as such (errno), not as a generic failure.
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw LumenError.unwritable(file: name, reason: String(cString: strerror(errno))) }
            var failure: Int32 = 0
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                    offset += n
                }
            }
            if close(fd) != 0 && failure == 0 { failure = errno }
            if failure != 0 { throw LumenError.unwritable(file: name, reason: String(cString: strerror(failure))) }
            return nil
        case .memory:
            return bytes
        }
    }
}

/// Rows gathered into one picture, for codecs whose library encodes whole pictures
/// (WebP, HEIF): the one copy of the output those formats need.
final class PictureBuffer {
    let layout: EncodeLayout
    let pixels: UnsafeMutableRawPointer
    private let memory: PixelMemory
    private(set) var rowsWritten = 0

    init(_ layout: EncodeLayout) {
        self.layout = layout
        memory = PixelMemory(byteCount: layout.bytesPerRow * layout.height, alignment: 16)
        pixels = memory.base
    }

    deinit { memory.release() }

    func write(_ band: RowBand) {
        let rows = max(0, min(band.rowCount, layout.height - band.firstRow))
        (pixels + band.firstRow * layout.bytesPerRow).copyMemory(from: band.base, byteCount: rows * layout.bytesPerRow)
        rowsWritten = max(rowsWritten, band.firstRow + rows)
    }
}

/// One frame of an animation being written: its rows gathered whole, then handed to
/// `add` (the animation encoder's) when the renderer finishes the frame.
final class BufferedFrame: ImageEncoder {
    let picture: PictureBuffer
    private let add: (PictureBuffer) throws -> Void

    init(_ layout: EncodeLayout, add: @escaping (PictureBuffer) throws -> Void) {
        picture = PictureBuffer(layout)
        self.add = add
    }

    func write(_ band: RowBand) throws { picture.write(band) }

    func finish() throws -> Data? {
        try add(picture)
        return nil
    }
}

/// One codec's writer: a band sink the renderer pushes rows into, top first, a band at
/// a time, so memory stays flat.
public protocol ImageEncoder: AnyObject {
    /// Takes the next rows (bands arrive in order, each once).
    func write(_ band: RowBand) throws
    /// Completes the output; returns its bytes when the sink is memory.
    func finish() throws -> Data?
}

/// A codec's writer of animations: each frame is a band sink of its own, which the
/// renderer fills as it fills any encoder; finishing the frame's sink adds the frame.
public protocol AnimationEncoder: AnyObject {
    /// The sink for the next frame, `layout`'s size, shown for `milliseconds`.
    func frame(layout: EncodeLayout, milliseconds: Int) throws -> any ImageEncoder
    /// Completes the animation with `metadata`; returns its bytes when the sink is memory.
    func finish(metadata: ImageMetadata) throws -> Data?
}

/// A C stdio stream over a sink, for the codecs whose libraries write to a `FILE`:
/// `fopen` for files, `open_memstream` for memory.
final class StdioSink {
    let file: UnsafeMutablePointer<FILE>
    private let buffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    private let size: UnsafeMutablePointer<Int>?

    init(_ sink: EncodeSink) throws {
        switch sink {
        case let .file(path, name):
            guard let file = fopen(path, "wb") else {
                throw LumenError.unwritable(file: name, reason: String(cString: strerror(errno)))
            }
            self.file = file
            buffer = nil
            size = nil
        case let .memory(name):
            let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
            let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            buffer.initialize(to: nil)
            size.initialize(to: 0)
            guard let file = open_memstream(buffer, size) else {
                buffer.deallocate()
                size.deallocate()
                throw LumenError.unwritable(file: name, reason: String(cString: strerror(errno)))
            }
            self.file = file
            self.buffer = buffer
            self.size = size
        }
    }

    /// The bytes written to a memory sink, once the stream has been closed (the codec
    /// closes it when it finishes); nil for files.
    func takeBytes() -> Data? {
        guard let buffer, let size, let bytes = buffer.pointee else { return nil }
        let data = Data(bytes: bytes, count: size.pointee)
        free(bytes)
        buffer.pointee = nil
        return data
    }

    deinit {
        if let buffer {
            free(buffer.pointee)
            buffer.deallocate()
        }
        size?.deallocate()
    }
}

/// Writes images: to files atomically (the codec writes a temporary file beside the
/// target, renamed over it only once complete, so a failure leaves the target
/// untouched), or to memory.
enum ImageWriter {
    /// The encoder of `format` writing `layout` into `sink`.
    static func encoder(format: OutputFormat, layout: EncodeLayout, sink: EncodeSink) throws -> any ImageEncoder {
        guard let codec = Codecs.codec(for: format.fileFormat) else {
            throw LumenError.unwritable(file: sink.name, reason: "no encoder for \(format.fileFormat)")
        }
        return try codec.encoder(sink: sink, format: format, layout: layout)
    }

    /// Runs `body` with a sink on a temporary file beside `url`, renamed over `url` only
    /// when `body` returns; on failure (or a signal) the temporary file is removed.
    static func atomically(to url: URL, _ body: (EncodeSink) throws -> Void) throws {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        if let problem = folderProblem(directory, creating: false) { throw LumenError.unwritable(file: path, reason: problem) }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8).lowercased()).tmp").path
        let stopping = inFlight.withLock { state -> Bool in
            if !state.stopping { state.paths.insert(temporary) }
            return state.stopping
        }
        if stopping { throw LumenError.unwritable(file: path, reason: "the process is stopping") }
        defer { inFlight.withLock { _ = $0.paths.remove(temporary) } }
        do {
            try body(.file(path: temporary, name: path))
            guard rename(temporary, path) == 0 else {
                throw LumenError.unwritable(file: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Temporary files being written right now, in this process, and whether the process
    /// is stopping (then no new write starts).
    private static let inFlight = LockedValue((paths: Set<String>(), stopping: false))

    /// Stops new writes and removes the temporary files of writes in progress (a process
    /// about to exit on a signal calls this); returns how many. The files are removed
    /// again after `grace`, in case a writer created its file in between.
    static func removeTemporariesInFlight(grace: TimeInterval = 0.05) -> Int {
        let paths = inFlight.withLock { state -> Set<String> in
            state.stopping = true
            return state.paths
        }
        let count = paths.filter { unlink($0) == 0 }.count
        sleepThread(seconds: grace)
        return count + paths.filter { unlink($0) == 0 }.count
    }

    /// The output a temporary file `write` makes (`.NAME.xxxxxxxx.tmp`) belongs to, or nil
    /// for any other name. Such files are left behind only when a process is killed mid-write.
    static func outputName(ofTemporary name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), parts.count >= 4 else { return nil }
        let tag = parts[parts.count - 2]
        guard tag.count == 8, tag.allSatisfy(\.isHexDigit) else { return nil }
        return parts[1..<(parts.count - 2)].joined(separator: ".")
    }
}
