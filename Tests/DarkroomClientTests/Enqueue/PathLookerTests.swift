import Foundation
import Testing

@testable import DarkroomClient

@Suite("Enqueue: source files are looked up once per directory")
struct PathLookerTests {
    /// A fake file system that counts the paths it is asked about.
    final class Disk {
        var entries: [String: PathLooker.Entry]
        var asked: [String: Int] = [:]
        init(_ entries: [String: PathLooker.Entry]) { self.entries = entries }
        func stat(_ path: String) -> PathLooker.Entry? {
            asked[path, default: 0] += 1
            return entries[path]
        }
    }

    @Test("Given many missing files in one visible directory, then the directory is looked up once and each file once")
    func missingFilesShareOneDirectoryLookup() {
        let disk = Disk(["/volume/in": .directory, "/volume/in/real.jpg": .file, "/volume/in/sub": .directory])
        let looker = PathLooker(stat: disk.stat)
        let missing = (0..<50).map { "/volume/in/missing-\($0).jpg" }
        #expect(missing.map(looker.look) == Array(repeating: .missing, count: 50))
        #expect(looker.look("/volume/in/real.jpg") == .file)
        #expect(looker.look("/volume/in/sub") == .directory)
        #expect(disk.asked["/volume/in"] == 1)
        #expect(disk.asked.values.allSatisfy { $0 == 1 })
    }

    @Test("Given many files in a directory this host does not see, then only the first file and the directory are looked up")
    func invisibleDirectoryIsNotSearchedAgain() {
        let disk = Disk(["/elsewhere": .directory])
        let looker = PathLooker(stat: disk.stat)
        let paths = (0..<50).map { "/volume/unmounted/\($0).jpg" }
        #expect(paths.map(looker.look) == Array(repeating: .unknown, count: 50))
        #expect(disk.asked == ["/volume/unmounted/0.jpg": 1, "/volume/unmounted": 1])
    }

    @Test("Given real files, a directory, a symbolic link and missing paths, then the system look-up tells them apart as FileManager does")
    func systemLookupFollowsLinks() throws {
        let directory = NSTemporaryDirectory() + "darkroom-pathlooker-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/real.jpg", contents: Data([0xFF]))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.jpg", withDestinationPath: directory + "/real.jpg")
        try FileManager.default.createSymbolicLink(atPath: directory + "/link-folder", withDestinationPath: directory + "/folder")
        try FileManager.default.createSymbolicLink(atPath: directory + "/dangling.jpg", withDestinationPath: directory + "/gone.jpg")
        let looker = PathLooker()
        #expect(looker.look(directory + "/real.jpg") == .file)
        #expect(looker.look(directory + "/link.jpg") == .file)
        #expect(looker.look(directory + "/folder") == .directory)
        #expect(looker.look(directory + "/link-folder") == .directory)
        #expect(looker.look(directory + "/dangling.jpg") == .missing)
        #expect(looker.look(directory + "/missing.jpg") == .missing)
        #expect(looker.look(directory + "/no-such-folder/a.jpg") == .unknown)
    }

    @Test("A path's parent directory is what Foundation's deletingLastPathComponent gives")
    func parentMatchesFoundation() {
        let paths = ["/volume/in/a.jpg", "/a", "/", "a/b", "/a/b/", "/a//b", "//a", "/a/b//", "rel/dir/", "/é/ü.jpg"]
        for path in paths {
            #expect(PathLooker.parent(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
        // Foundation's traps on a bare name and on an empty string.
        #expect(PathLooker.parent(of: "a").isEmpty && PathLooker.parent(of: "").isEmpty)
    }
}
