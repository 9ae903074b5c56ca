import LumenPlatform

/// How much memory this process may still use, read from the limits a user or a container
/// sets: the address-space limit (`ulimit -v`, RLIMIT_AS) less the address space already
/// in use, and the memory cgroup's limit less its use (v2 or v1: systemd-run, Docker,
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

    /// The memory cgroup's limit less its use: cgroup v2's memory.max − memory.current, or
    /// v1's memory.limit_in_bytes − (usage_in_bytes − inactive file cache, which the kernel
    /// reclaims before it kills), whichever the process is in (Docker on older hosts and
    /// many CI machines still run v1).
    static func cgroupHeadroom() -> Int? {
        guard let groups = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        func number(_ path: String) -> Int? {
            (try? String(contentsOfFile: path, encoding: .utf8))
                .flatMap { Int($0.trimmingWhitespace()) }  // "max" is no number: no limit
        }
        var headrooms: [Int] = []
        for line in groups.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0" && fields[1].isEmpty {
                let folder = "/sys/fs/cgroup" + fields[2]
                if let max = number(folder + "/memory.max") { headrooms.append(Swift.max(0, max - (number(folder + "/memory.current") ?? 0))) }
            } else if fields[1].split(separator: ",").contains("memory") {
                let folder = "/sys/fs/cgroup/memory" + fields[2]
                // v1 writes "no limit" as the largest page-aligned Int64 (9223372036854771712).
                guard let limit = number(folder + "/memory.limit_in_bytes"), limit < 1 << 62 else { continue }
                let stat = (try? String(contentsOfFile: folder + "/memory.stat", encoding: .utf8)) ?? ""
                let inactive = stat.split(separator: "\n").first { $0.hasPrefix("total_inactive_file ") }
                    .flatMap { Int($0.split(separator: " ")[1]) } ?? 0
                let used = Swift.max(0, (number(folder + "/memory.usage_in_bytes") ?? 0) - inactive)
                headrooms.append(Swift.max(0, limit - used))
            }
        }
        return headrooms.min()
    }

    /// Bytes for people: "3.2 GB", "640 MB".
    public static func text(_ bytes: Int) -> String {
        let b = Double(bytes)
        if b >= 1e9 { return String(printf: "%.1f GB", b / 1e9) }
        if b >= 1e6 { return String(printf: "%.0f MB", b / 1e6) }
        return String(printf: "%.0f KB", b / 1e3)
    }
}
