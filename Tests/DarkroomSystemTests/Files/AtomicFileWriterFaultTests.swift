import DarkroomSystem
import DarkroomTestSupport
import Glibc
import Testing

/// `AtomicFileWriter` over a file system that fails on purpose: each fault gives its stage and
/// errno, and the name keeps its old file; faults the retrying layer absorbs leave the new one.
@Suite("AtomicFileWriter under file-system faults")
struct AtomicFileWriterFaultTests {
    /// The step a fault fails, or nil when the write must succeed.
    static func stage(_ fault: FileFault) -> AtomicFileError.Stage? {
        switch fault {
        case .diskFullOnWrite, .shortWriteThenDiskFull: return .write
        case .ioErrorOnSync: return .sync
        case .ioErrorOnClose: return .close
        case .interrupted, .shortWrites: return nil
        }
    }

    @Test(
        "Given a file, when a fault hits the write replacing it, then the stage and errno are thrown and the old file stays whole; absorbed faults leave the new one",
        arguments: FileFault.allCases)
    func replacing(fault: FileFault) throws {
        let directory = try Scratch.directory()
        let fake = FaultInjectingFileSystemCalls()
        let writer = AtomicFileWriter(directory: directory, options: .init(syncsData: true, syncsDirectory: true), fileSystem: fake)
        let old = Array("the old file".utf8)
        let new = [UInt8](repeating: 9, count: 100_000)
        try writer.write(old, replacing: "f")
        fault.arm(fake)
        var failure: AtomicFileError?
        do throws(AtomicFileError) { try writer.write(new, replacing: "f") } catch { failure = error }
        if let failure {
            #expect(failure == AtomicFileError(try #require(Self.stage(fault)), Errno(try #require(fault.expectedErrno))))
            #expect(Scratch.contents(directory + "/f") == old)
        } else {
            #expect(fault.expectedErrno == nil, "the write reported success through \(fault)")
            #expect(Scratch.contents(directory + "/f") == new)
        }
        #expect(!fake.injected.isEmpty)
        #expect(Scratch.names(in: directory) == ["f"])
    }

    @Test("Given a free name, when a fault fails the linking write, then nothing is left under the name", arguments: FileFault.allCases)
    func linking(fault: FileFault) throws {
        let directory = try Scratch.directory()
        let fake = FaultInjectingFileSystemCalls()
        let writer = AtomicFileWriter(directory: directory, options: .init(syncsData: true), fileSystem: fake)
        fault.arm(fake)
        var failure: AtomicFileError?
        var linkError: Errno?
        do throws(AtomicFileError) {
            let file = try writer.begin()
            try file.write([UInt8](repeating: 4, count: 1000))
            linkError = try file.link(as: "g")
        } catch {
            failure = error
        }
        #expect(linkError == nil)
        #expect(failure?.systemError == fault.expectedErrno.map(Errno.init))
        #expect(Scratch.names(in: directory) == (fault.expectedErrno == nil ? ["g"] : []))
    }

    @Test("writeAll goes on after short writes and retries EINTR until every byte is written")
    func writeAllCompletes() throws {
        let directory = try Scratch.directory()
        let fake = FaultInjectingFileSystemCalls()
        let descriptor = try fake.open(directory + "/w", flags: O_WRONLY | O_CREAT | O_CLOEXEC, mode: 0o644)
        fake.inject(.shortWrite(2), on: .write)
        fake.inject(.interrupt, on: .write, nth: 2)
        fake.inject(.shortWrite(1), on: .write, nth: 3)
        try fake.writeAll(descriptor, Array("abcdefgh".utf8))
        try fake.close(descriptor)
        #expect(Scratch.contents(directory + "/w") == Array("abcdefgh".utf8))
        #expect(fake.count(of: .write) == 4)
    }
}
