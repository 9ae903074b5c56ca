#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `path` is a folder (following links); nil when nothing is there.
public func isFolder(_ path: String) -> Bool? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (info.st_mode & S_IFMT) == S_IFDIR
}

/// The size in bytes of the file at `path` (following links); nil when nothing is there.
public func fileSize(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
}

/// The POSIX error code (errno) behind a file-system error: the error itself, or the
/// one under Foundation's `CocoaError`. nil when there is none.
public func posixCode(of error: Error) -> Int32? {
    if let posix = error as? POSIXError { return posix.code.rawValue }
    if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError { return posix.code.rawValue }
    return nil
}

/// The files under `folder`, as paths relative to it, walking sub-folders (hidden
/// ones included, links not followed), as `FileManager.enumerator(atPath:)` lists them:
/// a folder that cannot be read is skipped. (`subpathsOfDirectory(atPath:)`, the one walk
/// FoundationEssentials has, fails whole at the first such folder.)
public func filesUnder(_ folder: String) -> [String] {
    var found: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
        let full = relative.isEmpty ? folder : folder + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { continue }
        for name in names.sorted() {
            let path = relative.isEmpty ? name : relative + "/" + name
            found.append(path)
            var info = stat()
            if lstat(folder + "/" + path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { pending.append(path) }
        }
    }
    return found
}

/// Standard input, output and error as bytes (Foundation's `FileHandle.standard…`).
public enum StandardStreams {
    /// Writes all of `bytes` to `descriptor` (1 standard output, 2 standard error),
    /// retrying short writes; stops quietly at an error (a closed pipe).
    public static func write(_ bytes: some DataProtocol, to descriptor: Int32) {
        let data = Array(bytes)
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { raw in systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Writes `text` (UTF-8) to standard error.
    public static func writeError(_ text: String) { write(Array(text.utf8), to: 2) }
    /// Writes `data` to standard output, unbuffered (as `FileHandle.standardOutput` did).
    public static func writeOutput(_ data: Data) { write(data, to: 1) }

    /// Everything on standard input, to its end.
    public static func readInput() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return data }
            data.append(contentsOf: buffer[..<n])
        }
    }
}

/// The C library's write(2), named apart from the `write` methods above.
public func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
    #else
    Glibc.write(descriptor, bytes, count)
    #endif
}

/// Ends the process with `status` (C's exit: buffered output is flushed), for code where
/// a method named `exit` is in scope.
public func exitProcess(_ status: Int32) -> Never { exit(status) }
