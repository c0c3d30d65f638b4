#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small file system operations several targets need.
public enum FileSystem {
    /// Creates `path` and any missing parents with `mode` (less the umask); an existing directory
    /// counts as success. Returns the errno of the first `mkdir` that failed otherwise.
    public static func makeDirectories(_ path: String, mode: mode_t) -> Errno? {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, mode) != 0 && errno != EEXIST { return .current }
        }
        return nil
    }
}
