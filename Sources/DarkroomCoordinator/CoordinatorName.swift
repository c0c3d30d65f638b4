import Glibc

/// Names a coordinator holds the lease under.
public enum CoordinatorName {
    /// `host:pid`, like a worker's default name: unique on a fleet, and says where to look.
    public static func `default`() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self) : "localhost"
        return "\(host):\(getpid())"
    }
}
