import LumenPlatform

/// Which files a chain may read through `load(…)`, `chain(…)` and `asset(…)`: everything
/// the process can read (the default, for your own chains), nothing, or only what lies
/// under some folders — the way to run chains someone else wrote (a web form, a job
/// queue). Paths are compared after `..` and symbolic links are resolved, so neither
/// escapes a folder.
public enum FileAccess: Sendable, Equatable {
    /// Any file the process can read (the default, for your own chains).
    case unrestricted
    /// No file at all: `load`, `chain` and `asset` are errors.
    case none
    /// Only files under these folders.
    case roots([URL])

    /// Nil when `url` may be read, else why not.
    func refusal(_ url: URL) -> String? {
        switch self {
        case .unrestricted:
            return nil
        case .none:
            return "chains may not read files here (file access is off)"
        case let .roots(roots):
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            let allowed = roots.contains { root in
                let base = root.standardizedFileURL.resolvingSymlinksInPath().path
                return path == base || path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
            }
            return allowed ? nil : "\(path) is outside the folders chains may read (\(roots.map(\.path).joined(separator: ", ")))"
        }
    }
}
