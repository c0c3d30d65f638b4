import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@testable import DarkroomCoordinator

/// The event log over a file system that fails on purpose. A batch that fails is cut off the file
/// again, the checkpoint stays, and the next read writes it: nothing is reported as logged that is
/// not in the file, and nothing is lost or repeated.
@Suite("The event log under file-system faults")
struct EventLogFaultTests {
    typealias Kit = EventLogTests

    /// The errno the append must fail with: every append is synced before the file is closed, so
    /// a failing `close` (at rotation) loses nothing and is not an error.
    static func expectedErrno(_ fault: FileFault) -> Int32? {
        fault == .ioErrorOnClose ? nil : fault.expectedErrno
    }

    @Test(
        "When a fault hits an append (which rotates), then eventlog.io is thrown, the file holds no part of the batch, and the next read writes it once",
        arguments: FileFault.allCases)
    func append(fault: FileFault) async throws {
        let scratch = try Kit.Scratch()
        let queue = try await Kit.queue(events: 4)
        // About 120 bytes a line: the first batch stays in FILE, the second (the one that meets
        // the fault) passes 300 bytes and rotates it, with a close and renames.
        let configuration = scratch.configuration(maxBytes: 300, keep: 10)
        let coordinator = Kit.coordinator(queue, configuration, batch: 2)
        let fake = FaultInjectingFileSystemCalls()
        let log = try await EventLog.open(configuration: configuration, fileSystem: fake)
        #expect(try await coordinator.appendNextBatch(to: log, wait: .zero) == 2)
        fault.arm(fake)
        var failure: EventLogError?
        do {
            #expect(try await coordinator.appendNextBatch(to: log, wait: .zero) == 2)
        } catch let error as EventLogError {
            failure = error
        }
        #expect(!fake.injected.isEmpty)
        if let failure {
            let errno = try #require(Self.expectedErrno(fault))
            #expect(failure.code == .io)
            #expect(failure.errno == Errno(errno))
            #expect(failure.isTransient)
            #expect(failure.message.contains(scratch.path))
            // Not one byte of the failed batch stayed; the checkpoint did not move.
            #expect(try Kit.workers(scratch.lines(scratch.path)) == ["w0", "w1"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path)).last == UInt8(ascii: "\n"))
            #expect(log.checkpoint == EventCursor(rawValue: "2"))
            #expect(coordinator.snapshot.eventsLogged == 2)
            try await Kit.drain(coordinator, into: log)
        } else {
            #expect(Self.expectedErrno(fault) == nil, "the append reported success through \(fault)")
        }
        #expect(log.checkpoint == EventCursor(rawValue: "4"))
        #expect(try Kit.workers(scratch.allLines(keep: 10)) == ["w0", "w1", "w2", "w3"])
    }

    @Test("Given a failed write whose bytes cannot be cut off, then later appends are refused, and reopening cuts the half line and resumes")
    func damagedFileRefusesAppends() async throws {
        let scratch = try Kit.Scratch()
        let queue = try await Kit.queue(events: 4)
        let coordinator = Kit.coordinator(queue, scratch.configuration(), batch: 2)
        let fake = FaultInjectingFileSystemCalls()
        let log = try await EventLog.open(configuration: scratch.configuration(), fileSystem: fake)
        #expect(try await coordinator.appendNextBatch(to: log, wait: .zero) == 2)
        FileFault.shortWriteThenDiskFull.arm(fake)
        fake.inject(.fail(EIO), on: .ftruncate)
        await #expect(throws: EventLogError.self) { _ = try await coordinator.appendNextBatch(to: log, wait: .zero) }
        let refusal = await #expect(throws: EventLogError.self) { _ = try await coordinator.appendNextBatch(to: log, wait: .zero) }
        #expect(refusal?.code == .io)
        #expect(refusal?.message.contains("restart the coordinator") == true)
        #expect(log.checkpoint == EventCursor(rawValue: "2"))
        log.close()

        let reopened = try await EventLog.open(configuration: scratch.configuration())
        #expect(reopened.checkpoint == EventCursor(rawValue: "2"))
        try await Kit.drain(coordinator, into: reopened)
        #expect(try Kit.workers(scratch.lines(scratch.path)) == ["w0", "w1", "w2", "w3"])
    }

    @Test("Opening waits for a lock another log holds, and takes it once that log closes")
    func lockIsWaitedFor() async throws {
        let scratch = try Kit.Scratch()
        var configuration = scratch.configuration()
        configuration.lockWait = .seconds(20)
        let first = try await EventLog.open(configuration: configuration)
        let release = Task {
            try await Task.sleep(for: .milliseconds(150))
            first.close()
        }
        let started = ContinuousClock.now
        let second = try await EventLog.open(configuration: configuration)
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        try await release.value
        second.close()
    }
}
