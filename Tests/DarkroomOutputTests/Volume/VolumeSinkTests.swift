import DarkroomOutput
import Foundation
import Testing

/// What `VolumeSink` adds to the contract: locations are absolute paths, a missing destination
/// is created inside a root, a file where a directory should be is a permanent failure, and a
/// symbolic link under a root cannot lead a write outside it.
@Suite("VolumeSink")
struct VolumeSinkTests {
    private static func base() throws -> String {
        let base = NSTemporaryDirectory() + "darkroom-volume-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/root", withIntermediateDirectories: true)
        return URL(fileURLWithPath: base).resolvingSymlinksInPath().path
    }

    @Test("A destination missing below a root is created, and the location is the file's absolute path")
    func createsDestination() async throws {
        let base = try Self.base()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let sink = VolumeSink(roots: [base + "/root"], durable: false)
        let stored = try await sink.store([1, 2], named: "a.png", in: base + "/root/x/./y/../z", onConflict: .refuse)
        #expect(stored.location == base + "/root/x/z/a.png")
        #expect(FileManager.default.contents(atPath: stored.location) == Data([1, 2]))
    }

    @Test("A file where the destination directory should be fails with output.cannot-write, permanently")
    func fileInTheWay() async throws {
        let base = try Self.base()
        defer { try? FileManager.default.removeItem(atPath: base) }
        FileManager.default.createFile(atPath: base + "/root/blocked", contents: Data([0]))
        let sink = VolumeSink(roots: [base + "/root"])
        let error = await #expect(throws: OutputError.self) { try await sink.prepare(base + "/root/blocked/out") }
        #expect(error?.code == .cannotWrite)
        #expect(error?.isTransient == false)
    }

    @Test("A symbolic link under a root that points outside is refused with output.not-allowed")
    func symlinkOutside() async throws {
        let base = try Self.base()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/root/link", withDestinationPath: base + "/outside")
        let sink = VolumeSink(roots: [base + "/root"])
        let error = await #expect(throws: OutputError.self) {
            try await sink.store([1], named: "a.png", in: base + "/root/link", onConflict: .replace)
        }
        #expect(error?.code == .notAllowed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/outside").isEmpty)
    }

    @Test("Without roots every destination is refused, naming the flag that allows one")
    func noRoots() async throws {
        let error = await #expect(throws: OutputError.self) { try await VolumeSink(roots: []).prepare("/tmp") }
        #expect(error?.code == .notAllowed)
        #expect(error?.message.contains("--allow-output-root") == true)
    }
}
