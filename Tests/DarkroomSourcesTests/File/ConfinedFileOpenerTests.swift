import DarkroomSystem
import Glibc
import Testing

@testable import DarkroomSources

/// The walk that closes the gap between `realpath` and `open`: these tests hand it a path as it
/// was when checked, then change the tree the way an attacker would before the open.
@Suite("Opening a confined file without following links")
struct ConfinedFileOpenerTests {
    typealias Support = SourcesFileTestSupport

    @Test("a directory swapped for a link to outside the root after the check is refused")
    func directorySwappedForLink() throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        try box.file("outside/a.jpg", bytes: Support.sample)
        // When checked, img/sub/a.jpg was a real file; now img/sub is a link to ../outside.
        try box.symlink("img/sub", to: box.url("outside"))
        let checked = ConfinedFile(resolved: FilePath(box.url("img/sub/a.jpg")), base: FilePath(root))
        let error = try #require(throws: SourceError.self) { try ConfinedFileOpener.openFile(checked, source: "x") }
        #expect(error.code == .refused)
        #expect(error.message.contains("changed while it was being opened"))
    }

    @Test("a file swapped for a link after the check is refused")
    func fileSwappedForLink() throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let secret = try box.file("secret.pem", bytes: Support.sample)
        try box.symlink("img/a.jpg", to: secret)
        let checked = ConfinedFile(resolved: FilePath(box.url("img/a.jpg")), base: FilePath(root))
        let error = try #require(throws: SourceError.self) { try ConfinedFileOpener.openFile(checked, source: "x") }
        #expect(error.code == .refused)
    }

    @Test("an unchanged file opens, and its descriptor reads the file's bytes")
    func unchangedFileOpens() throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let file = try box.file("img/sub/a.jpg", bytes: Support.sample)
        let open = try ConfinedFileOpener.openFile(ConfinedFile(resolved: FilePath(file), base: FilePath(root)), source: "x")
        defer { close(open.descriptor) }
        #expect(Int(open.info.st_size) == Support.sample.count)
        var buffer = [UInt8](repeating: 0, count: 100)
        #expect(read(open.descriptor, &buffer, 100) == Support.sample.count)
        #expect(Array(buffer.prefix(Support.sample.count)) == Support.sample)
    }

    @Test("permission errors map to forbidden (permanent), other I/O errors to io (transient)")
    func errnoMapping() {
        let path = FilePath("/srv/a.jpg")
        for code in [EACCES, EPERM] {
            let error = FileErrors.error(Errno(code), path: path, source: "a", operation: "opening")
            #expect(error.code == .forbidden)
            #expect(!error.isTransient)
            #expect(error.message.contains("permission denied opening /srv/a.jpg"))
        }
        #expect(FileErrors.error(Errno(ENOENT), path: path, source: "a", operation: "opening").code == .notFound)
        let io = FileErrors.error(Errno(EIO), path: path, source: "a", operation: "reading")
        #expect(io.code == .io)
        #expect(io.isTransient)
        #expect(io.message.contains("Input/output error"))
    }

    @Test("containment is decided at a path component boundary, byte for byte")
    func containment() {
        #expect(FilePath("/data/img/a.jpg").isWithin(FilePath("/data/img")))
        #expect(FilePath("/data/img").isWithin(FilePath("/data/img")))
        #expect(!FilePath("/data/imgevil/a.jpg").isWithin(FilePath("/data/img")))
        #expect(!FilePath("/data/im").isWithin(FilePath("/data/img")))
        #expect(FilePath("/anything").isWithin(FilePath("/")))
        // "é" precomposed and decomposed are equal Swift Strings but different file names.
        #expect(!FilePath("/data/\u{E9}/a.jpg").isWithin(FilePath("/data/e\u{301}")))
    }
}
