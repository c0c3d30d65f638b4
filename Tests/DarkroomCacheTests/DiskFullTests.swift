import DarkroomCache
import Foundation
import Glibc
import Testing

/// A real full disk: a 1 MiB tmpfs. Mounting needs root (CAP_SYS_ADMIN); where it is not
/// permitted (an unprivileged CI runner) the test is skipped, as its trait says.
enum CacheTestTmpfs {
    /// Mounts a tmpfs of `size` at a fresh directory; nil when mounting is not permitted.
    static func mount(size: String) -> String? {
        guard let directory = try? CacheTestKit.makeDirectory("tmpfs") else { return nil }
        if Glibc.mount("tmpfs", directory, "tmpfs", 0, "size=\(size)") == 0 { return directory }
        CacheTestKit.remove(directory)
        return nil
    }

    static func unmount(_ directory: String) {
        umount2(directory, Int32(MNT_DETACH))
        CacheTestKit.remove(directory)
    }

    /// Whether this machine lets the tests mount a tmpfs (probed once).
    static let isAvailable: Bool = {
        guard let directory = mount(size: "64k") else { return false }
        unmount(directory)
        return true
    }()
}

@Suite("A full volume gives a clear transient error and never a damaged entry")
struct DiskFullTests {
    @Test(
        "Storing more than fits on a 1 MiB tmpfs throws cache.disk-full, leaves no temporary file and keeps the old entry",
        .enabled(if: CacheTestTmpfs.isAvailable, "needs permission to mount a tmpfs (root); skipped otherwise"))
    func diskFull() throws {
        let mountPoint = try #require(CacheTestTmpfs.mount(size: "1m"))
        defer { CacheTestTmpfs.unmount(mountPoint) }
        let cache = try DiskCache(directory: "\(mountPoint)/cache", configuration: CacheTestKit.configuration())
        let small = CacheTestKit.value(1, count: 300_000)
        try cache.store(small, for: "kept", in: .results)

        let tooLarge = CacheTestKit.value(2, count: 900_000)
        for key in ["new", "kept"] {  // a new key, and a replacement of an existing one
            do {
                try cache.store(tooLarge, for: key, in: .results)
                Issue.record("storing 900 KB on a nearly full 1 MiB volume succeeded")
            } catch {
                #expect(error.code == .diskFull)
                #expect(error.isTransient)
                #expect(error.message.contains("no space left"))
            }
        }
        #expect(CacheTestKit.temporaryFiles(in: "\(mountPoint)/cache").isEmpty)
        #expect(try cache.data(for: "kept", in: .results) == small)
        #expect(try cache.data(for: "new", in: .results) == nil)

        // Once space is freed, the same store works.
        try cache.prune(maxBytes: 0, olderThan: nil)
        try cache.store(tooLarge, for: "new", in: .results)
        #expect(try cache.data(for: "new", in: .results) == tooLarge)
    }
}
