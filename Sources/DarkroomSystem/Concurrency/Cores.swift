import Glibc

/// The number of cores this process may use: the default size of every CPU pool and of every
/// `--concurrency`.
///
/// The smallest of: the online cores, the cores this process may run on (its affinity mask, as
/// `taskset` or a cpuset sets it), and its cgroup's CPU limit rounded up (`cpu.max` in cgroup v2,
/// `cpu.cfs_quota_us` / `cpu.cfs_period_us` in v1). A container limited to 2 CPUs on a 64-core
/// node therefore gets 2, not 64: more threads than the quota only queue behind it and thrash.
public enum Cores {
    public static var count: Int { detected }

    private static let detected: Int = {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var limit = online
        if let affinity = affinityCount() { limit = min(limit, affinity) }
        if let quota = CgroupCPULimit.current() { limit = min(limit, quota) }
        return max(1, limit)
    }()

    /// The cores in this process's affinity mask (`Cpus_allowed_list` in /proc/self/status; Glibc's
    /// `sched_getaffinity` is not visible to Swift without `_GNU_SOURCE`), or nil when unknown.
    private static func affinityCount() -> Int? {
        guard let status = CgroupCPULimit.contents(of: "/proc/self/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
            return cpuListCount(String(line.dropFirst("Cpus_allowed_list:".count)))
        }
        return nil
    }

    /// The number of CPUs in a kernel CPU list such as `0-3,8,10-11`; nil when it is not one.
    public static func cpuListCount(_ list: String) -> Int? {
        var total = 0
        for part in list.split(separator: ",") {
            let bounds = part.split(separator: "-").map { Int($0.filter { !$0.isWhitespace }) }
            switch bounds.count {
            case 1:
                guard bounds[0] != nil else { return nil }
                total += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], high >= low else { return nil }
                total += high - low + 1
            default:
                return nil
            }
        }
        return total > 0 ? total : nil
    }
}

/// A cgroup's CPU limit in whole cores (rounded up), read from the files the kernel exposes.
public enum CgroupCPULimit {
    /// The limit of this process's cgroup and its ancestors, the tightest one; nil when there is
    /// none or nothing can be read (not on Linux, no cgroup file system mounted).
    public static func current() -> Int? {
        if let membership = contents(of: "/proc/self/cgroup") {
            // cgroup v2: "0::/path"; the limit is the tightest of the cgroup and its ancestors.
            for line in membership.split(separator: "\n") where line.hasPrefix("0::") {
                var path = String(line.dropFirst(3))
                var tightest: Int?
                while true {
                    let directory = path == "/" || path.isEmpty ? "/sys/fs/cgroup" : "/sys/fs/cgroup" + path
                    if let text = contents(of: directory + "/cpu.max"), let cores = cores(cpuMax: text) {
                        tightest = min(tightest ?? cores, cores)
                    }
                    guard let slash = path.lastIndex(of: "/"), path != "/" else { break }
                    path = slash == path.startIndex ? "/" : String(path[..<slash])
                }
                if let tightest { return tightest }
            }
        }
        // cgroup v1, where the cpu controller is mounted under one of these names.
        for directory in ["/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"] {
            if let quota = contents(of: directory + "/cpu.cfs_quota_us"), let period = contents(of: directory + "/cpu.cfs_period_us"),
                let cores = cores(quota: quota, period: period)
            {
                return cores
            }
        }
        return nil
    }

    /// Cores from cgroup v2's `cpu.max` ("max 100000" is no limit; "150000 100000" is 1.5 CPUs,
    /// so 2 cores).
    public static func cores(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 1, fields[0] != "max" else { return nil }
        return cores(quota: String(fields[0]), period: fields.count >= 2 ? String(fields[1]) : "100000")
    }

    /// Cores from a quota and a period in microseconds (cgroup v1 writes -1 for no quota).
    public static func cores(quota: String, period: String) -> Int? {
        guard let quota = Int(quota.trimmingWhitespace), let period = Int(period.trimmingWhitespace), quota > 0, period > 0
        else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// A small file's text, or nil.
    static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let bytes = utf8
        let start = bytes.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t") } ?? bytes.endIndex
        let end = bytes.lastIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t") }.map { bytes.index(after: $0) } ?? start
        return self[start..<end]
    }
}
