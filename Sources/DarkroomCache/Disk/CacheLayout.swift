import DarkroomSystem
import Glibc

/// Where everything lives inside a cache directory:
///
/// ```
/// DIR/VERSION                      "darkroom-cache-layout 1"
/// DIR/originals/ab/cd/<sha256>     source bytes, exactly as fetched
/// DIR/results/ab/cd/<sha256>       encoded results, exactly as `darkroom get` will hand them out
/// DIR/<area>/ab/cd/.tmp-…          writes in progress (or left by a crash; swept after a grace period)
/// DIR/<area>/.last-sweep           its mtime: when some process last began sweeping the area
/// DIR/stats/<host>.<yyyymmdd>      approximate hit and miss counts, one file per host and day
/// ```
struct CacheLayout: Sendable {
    static let version = 1
    static let versionLine = "darkroom-cache-layout \(version)\n"
    static let temporaryPrefix = ".tmp-"

    let root: String

    init(root: String) {
        // One trailing slash less, so paths print cleanly; "/" stays "/".
        var root = root
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.root = root
    }

    func areaPath(_ area: CacheArea) -> String { "\(root)/\(area.rawValue)" }
    func entryPath(_ name: EntryName, in area: CacheArea) -> String { "\(root)/\(area.rawValue)/\(name.relativePath)" }
    func leafDirectory(_ name: EntryName, in area: CacheArea) -> String {
        "\(root)/\(area.rawValue)/\(EntryName.directoryName(name.firstByte))/\(EntryName.directoryName(name.secondByte))"
    }
    func sweepMarker(_ area: CacheArea) -> String { "\(root)/\(area.rawValue)/.last-sweep" }
    /// Sets the area's sweep marker to now (creating it when missing), telling other processes'
    /// automatic sweeps that this area was just swept.
    func stampSweepMarker(_ area: CacheArea) {
        let marker = sweepMarker(area)
        if POSIX.touch(marker) { return }
        let fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o666)
        if fd >= 0 { close(fd) }
    }

    var statisticsDirectory: String { "\(root)/stats" }
    var versionFile: String { "\(root)/VERSION" }

    /// Creates the directory, its areas and the VERSION file, or checks an existing VERSION.
    /// Safe when many processes do it at once: every step tolerates the others having done it.
    func prepare() throws(CacheError) {
        if let failure = POSIX.makeDirectories(root) { throw .system("create the cache directory", path: root, errno: failure) }
        switch POSIX.status(root) {
        case .success(let info) where POSIX.isDirectory(info): break
        case .success: throw .layout(path: root, reason: "not a directory; --cache must name a directory")
        case .failure(let failure): throw .system("open the cache directory", path: root, errno: failure.code)
        }
        try checkOrWriteVersion()
        for path in CacheArea.allCases.map(areaPath) + [statisticsDirectory] {
            if let failure = POSIX.makeDirectory(path) { throw .system("create", path: path, errno: failure) }
        }
    }

    private func checkOrWriteVersion() throws(CacheError) {
        switch Self.readSmallFile(versionFile) {
        case .success(let text):
            guard text == Self.versionLine else {
                let found = text.split(separator: "\n").first.map(String.init) ?? "an empty VERSION file"
                throw .layout(
                    path: root, reason: "holds \(found.debugDescription), not a darkroom cache of layout \(Self.version); use another --cache directory")
            }
        case .failure(let failure) where failure.code == ENOENT:
            // Write to a private name, then link it into place: link fails with EEXIST when a
            // racing process got there first, and then its file (same text) is checked instead.
            do throws(AtomicFileError) {
                let file = try AtomicFileWriter(directory: root, options: .init(temporaryPrefix: ".VERSION.")).begin()
                try file.write(Array(Self.versionLine.utf8))
                if let failure = try file.link(as: "VERSION"), failure.code != EEXIST {
                    throw AtomicFileError(.link, failure)
                }
            } catch {
                throw .system("write", path: versionFile, errno: error.systemError.code)
            }
            if case .success(let text) = Self.readSmallFile(versionFile), text == Self.versionLine { return }
            throw .layout(path: root, reason: "another program wrote a different VERSION file; use another --cache directory")
        case .failure(let failure):
            throw .system("read", path: versionFile, errno: failure.code)
        }
    }

    /// Reads a file of at most a few kilobytes as UTF-8 text.
    static func readSmallFile(_ path: String) -> Result<String, Errno> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                SystemCall.retryingInterrupts { read(fd, buffer.baseAddress! + count, buffer.count - count) }
            }
            if n < 0 { return .failure(.current) }
            if n == 0 { break }
            count += n
        }
        return .success(String(decoding: bytes[0..<count], as: UTF8.self))
    }
}
