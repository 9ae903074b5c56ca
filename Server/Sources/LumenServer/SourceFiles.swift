import Foundation

/// Local roots: a source path names a file under one of them, and nothing else. `..`
/// components, absolute paths, NUL bytes and backslashes are refused before the file
/// system is asked; then the resolved path (symbolic links followed) must still be inside
/// the resolved root, so a link pointing out of a root is refused too.
struct SourceFiles: Sendable {
    /// Root name → resolved folder path.
    let roots: [String: String]

    init(_ roots: [String: String]) {
        self.roots = roots.mapValues { Self.resolved($0) ?? $0 }
    }

    /// The file `source` names, or a request error (400 for a path that tries to leave its
    /// root, 404 for a file that is not there).
    func file(for source: String) throws -> URL {
        func refuse(_ status: Int, _ message: String) -> ServiceError { .request(status: status, message: message) }
        let components = source.split(separator: "/", omittingEmptySubsequences: false)
        guard !source.hasPrefix("/"), !source.contains("\0"), !source.contains("\\"),
              components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw refuse(400, "source paths are relative, without '.', '..' or empty parts: '\(source)'")
        }
        let root: String, relative: [Substring]
        if let only = roots[""] {
            root = only
            relative = components
        } else {
            guard components.count >= 2, let named = roots[String(components[0])] else {
                throw refuse(404, "no root named '\(components[0])' (roots: \(roots.keys.sorted().joined(separator: ", ")))")
            }
            root = named
            relative = Array(components.dropFirst())
        }
        let path = ([root] + relative.map(String.init)).joined(separator: "/")
        guard let real = Self.resolved(path) else { throw refuse(404, "no such source: \(source)") }
        guard real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw refuse(403, "the source \(source) leads out of its root")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw refuse(404, "no such source: \(source)")
        }
        return URL(fileURLWithPath: real)
    }

    /// The path with every symbolic link followed, nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// What identifies a file's content for caches: its size, modification time and inode.
    static func validator(of url: URL) -> String {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return "" }
        return "\(status.st_size)-\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)-\(status.st_ino)"
    }
}
