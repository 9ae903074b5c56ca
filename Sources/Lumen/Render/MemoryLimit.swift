import Foundation

/// How much memory this process may still use, read from the limits a user or a container
/// sets: the address-space limit (`ulimit -v`, RLIMIT_AS) less the address space already
/// in use, and the cgroup's `memory.max` less its `memory.current` (systemd-run, Docker,
/// Kubernetes). Decodes that would need more are refused before they allocate
/// (`LumenError.outOfMemory`) instead of aborting the process.
public enum MemoryLimit {
    /// The least headroom of the limits in force, in bytes; nil when none is set.
    public static func headroom() -> Int? {
        [addressSpaceHeadroom(), cgroupHeadroom()].compactMap { $0 }.min()
    }

    /// A third of RLIMIT_AS minus the current address space (/proc/self/statm's first field):
    /// address space is also taken by what a render starts after the check (thread stacks,
    /// malloc's per-thread arenas of 64 MiB; measured: a 434 MB decode that passed with half
    /// the room under `ulimit -v 1200000` still failed to allocate), so a third is promised.
    static func addressSpaceHeadroom() -> Int? {
        var limit = rlimit()
        // RLIM_INFINITY is all ones: any value past Int.max means no limit.
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur < UInt64(Int.max) else { return nil }
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").first.flatMap({ Int($0) }) else { return Int(limit.rlim_cur) }
        let used = pages.multipliedReportingOverflow(by: Int(sysconf(Int32(_SC_PAGESIZE))))
        return used.overflow ? 0 : max(0, Int(limit.rlim_cur) - used.partialValue) / 3
    }

    /// cgroup v2: memory.max minus memory.current of this process's group.
    static func cgroupHeadroom() -> Int? {
        guard let groups = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
              let line = groups.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let folder = "/sys/fs/cgroup" + line.dropFirst(3)
        func read(_ name: String) -> Int? {
            (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8))
                .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }  // "max" is no number: no limit
        }
        guard let max = read("memory.max") else { return nil }
        return Swift.max(0, max - (read("memory.current") ?? 0))
    }

    /// Bytes for people: "3.2 GB", "640 MB".
    public static func text(_ bytes: Int) -> String {
        let b = Double(bytes)
        if b >= 1e9 { return String(format: "%.1f GB", b / 1e9) }
        if b >= 1e6 { return String(format: "%.0f MB", b / 1e6) }
        return String(format: "%.0f KB", b / 1e3)
    }
}
