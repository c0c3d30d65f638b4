import Foundation
import Glibc
import Testing

@testable import DarkroomSources

@Suite("File provider")
struct FileProviderTests {
    typealias Support = SourcesFileTestSupport

    @Test("the interactive policy reads any readable file by bare path")
    func interactiveReadsAnyFile() async throws {
        let box = try SourcesFileSandbox()
        let file = try box.file("deep/er/a.jpg", bytes: Support.sample)
        let fetched = try await Support.fetch(file, policy: .interactive)
        #expect(fetched.bytes == Support.sample)
        #expect(fetched.contentType == nil)
        #expect(fetched.finalLocation == "file://\(file)")
        #expect(fetched.cacheKey.hasPrefix("file://\(file)#\(Support.sample.count)-"))
    }

    @Test("an empty file is read as zero bytes")
    func emptyFile() async throws {
        let box = try SourcesFileSandbox()
        let fetched = try await Support.fetch(try box.file("empty.jpg", bytes: []), policy: .interactive)
        #expect(fetched.bytes.isEmpty)
    }

    @Test("a file:// URL is percent-decoded, with or without localhost, and file:/path works too")
    func fileURLs() async throws {
        let box = try SourcesFileSandbox()
        let file = try box.file("a b#1%é.jpg", bytes: Support.sample)
        let encodedName = "a%20b%231%25%C3%A9.jpg"
        for url in [
            "file://\(box.path)/\(encodedName)", "FILE://localhost\(box.path)/\(encodedName)",
            "file:\(box.path)/\(encodedName)",
        ] {
            let fetched = try await Support.fetch(url, policy: .interactive)
            #expect(fetched.bytes == Support.sample, "\(url)")
        }
        // The key escapes the awkward bytes, so it is unambiguous and itself a file URL.
        let key = try #require(try Support.provider.cacheKey(for: SourceReference(file), policy: .interactive))
        #expect(key.hasPrefix("file://\(box.path)/a%20b%231%25%C3%A9.jpg#"))
    }

    @Test(
        "malformed file: URLs are invalid with a message saying why",
        arguments: [
            ("file://server/share/a.jpg", "another host"),
            ("file:relative/a.jpg", "absolute path"),
            ("file:///tmp/a.jpg?x=1", "query or fragment"),
            ("file:///tmp/a%zz.jpg", "two hexadecimal digits"),
            ("file:///tmp/a%00.jpg", "NUL"),
        ])
    func malformedURLs(url: String, expected: String) async throws {
        let error = try await Support.failure(url, policy: .interactive)
        #expect(error.code == .invalid)
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test("a missing file is not found, permanently")
    func missingFile() async throws {
        let box = try SourcesFileSandbox()
        for source in [box.url("nope.jpg"), box.url("nope/deeper.jpg")] {
            let error = try await Support.failure(source, policy: .interactive)
            #expect(error.code == .notFound)
            #expect(!error.isTransient)
        }
    }

    @Test("a directory is not a regular file")
    func directory() async throws {
        let box = try SourcesFileSandbox()
        let error = try await Support.failure(try box.directory("dir.jpg"), policy: .interactive)
        #expect(error.code == .notRegularFile)
        #expect(error.message.contains("a directory"))
    }

    @Test("a FIFO is refused without blocking, even with no writer")
    func fifo() async throws {
        let box = try SourcesFileSandbox()
        let error = try await Support.failure(try box.fifo("pipe.jpg"), policy: .interactive)
        #expect(error.code == .notRegularFile)
        #expect(error.message.contains("FIFO"))
    }

    @Test("devices are refused", arguments: ["/dev/zero", "/dev/null", "/dev/urandom"])
    func devices(path: String) async throws {
        let error = try await Support.failure(path, policy: .interactive)
        #expect(error.code == .notRegularFile)
        #expect(error.message.contains("character device"))
    }

    @Test("a file over the size limit is too large before it is read; one at the limit is read")
    func sizeLimit() async throws {
        let box = try SourcesFileSandbox()
        let atLimit = try box.file("ten.bin", bytes: Array(repeating: 7, count: 10))
        let over = try box.file("eleven.bin", bytes: Array(repeating: 7, count: 11))
        let policy = Support.policy(roots: nil, maxBytes: 10)
        #expect(try await Support.fetch(atLimit, policy: policy).bytes.count == 10)
        let error = try await Support.failure(over, policy: policy)
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("11 bytes"))
        #expect(error.message.contains("limit of 10 bytes"))
    }

    @Test("editing a file gives it a new cache key")
    func editedFileHasNewKey() async throws {
        let box = try SourcesFileSandbox()
        let file = try box.file("a.jpg", bytes: Support.sample)
        let before = try await Support.fetch(file, policy: .interactive)
        try box.file("a.jpg", bytes: Support.sample + [1, 2, 3])
        let after = try await Support.fetch(file, policy: .interactive)
        #expect(before.cacheKey != after.cacheKey)
        #expect(after.bytes == Support.sample + [1, 2, 3])
        // Same size, new modification time: still a new key.
        try box.file("a.jpg", bytes: Array(repeating: 0, count: Support.sample.count + 3))
        var times = [
            timespec(tv_sec: 1_000_000_000, tv_nsec: 123_456_789),
            timespec(tv_sec: 1_000_000_000, tv_nsec: 123_456_789),
        ]
        try #require(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let retimed = try await Support.fetch(file, policy: .interactive)
        #expect(retimed.cacheKey == "file://\(file)#\(Support.sample.count + 3)-1000000000123456789")
        #expect(retimed.cacheKey != after.cacheKey)
    }

    @Test(
        "an unreadable file is forbidden (permanent), not a transient I/O error",
        .enabled(if: getuid() != 0, "root reads every file"))
    func permissionDenied() async throws {
        let box = try SourcesFileSandbox()
        let file = try box.file("locked.jpg", bytes: Support.sample)
        try #require(chmod(file, 0) == 0)
        let error = try await Support.failure(file, policy: .interactive)
        #expect(error.code == .forbidden)
        #expect(!error.isTransient)
    }

    @Test("relative paths are resolved against the working directory")
    func relativePath() async throws {
        let box = try SourcesFileSandbox()
        let file = try box.file("rel.jpg", bytes: Support.sample)
        let cwd = FileManager.default.currentDirectoryPath
        let relative = String(repeating: "../", count: cwd.split(separator: "/").count) + String(file.dropFirst())
        let fetched = try await Support.fetch(relative, policy: .interactive)
        #expect(fetched.bytes == Support.sample)
        #expect(fetched.finalLocation == "file://\(file)")
    }
}
