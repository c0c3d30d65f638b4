import DarkroomSystem
import Glibc
import Testing

@Suite("AtomicFileWriter")
struct AtomicFileWriterTests {
    @Test("Given a directory, when bytes are written, then the file holds them and no temporary file is left")
    func replaces() throws {
        let directory = try Scratch.directory()
        let writer = AtomicFileWriter(directory: directory)
        try writer.write(Array("old".utf8), replacing: "a.txt")
        try writer.write(Array("new".utf8), replacing: "a.txt")
        #expect(Scratch.contents(directory + "/a.txt") == Array("new".utf8))
        #expect(Scratch.names(in: directory) == ["a.txt"])
    }

    @Test("the temporary file is named by the options while it is pending, and removed when abandoned")
    func temporaryNaming() throws {
        let directory = try Scratch.directory()
        let writer = AtomicFileWriter(directory: directory, options: .init(temporaryPrefix: ".part-", temporarySuffix: ".tmp"))
        do {
            let file = try writer.begin()
            #expect(file.temporaryName.hasPrefix(".part-") && file.temporaryName.hasSuffix(".tmp"))
            #expect(Scratch.names(in: directory) == [file.temporaryName])
        }
        #expect(Scratch.names(in: directory).isEmpty)
    }

    @Test("the mode is less the umask unless ignoresUmask sets it exactly")
    func modes() throws {
        let directory = try Scratch.directory()
        let previous = umask(0o022)
        defer { umask(previous) }
        try AtomicFileWriter(directory: directory, options: .init(mode: 0o666)).write([1], replacing: "masked")
        try AtomicFileWriter(directory: directory, options: .init(mode: 0o666, ignoresUmask: true)).write([1], replacing: "exact")
        #expect(Scratch.mode(directory + "/masked") == 0o644)
        #expect(Scratch.mode(directory + "/exact") == 0o666)
    }

    @Test("with fsync of data and directory the result is the same file")
    func durable() throws {
        let directory = try Scratch.directory()
        let writer = AtomicFileWriter(directory: directory, options: .init(syncsData: true, syncsDirectory: true))
        try writer.write(Array(repeating: 7, count: 100_000), replacing: "durable.bin")
        #expect(Scratch.contents(directory + "/durable.bin") == Array(repeating: 7, count: 100_000))
        #expect(Scratch.names(in: directory) == ["durable.bin"])
    }

    @Test("a missing directory is created only when the options ask for it")
    func missingDirectory() throws {
        let root = try Scratch.directory()
        #expect(throws: AtomicFileError(.createTemporary, Errno(ENOENT))) {
            try AtomicFileWriter(directory: root + "/x/y").write([1], replacing: "f")
        }
        try AtomicFileWriter(directory: root + "/x/y", options: .init(createsMissingDirectory: true)).write([1], replacing: "f")
        #expect(Scratch.contents(root + "/x/y/f") == [1])
    }

    @Test("Given an opened directory that is then renamed, writes go through the descriptor, not the old path")
    func throughOpenedDirectory() throws {
        let root = try Scratch.directory()
        try #require(mkdir(root + "/out", 0o755) == 0)
        let descriptor = open(root + "/out", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(rename(root + "/out", root + "/moved") == 0)
        let writer = AtomicFileWriter(directoryDescriptor: descriptor, displayPath: root + "/out")
        try writer.write(Array("x".utf8), replacing: "r.txt")
        #expect(Scratch.contents(root + "/moved/r.txt") == Array("x".utf8))
        #expect(Scratch.names(in: root) == ["moved"])
    }

    @Test("link takes a free name, and leaves a taken one alone with EEXIST")
    func linkIfAbsent() throws {
        let root = try Scratch.directory()
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = AtomicFileWriter(directoryDescriptor: descriptor, displayPath: root, options: .init(syncsDirectory: true))
        do {
            let first = try writer.begin()
            try first.write([UInt8(1)])
            #expect(try first.link(as: "name") == nil)
        }
        do {
            let second = try writer.begin()
            try second.write([UInt8(2)])
            #expect(try second.link(as: "name") == Errno(EEXIST))
        }
        #expect(Scratch.contents(root + "/name") == [1])
        #expect(Scratch.names(in: root) == ["name"])
    }

    @Test("a failed rename throws its stage and errno and removes the temporary file")
    func failedRename() throws {
        let root = try Scratch.directory()
        try #require(mkdir(root + "/taken", 0o755) == 0)
        try #require(mkdir(root + "/taken/inside", 0o755) == 0)
        do throws(AtomicFileError) {
            try AtomicFileWriter(directory: root).write([1], replacing: "taken")
            Issue.record("renaming a file over a non-empty directory succeeded")
        } catch {
            #expect(error.stage == .replace)
            #expect(error.systemError == Errno(EISDIR) || error.systemError == Errno(ENOTEMPTY))
        }
        #expect(Scratch.names(in: root) == ["taken"])
    }
}
