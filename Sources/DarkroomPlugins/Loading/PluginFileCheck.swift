#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ownership and permission rules a plugin file and its directory must meet before Darkroom
/// loads code from them (as sshd checks `authorized_keys`): owned by the user running Darkroom or
/// by root, and not writable by group or others — otherwise anyone who can write there could run
/// code inside every worker.
enum PluginFileCheck {
    /// Why `path` may not be trusted, or nil. `what` is "file" or "directory".
    static func problem(at path: String, what: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return "cannot examine the \(what): \(String(cString: strerror(errno)))"
        }
        let me = geteuid()
        if info.st_uid != me && info.st_uid != 0 {
            return "the \(what) is owned by uid \(info.st_uid), not by this user (uid \(me)) or root (chown it)"
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return "the \(what) is writable by group or others (mode \(mode); chmod go-w '\(path)')"
        }
        return nil
    }
}
