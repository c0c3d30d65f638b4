import DarkroomSystem
import Glibc

/// One entry found by a scan: 56 bytes, so a scan of a million entries fits in ~60 MB.
struct ScannedEntry {
    var modified: Int64
    var size: Int64
    var name: EntryName
    var area: CacheArea
}

/// A temporary file found by a scan: a write in progress, or the remains of a dead writer.
struct ScannedTemporary {
    var path: String
    var modified: Int64
    var size: Int64
}

/// Everything a scan of one area found.
struct AreaScan {
    var area: CacheArea
    var entries: [ScannedEntry] = []
    var temporaries: [ScannedTemporary] = []

    var entryBytes: Int64 { entries.reduce(0) { $0 + $1.size } }
}

/// Walks `<area>/ab/cd/*` with `openat`/`fstatat` relative to open directories (no path
/// building per file). Only two-hex-digit directories and 64-hex-digit file names whose prefix
/// matches their directories count as entries, and `.tmp-*` as temporary files; anything else an
/// operator put there is never touched. Files and directories vanishing mid-scan (another
/// process's sweep) are skipped, not errors.
enum AreaScanner {
    static func scan(_ area: CacheArea, layout: CacheLayout) throws(CacheError) -> AreaScan {
        var scan = AreaScan(area: area)
        let areaPath = layout.areaPath(area)
        let areaFD = open(areaPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard areaFD >= 0 else {
            if errno == ENOENT { return scan }
            throw .system("list", path: areaPath, errno: errno)
        }
        forEachChild(of: areaFD) { firstFD, firstName in
            guard let first = EntryName.directoryByte(firstName) else { return }
            forEachChild(of: openDirectory(firstFD, firstName)) { leafFD, secondName in
                guard let second = EntryName.directoryByte(secondName) else { return }
                let leaf = openDirectory(leafFD, secondName)
                guard leaf >= 0 else { return }
                let leafPath = "\(areaPath)/\(EntryName.directoryName(first))/\(EntryName.directoryName(second))"
                forEachChild(of: leaf) { fd, fileName in
                    if let name = EntryName(fileName: fileName) {
                        guard name.firstByte == first, name.secondByte == second,
                            let info = fileStatus(fd, fileName), POSIX.isRegularFile(info)
                        else { return }
                        scan.entries.append(
                            ScannedEntry(
                                modified: POSIX.modificationTime(info), size: Int64(info.st_size),
                                name: name, area: area))
                    } else if isTemporaryName(fileName), let info = fileStatus(fd, fileName), POSIX.isRegularFile(info) {
                        scan.temporaries.append(
                            ScannedTemporary(
                                path: "\(leafPath)/\(String(cString: fileName))",
                                modified: POSIX.modificationTime(info), size: Int64(info.st_size)))
                    }
                }
            }
        }
        return scan
    }

    /// Calls `body(directoryFD, childName)` for each child of the directory open as `fd`, then
    /// closes `fd` (it is consumed, including when negative, which means "nothing to list").
    private static func forEachChild(of fd: Int32, _ body: (Int32, UnsafePointer<CChar>) -> Void) {
        guard fd >= 0 else { return }
        guard let directory = fdopendir(fd) else {
            close(fd)
            return
        }
        defer { closedir(directory) }
        let directoryFD = dirfd(directory)
        while let child = readdir(directory) {
            withUnsafePointer(to: &child.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { name in
                    if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { return }  // "." and ".."
                    body(directoryFD, name)
                }
            }
        }
    }

    private static func openDirectory(_ parent: Int32, _ name: UnsafePointer<CChar>) -> Int32 {
        openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }

    private static func fileStatus(_ directoryFD: Int32, _ name: UnsafePointer<CChar>) -> stat? {
        var info = stat()
        return fstatat(directoryFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    private static func isTemporaryName(_ name: UnsafePointer<CChar>) -> Bool {
        let prefix = CacheLayout.temporaryPrefix.utf8
        for (index, byte) in prefix.enumerated() where UInt8(bitPattern: name[index]) != byte { return false }
        return true
    }
}
