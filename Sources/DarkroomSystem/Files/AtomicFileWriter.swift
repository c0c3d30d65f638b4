import Glibc

/// Writes files so that a reader sees the old file or the new one, never part of one: the bytes
/// go to a temporary file in the destination's own directory (same file system, so the last step
/// is atomic), which then gets its name by `rename` (replacing) or `link` (only if the name is
/// free). A crash leaves at most a temporary file, named by `Options.temporaryPrefix`, behind.
///
/// Every Darkroom writer goes through here (pipeline outputs, cache entries, worker outputs,
/// `darkroom get` copies); what differs between them are the `Options` and the error each turns
/// an `AtomicFileError` into. Every call goes through `fileSystem` (the C library's by default),
/// so a test can make any step fail; whatever fails, the name keeps its old file or none.
public struct AtomicFileWriter: Sendable {
    /// How one kind of file is written.
    public struct Options: Sendable {
        /// The start of temporary file names (a sweep may look for it); a process id and a random
        /// number follow, then `temporarySuffix`.
        public var temporaryPrefix: String
        public var temporarySuffix: String
        /// The new file's permission bits, less the umask unless `ignoresUmask`.
        public var mode: mode_t
        /// Set `mode` exactly (for outputs other users must read whatever the umask).
        public var ignoresUmask: Bool
        /// `fsync` the data before the file gets its name, so a host crash cannot leave an empty
        /// or partial file under it. Costly on network volumes; only where a crash must not lose it.
        public var syncsData: Bool
        /// `fsync` the directory after the name is made, so the name itself survives a crash.
        public var syncsDirectory: Bool
        /// Create the directory (and its parents, mode 0777 less the umask) when it is missing,
        /// rather than failing: a cache's fan-out directories come and go.
        public var createsMissingDirectory: Bool

        public init(
            temporaryPrefix: String = ".darkroom-tmp-", temporarySuffix: String = "", mode: mode_t = 0o666,
            ignoresUmask: Bool = false, syncsData: Bool = false, syncsDirectory: Bool = false,
            createsMissingDirectory: Bool = false
        ) {
            self.temporaryPrefix = temporaryPrefix
            self.temporarySuffix = temporarySuffix
            self.mode = mode
            self.ignoresUmask = ignoresUmask
            self.syncsData = syncsData
            self.syncsDirectory = syncsDirectory
            self.createsMissingDirectory = createsMissingDirectory
        }
    }

    /// The directory, as a path for messages (and for the calls when there is no descriptor).
    public let directory: String
    /// A descriptor of the opened directory, or `AT_FDCWD` to go by `directory`'s path.
    let directoryDescriptor: Int32
    public var options: Options
    /// The calls the writer makes.
    public let fileSystem: any FileSystemCalls

    /// A writer into the directory at `directory` (resolved anew by each call).
    public init(directory: String, options: Options = Options(), fileSystem: any FileSystemCalls = GlibcFileSystemCalls()) {
        self.directory = directory.isEmpty ? "/" : directory
        directoryDescriptor = AT_FDCWD
        self.options = options
        self.fileSystem = fileSystem
    }

    /// A writer through an already opened directory: every call is relative to `descriptor`
    /// (`openat`, `linkat`, `renameat`), so no symbolic link swapped into the path meanwhile can
    /// redirect the write. The caller keeps `descriptor` open while it uses the writer.
    public init(
        directoryDescriptor descriptor: Int32, displayPath: String, options: Options = Options(),
        fileSystem: any FileSystemCalls = GlibcFileSystemCalls()
    ) {
        directory = displayPath
        directoryDescriptor = descriptor
        self.options = options
        self.fileSystem = fileSystem
    }

    /// A writer for `path`'s directory, and the file name within it.
    public static func forFile(
        _ path: String, options: Options = Options(), fileSystem: any FileSystemCalls = GlibcFileSystemCalls()
    ) -> (writer: AtomicFileWriter, name: String) {
        guard let slash = path.lastIndex(of: "/") else {
            return (AtomicFileWriter(directory: ".", options: options, fileSystem: fileSystem), path)
        }
        let directory = String(path[..<slash])
        return (
            AtomicFileWriter(directory: directory, options: options, fileSystem: fileSystem),
            String(path[path.index(after: slash)...])
        )
    }

    /// Writes `bytes` and renames the result over `name` (replacing any file there).
    public func write(_ bytes: [UInt8], replacing name: String) throws(AtomicFileError) {
        let file = try begin()
        try file.write(bytes)
        try file.replace(name)
    }

    /// Creates a new, empty temporary file to fill with `PendingFile.write` and then name.
    public func begin() throws(AtomicFileError) -> PendingFile {
        var name = ""
        var descriptor: Int32 = -1
        var createdDirectory = false
        var attempts = 0
        while descriptor < 0 {
            attempts += 1
            name =
                options.temporaryPrefix + String(getpid(), radix: 16) + "-"
                + String(UInt64.random(in: .min ... .max), radix: 16) + options.temporarySuffix
            do throws(Errno) {
                descriptor = try fileSystem.open(
                    path(of: name), in: directoryDescriptor, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
                    mode: options.mode)
                break
            } catch {
                if error.code == EEXIST, attempts < 8 { continue }  // a random name taken: another try
                guard error.code == ENOENT, options.createsMissingDirectory, !createdDirectory, directoryDescriptor == AT_FDCWD else {
                    throw AtomicFileError(.createTemporary, error)
                }
            }
            do throws(Errno) {
                try fileSystem.makeDirectories(directory, mode: 0o777)
            } catch {
                throw AtomicFileError(.createDirectory, error)
            }
            createdDirectory = true
        }
        let file = PendingFile(writer: self, descriptor: descriptor, temporaryName: name)
        if options.ignoresUmask, fchmod(descriptor, options.mode) != 0 {
            throw AtomicFileError(.createTemporary, .current)
        }
        return file
    }

    /// `name` as the system calls take it: relative to the descriptor, or joined to the path.
    func path(of name: String) -> String {
        directoryDescriptor == AT_FDCWD ? directory + "/" + name : name
    }

    /// Flushes the directory itself, so a new name in it survives a crash. Best effort: a file
    /// system that cannot sync a directory has no better way to offer.
    public func syncDirectory() {
        if directoryDescriptor != AT_FDCWD {
            try? fileSystem.sync(directoryDescriptor)
            return
        }
        guard let descriptor = try? fileSystem.open(directory, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return }
        try? fileSystem.sync(descriptor)
        try? fileSystem.close(descriptor)
    }
}
