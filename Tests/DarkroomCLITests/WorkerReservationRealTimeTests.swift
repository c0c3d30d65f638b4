import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

/// A worker reserves what its CPU pool will reach soon (at most 2 × `--cpus` jobs that have not
/// started), not `-j` jobs: so a SIGKILL strands few jobs for the visibility timeout. Real Redis,
/// real worker processes.
@Suite("darkroom worker does not hoard jobs it cannot start soon", .serialized, .realTime)
struct WorkerReservationRealTimeTests {
    typealias Fleet = WorkerCommandRealTimeTests.Fleet

    /// Given 20 jobs whose downloads all hang, when a worker with `--cpus 1` at the default `-j`
    /// (16) has had a second to take what it wants, then it holds 2 jobs (none started: each
    /// waits for its source), and a SIGKILL strands those 2; the other 18 stay ready.
    @Test("A killed worker with --cpus 1 at the default -j strands 2 jobs that had not started, not 16")
    func killedWorkerStrandsTwiceItsCPUs() async throws {
        let fleet = try Fleet()
        defer { fleet.stop() }
        let source = try WorkerCommandRealTimeTests.source(slow: 100, delay: 20_000_000)
        defer { source.stop() }
        _ = try await fleet.queue.enqueue((0..<20).map { fleet.job(source.url("/\($0).jpg")) })
        let worker = try fleet.worker("w-hang", ["--allow-source", source.origin + "/", "--cpus", "1", "--visibility-timeout", "60"])
        #expect(await WorkerCLITestKit.eventually { try await fleet.queue.counts().pending >= 2 })
        // A worker that hoards takes its 16 within milliseconds of its first reservation.
        try await Task.sleep(for: .seconds(1))
        let held = try await fleet.queue.counts().pending
        worker.signal(SIGKILL)
        _ = await worker.finish()
        let counts = try await fleet.queue.counts()
        #expect(held == 2)
        #expect(counts.pending == 2)
        #expect(counts.readyTotal == 18)
    }

    /// Given 12 jobs that each compute for a while (a blur over a 640×480 PNG, slow in a debug build), when a worker with
    /// `--cpus 1` at the default `-j` has finished its first and is killed, then at most 3 jobs
    /// were pending: the one computing and at most 2 that had not started.
    @Test("A killed worker with --cpus 1 computing slow jobs held at most one computing and 2 not started")
    func killedComputingWorkerStrandsFew() async throws {
        let fleet = try Fleet()
        defer { fleet.stop() }
        var sources: [String] = []
        for index in 0..<12 {
            let path = fleet.directory + "/big\(index).png"
            let bytes = try TestImages.gradient(.png, width: 640, height: 480, tint: UInt8(20 + index * 9))
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            sources.append(path)
        }
        _ = try await fleet.queue.enqueue(sources.map { Job(batch: "big", source: $0, chain: "blur(6)|>resize(300x200)") })
        let worker = try fleet.worker("w-slow", ["--allow-file-root", fleet.directory, "--cpus", "1", "--visibility-timeout", "60"])
        #expect(await WorkerCLITestKit.eventually { try await fleet.queue.batchProgress("big")?.succeeded ?? 0 >= 1 })
        let held = try await fleet.queue.counts().pending
        worker.signal(SIGKILL)
        _ = await worker.finish()
        let counts = try await fleet.queue.counts()
        let finished = try await fleet.queue.batchProgress("big")?.succeeded ?? 0
        #expect(held <= 3, "held \(held)")
        #expect(counts.pending <= 3, "pending \(counts.pending)")
        #expect(counts.pending + counts.readyTotal + finished == 12)
    }
}
