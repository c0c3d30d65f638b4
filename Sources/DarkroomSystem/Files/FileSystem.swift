import Glibc

/// Small file system operations several targets need.
public enum FileSystem {
    /// Creates `path` and any missing parents with `mode` (less the umask); an existing directory
    /// counts as success. Returns the errno of the first `mkdir` that failed otherwise.
    public static func makeDirectories(_ path: String, mode: mode_t) -> Errno? {
        do throws(Errno) {
            try GlibcFileSystemCalls().makeDirectories(path, mode: mode)
            return nil
        } catch {
            return error
        }
    }
}
