import DarkroomQueue
import Foundation
import Logging
import Testing

@testable import DarkroomCoordinator

/// The event log over an in-memory queue: recovery, rotation and gap records, file by file.
@Suite("The event log on the volume")
struct EventLogTests {
    /// A scratch directory and the log file in it.
    final class Scratch {
        let directory = NSTemporaryDirectory() + "darkroom-eventlog-\(UUID().uuidString)"
        var path: String { directory + "/events.jsonl" }

        init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func configuration(maxBytes: Int64 = 1 << 30, keep: Int = 10) -> EventLogConfiguration {
            EventLogConfiguration(path: path, maxBytes: maxBytes, keep: keep)
        }

        /// Appends `text` to the log file as it is, as a crash or a stray writer would leave it.
        func append(_ text: String) throws {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try handle.close()
        }

        func lines(_ path: String) throws -> [String] {
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        /// Every line of the log, oldest file first.
        func allLines(keep: Int) throws -> [String] {
            var all: [String] = []
            for index in stride(from: keep, through: 1, by: -1) { all += try lines("\(path).\(index)") }
            return all + (try lines(path))
        }
    }

    /// A queue holding `count` worker events, named `w0`, `w1`, ….
    static func queue(events count: Int, retention: Int = 100_000) async throws -> MemoryQueue {
        let queue = MemoryQueue(configuration: JobQueueConfiguration(eventRetention: retention))
        try await publish(count, from: 0, to: queue)
        return queue
    }

    static func publish(_ count: Int, from first: Int, to queue: MemoryQueue) async throws {
        try await queue.publish((first..<first + count).map { JobEvent.workerOnline(worker: "w\($0)") })
    }

    static func coordinator(_ queue: MemoryQueue, _ configuration: EventLogConfiguration, batch: Int = 1000) -> Coordinator {
        Coordinator(
            queue: queue, configuration: .init(eventLog: configuration, batchSize: batch, pollWait: .zero),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Appends everything the queue holds, batch by batch.
    static func drain(_ coordinator: Coordinator, into log: EventLog) async throws {
        while try await coordinator.appendNextBatch(to: log, wait: .zero) > 0 {}
    }

    static func record(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// The workers named by event lines, in order (`w0`, `w1`, …).
    static func workers(_ lines: [String]) throws -> [String] {
        try lines.map { try record($0) }.compactMap { $0["worker"] as? String }
    }

    @Test("Each line is the stream's event record with its stream id under streamId")
    func lineFormat() async throws {
        let scratch = try Scratch()
        let queue = try await Self.queue(events: 2)
        let log = try await EventLog.open(configuration: scratch.configuration())
        try await Self.drain(Self.coordinator(queue, scratch.configuration()), into: log)
        let lines = try scratch.lines(scratch.path)
        #expect(lines.count == 2)
        let first = try Self.record(lines[0])
        #expect(first["streamId"] as? String == "1")
        #expect(first["type"] as? String == "workerOnline")
        #expect(first["version"] as? Int == 1)
        #expect(lines[0].hasSuffix(#""streamId":"1","type":"workerOnline","version":1,"worker":"w0"}"#))
        #expect(log.checkpoint == EventCursor(rawValue: "2"))
    }

    @Test("A terminal event's line carries the job's redacted source and its chain, in sorted key order")
    func terminalLineSaysWhatTheJobWas() async throws {
        let scratch = try Scratch()
        let queue = MemoryQueue()
        let source = "https://u:p@example.com/cat.jpg?X-Goog-Signature=abc"
        _ = try await queue.enqueue([Job(id: JobID(rawValue: "j1")!, batch: "b", source: source, chain: "blur(2)")])
        #expect(try await queue.cancel(batch: "b") == 1)
        let log = try await EventLog.open(configuration: scratch.configuration())
        try await Self.drain(Self.coordinator(queue, scratch.configuration()), into: log)
        let lines = try scratch.lines(scratch.path)
        #expect(lines.count == 2)
        let line = try #require(lines.last)
        #expect(line.contains(#""batch":"b","chain":"blur(2)","id":""#))
        #expect(
            line.hasSuffix(#""job":"j1","source":"https://***@example.com/cat.jpg?X-Goog-Signature=***","streamId":"2","type":"cancelled","version":1}"#))
        #expect(!line.contains("abc") && !line.contains("u:p"))
    }

    @Test("Given a half-written last line, when the log opens, then the line is cut and the log resumes after the last complete one")
    func recoveryCutsHalfLine() async throws {
        let scratch = try Scratch()
        let queue = try await Self.queue(events: 3)
        let coordinator = Self.coordinator(queue, scratch.configuration(), batch: 2)
        let log = try await EventLog.open(configuration: scratch.configuration())
        #expect(try await coordinator.appendNextBatch(to: log, wait: .zero) == 2)
        log.close()
        // A crash in the middle of the next batch's write.
        try scratch.append(#"{"at":"2026-11-25T12:00:00.000Z","id":"x","streamId":"3","ty"#)

        let reopened = try await EventLog.open(configuration: scratch.configuration())
        #expect(reopened.checkpoint == EventCursor(rawValue: "2"))
        #expect(try scratch.lines(scratch.path).count == 2)
        try await Self.drain(coordinator, into: reopened)
        #expect(try Self.workers(scratch.lines(scratch.path)) == ["w0", "w1", "w2"])
    }

    @Test("A second writer of the same log is refused with eventlog.locked until the first closes it")
    func secondWriterRefused() async throws {
        let scratch = try Scratch()
        var configuration = scratch.configuration()
        configuration.lockWait = .zero
        let first = try await EventLog.open(configuration: configuration)
        let refusal = await #expect(throws: EventLogError.self) { try await EventLog.open(configuration: configuration) }
        #expect(refusal?.code == .locked)
        first.close()
        let second = try await EventLog.open(configuration: configuration)
        second.close()
    }

    @Test("Restarting resumes exactly after the last complete line: no event repeated, none lost")
    func restartResumes() async throws {
        let scratch = try Scratch()
        let queue = try await Self.queue(events: 5)
        let coordinator = Self.coordinator(queue, scratch.configuration(), batch: 3)
        let first = try await EventLog.open(configuration: scratch.configuration())
        #expect(try await coordinator.appendNextBatch(to: first, wait: .zero) == 3)
        first.close()
        try await Self.publish(2, from: 5, to: queue)
        let second = try await EventLog.open(configuration: scratch.configuration())
        #expect(second.checkpoint == EventCursor(rawValue: "3"))
        try await Self.drain(coordinator, into: second)
        #expect(try Self.workers(scratch.lines(scratch.path)) == (0..<7).map { "w\($0)" })
    }

    @Test("Rotation by size neither loses nor repeats an event, keeps `keep` files and resumes from the newest rotated one")
    func rotation() async throws {
        let scratch = try Scratch()
        let queue = try await Self.queue(events: 39)
        // About 120 bytes a line: every batch of 3 passes 200 bytes and rotates the file.
        let configuration = scratch.configuration(maxBytes: 200, keep: 50)
        let coordinator = Self.coordinator(queue, configuration, batch: 3)
        let log = try await EventLog.open(configuration: configuration)
        try await Self.drain(coordinator, into: log)
        log.close()
        let names = (1...50).map { configuration.rotatedPath($0) }.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(names.count == 13)
        #expect(try Self.workers(scratch.allLines(keep: 50)) == (0..<39).map { "w\($0)" })

        // The last batch rotated the file away: FILE is absent, so the checkpoint comes from FILE.1.
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
        try await Self.publish(2, from: 39, to: queue)
        let reopened = try await EventLog.open(configuration: configuration)
        #expect(reopened.checkpoint == EventCursor(rawValue: "39"))
        try await Self.drain(coordinator, into: reopened)
        #expect(try Self.workers(scratch.allLines(keep: 50)) == (0..<41).map { "w\($0)" })
    }

    @Test("Rotation deletes the oldest file beyond `keep`")
    func rotationKeeps() async throws {
        let scratch = try Scratch()
        let queue = try await Self.queue(events: 12)
        let configuration = scratch.configuration(maxBytes: 1, keep: 2)
        let log = try await EventLog.open(configuration: configuration)
        try await Self.drain(Self.coordinator(queue, configuration, batch: 3), into: log)
        #expect(!FileManager.default.fileExists(atPath: configuration.rotatedPath(3)))
        #expect(try Self.workers(scratch.allLines(keep: 2)) == (6..<12).map { "w\($0)" })
    }

    @Test("Given events trimmed from the stream while the coordinator was away, then a counted gap record precedes the next events")
    func gapRecord() async throws {
        let scratch = try Scratch()
        let queue = try await Self.queue(events: 2, retention: 4)
        let coordinator = Self.coordinator(queue, scratch.configuration())
        let log = try await EventLog.open(configuration: scratch.configuration())
        try await Self.drain(coordinator, into: log)
        // 8 more: the queue keeps the last 4 (trimming like MAXLEN ~), so events 3…6 are gone.
        try await Self.publish(8, from: 2, to: queue)
        try await Self.drain(coordinator, into: log)
        let lines = try scratch.lines(scratch.path)
        let gap = try Self.record(lines[2])
        #expect(gap["type"] as? String == "gap")
        #expect(gap["after"] as? String == "2")
        #expect(gap["before"] as? String == "7")
        #expect(gap["missing"] as? Int == 4)
        #expect(try Self.workers(lines) == ["w0", "w1", "w6", "w7", "w8", "w9"])
    }

    @Test("A gap record whose events were never written is cut on recovery, and found again")
    func trailingGapIsCut() async throws {
        let scratch = try Scratch()
        let queue = try await Self.queue(events: 1)
        let log = try await EventLog.open(configuration: scratch.configuration())
        try await Self.drain(Self.coordinator(queue, scratch.configuration()), into: log)
        log.close()
        try scratch.append(#"{"after":"1","before":"5","missing":3,"type":"gap","version":1}"# + "\n")
        let reopened = try await EventLog.open(configuration: scratch.configuration())
        #expect(reopened.checkpoint == EventCursor(rawValue: "1"))
        #expect(try scratch.lines(scratch.path).count == 1)
    }

    @Test("Gap checks: dense cursors are counted; stream ids are flagged only when the checkpoint's entry was trimmed")
    func gapChecks() async throws {
        func cursor(_ text: String) -> EventCursor { EventCursor(rawValue: text) }
        #expect(await StreamPosition.gap(after: cursor("4"), first: cursor("5")) { nil } == nil)
        #expect(await StreamPosition.gap(after: cursor("4"), first: cursor("9")) { nil }?.missing == 4)
        let retained = await StreamPosition.gap(after: cursor("100-0"), first: cursor("200-0")) { cursor("90-3") }
        #expect(retained == nil)
        let trimmed = await StreamPosition.gap(after: cursor("100-0"), first: cursor("200-0")) { cursor("150-0") }
        #expect(trimmed == EventGap(after: cursor("100-0"), before: cursor("200-0"), missing: nil))
    }

    @Test("A last line that is not a log record is refused with the file's name")
    func corruptLastLine() async throws {
        let scratch = try Scratch()
        try Data("not json\n".utf8).write(to: URL(fileURLWithPath: scratch.path))
        await #expect(throws: EventLogError.self) { try await EventLog.open(configuration: scratch.configuration()) }
    }
}
