import DarkroomOutput
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

/// `VolumeSink` (durable) over a file system that fails on purpose: `output.disk-full` or
/// `output.io`, the name as it was (the old output, or none), no temporary file; faults the
/// retrying layer absorbs store the output whole.
@Suite("VolumeSink under file-system faults")
struct VolumeSinkFaultTests {
    @Test(
        "When a fault hits a store, then a transient coded error is thrown and the name keeps what it held; absorbed faults store the output",
        arguments: FileFault.allCases, [OutputConflict.replace, .refuse])
    func store(fault: FileFault, conflict: OutputConflict) async throws {
        let root = NSTemporaryDirectory() + "darkroom-sink-faults-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fake = FaultInjectingFileSystemCalls()
        let sink = VolumeSink(roots: [root], durable: true, fileSystem: fake)
        // `.replace` over an older output; `.refuse` into a free name.
        let old: [UInt8]? = conflict == .replace ? Array("old output".utf8) : nil
        if let old { _ = try await sink.store(old, named: "out.bin", in: root, onConflict: .replace) }
        let new = [UInt8](repeating: 5, count: 70_000)
        fault.arm(fake)
        var failure: OutputError?
        var stored: StoredOutput?
        do throws(OutputError) { stored = try await sink.store(new, named: "out.bin", in: root, onConflict: conflict) } catch {
            failure = error
        }
        let content = FileManager.default.contents(atPath: root + "/out.bin").map(Array.init)
        if let failure {
            let errno = try #require(fault.expectedErrno)
            #expect(failure.code == (errno == ENOSPC ? .diskFull : .io))
            #expect(failure.systemError == errno)
            #expect(failure.isTransient)
            #expect(content == old)
        } else {
            #expect(fault.expectedErrno == nil, "the store reported success through \(fault)")
            #expect(stored?.location == root + "/out.bin")
            #expect(content == new)
        }
        #expect(!fake.injected.isEmpty)
        // No temporary file stays: the name, or nothing.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == (content == nil ? [] : ["out.bin"]))
    }
}
