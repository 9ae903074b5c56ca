import LumenPlatform

/// A file's identity on disk (device and inode): two paths name the same file exactly
/// when their identities are equal, through links, `..` or another spelling.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`, or nil when nothing is there.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// An error when `output` is one of `inputs`: Lumen never writes over an image it reads.
    public static func refuseOverwriting(_ output: String, inputs: [String]) throws {
        let target = URL(fileURLWithPath: output).standardizedFileURL.path
        let identity = FileIdentity(path: output)
        for input in inputs where input != "-" {
            if URL(fileURLWithPath: input).standardizedFileURL.path == target || (identity != nil && identity == FileIdentity(path: input)) {
                throw LumenError.unwritable(file: output, reason: "this is the input \(input): Lumen never writes over an input (choose another output name or folder)")
            }
        }
    }
}

/// Creates `folder` and its parents, with the reason in the user's words when it cannot
/// (a file in the way, no permission, a read-only or full disk).
func makeFolder(_ folder: URL) throws {
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
        throw LumenError.unwritable(file: folder.path, reason: "cannot create this folder: \(describeFileError(error, at: folder.path))")
    }
}

/// A file-system error as a sentence: the POSIX reason (`Permission denied`) rather than
/// Foundation's description (`The operation could not be completed… Code=512 "(null)"`).
public func describeFileError(_ error: Error, at path: String) -> String {
    let code = posixCode(of: error)
    // A file in the way or a folder without permission says more walked along the path
    // ("x is a file, not a folder", "no permission to write in x") than as its errno ("file
    // exists", "not a directory"); so does a Foundation error without its POSIX cause.
    if code == nil || [EEXIST, ENOTDIR, EACCES].contains(code!), let problem = folderProblem(path, creating: true) { return problem }
    if let code { return String(cString: strerror(code)).lowercased() }
    guard let cocoa = error as? CocoaError else { return "the file system refused (\(error))" }
    switch cocoa.code.rawValue {
    case CocoaError.fileWriteOutOfSpace.rawValue: return "the disk is full"
    case CocoaError.fileWriteVolumeReadOnly.rawValue: return "the disk is read-only"
    case CocoaError.fileWriteNoPermission.rawValue, CocoaError.fileReadNoPermission.rawValue: return "permission denied"
    case CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue: return "no such file or folder"
    default: return "the file system refused (\(CocoaError.errorDomain) \(cocoa.code.rawValue))"
    }
}

/// Why files cannot be written in `folder`, walking up to the first part that exists: a
/// file in the way, no permission to create what is missing, or (when `creating` is false)
/// a folder that does not exist. nil when nothing is in the way.
func folderProblem(_ folder: String, creating: Bool) -> String? {
    var prefix = URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL
    var missing = false
    while prefix.path != "/" && !FileManager.default.fileExists(atPath: prefix.path) {
        missing = true
        prefix.deleteLastPathComponent()
    }
    if isFolder(prefix.path) == false {
        return "\(prefix.path) is a file, not a folder"
    }
    if missing {
        if !creating { return "the folder \(folder) does not exist" }
        if access(prefix.path, W_OK) != 0 { return "no permission to write in \(prefix.path)" }
    }
    return nil
}
