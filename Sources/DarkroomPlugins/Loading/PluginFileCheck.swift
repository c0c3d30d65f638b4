import Glibc

/// The ownership and permission rules a plugin file and the directories above it must meet before
/// Darkroom loads code from them, as sshd's StrictModes checks `authorized_keys`: each is owned by
/// the user running Darkroom or by root, and none is writable by group or others — otherwise
/// anyone who can write there could run code inside every worker. A directory writable by all but
/// owned by root with the sticky bit (`/tmp`) passes: nobody else can replace what is in it.
///
/// The file is checked on an open descriptor and loaded through that same descriptor, so it
/// cannot be swapped between the check and `dlopen`.
enum PluginFileCheck {
    /// `path` opened for loading, or why it may not be trusted. The caller closes the descriptor.
    static func open(_ path: String) -> Result<Int32, Problem> {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Problem("cannot open the file: \(String(cString: strerror(errno)))")) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return .failure(Problem("cannot examine the file: \(String(cString: strerror(errno)))"))
        }
        if let problem = problem(info, path: path, what: "file") ?? ancestorsProblem(of: path) {
            close(fd)
            return .failure(Problem(problem))
        }
        return .success(fd)
    }

    /// Why the directory at `path` may not be trusted, or nil.
    static func directoryProblem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return "cannot examine the directory: \(String(cString: strerror(errno)))"
        }
        return problem(info, path: path, what: "directory")
    }

    struct Problem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Why a file or directory with `info` may not be trusted, or nil.
    private static func problem(_ info: stat, path: String, what: String) -> String? {
        let me = geteuid()
        if info.st_uid != me && info.st_uid != 0 {
            return "the \(what) is owned by uid \(info.st_uid), not by this user (uid \(me)) or root (chown it)"
        }
        let stickyRootDirectory = info.st_uid == 0 && info.st_mode & S_ISVTX != 0 && info.st_mode & S_IFMT == S_IFDIR
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 && !stickyRootDirectory {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return "the \(what) is writable by group or others (mode \(mode); chmod go-w '\(path)')"
        }
        return nil
    }

    /// Why a directory above `path`'s real location (symbolic links resolved) may not be
    /// trusted, or nil.
    private static func ancestorsProblem(of path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        let real = String(cString: resolved)
        free(resolved)
        var directory = real
        while let slash = directory.lastIndex(of: "/") {
            directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
            var info = stat()
            guard stat(directory, &info) == 0 else { return "cannot examine the directory '\(directory)' above it" }
            if let problem = problem(info, path: directory, what: "directory '\(directory)' above it") { return problem }
            if directory == "/" { break }
        }
        return nil
    }
}
