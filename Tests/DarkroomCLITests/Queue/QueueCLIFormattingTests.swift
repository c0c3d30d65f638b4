import DarkroomClient
import DarkroomQueue
import DarkroomSystem
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("Queue commands: event lines, summaries and the progress bar")
struct QueueCLIFormattingTests {
    static let at = Timestamp(iso8601: "2025-03-01T12:34:56.789Z")!

    @Test("Each event type prints as one readable line with the fields it carries")
    func eventLines() throws {
        let id = try #require(JobID(rawValue: "j1"))
        var result = QueueCLITestKit.result(output: "/out/cat.png", bytes: 42_240)
        result.cache = .disk
        #expect(
            EventFormatting.line(.batchEnqueued(batch: "b1", count: 3, at: Self.at))
                == "2025-03-01T12:34:56.789Z batchEnqueued batch=b1 count=3")
        #expect(
            EventFormatting.line(.succeeded(job: id, batch: "b1", worker: "w1:7", attempt: 2, result: result, at: Self.at))
                == "2025-03-01T12:34:56.789Z succeeded     batch=b1 job=j1 worker=w1:7 attempt=2 40x30 png 41.3 KB cache=disk 6.5 ms → /out/cat.png")
        #expect(
            EventFormatting.line(
                .failed(
                    job: id, batch: "b1", worker: "w1", attempt: 1,
                    error: JobError(code: "source.timeout", message: "took too long"), willRetry: true, at: Self.at))
                == "2025-03-01T12:34:56.789Z failed        batch=b1 job=j1 worker=w1 attempt=1 source.timeout: took too long (will retry)")
        #expect(
            EventFormatting.line(
                .dead(
                    job: id, batch: "b 2", worker: nil, attempt: 5,
                    error: JobError(code: "queue.stalled", message: "gone"), at: Self.at))
                == "2025-03-01T12:34:56.789Z dead          batch=\"b 2\" job=j1 attempt=5 queue.stalled: gone")
        #expect(
            EventFormatting.line(.workerOnline(worker: "host:1", at: Self.at))
                == "2025-03-01T12:34:56.789Z workerOnline  worker=host:1")
    }

    @Test("Text from Redis cannot put control characters or escape sequences on the terminal")
    func sanitising() throws {
        let id = try #require(JobID(rawValue: "j1"))
        let event = JobEvent.failed(
            job: id, batch: "b1", worker: "evil\u{1B}]0;pwned\u{07}", attempt: 1,
            error: JobError(code: "x", message: "line1\nline2\u{9B}31m"), willRetry: false, at: Self.at)
        let line = EventFormatting.line(event)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(line.hasSuffix("worker=evil?]0;pwned? attempt=1 x: line1?line2?31m (final)"))
    }

    @Test("--json prints exactly the stored record, which decodes back to the same event")
    func jsonIsTheRecord() throws {
        let id = try #require(JobID(rawValue: "j1"))
        let event = JobEvent.succeeded(job: id, batch: "b1", worker: "w", attempt: 1, result: QueueCLITestKit.result(), at: Self.at, id: "e1")
        let text = try EventFormatting.json(event)
        #expect(text == String(decoding: try event.jsonData(), as: UTF8.self))
        #expect(JobEvent.decode(Data(text.utf8)) == .event(event))
        #expect(text.hasPrefix(#"{"at":"2025-03-01T12:34:56.789Z","attempt":1,"batch":"b1","id":"e1","job":"j1","result":{"#))
    }

    @Test("Byte counts, rates and clock times read naturally")
    func numbers() {
        #expect(EventFormatting.byteCount(512) == "512 B")
        #expect(EventFormatting.byteCount(1536) == "1.5 KB")
        #expect(EventFormatting.byteCount(5 * 1_048_576) == "5.0 MB")
        #expect(ProgressBar.grouped(1_234_567) == "1,234,567")
        #expect(ProgressBar.grouped(999) == "999")
        #expect(ProgressBar.formatRate(2048.4) == "2,048")
        #expect(ProgressBar.formatRate(3.14) == "3.1")
        #expect(ProgressBar.clock(75.2) == "1:16")
        #expect(ProgressBar.clock(3725) == "1:02:05")
        #expect(ProgressBar.clock(.infinity) == "--")
        #expect(ProgressBar.clock(1e9) == ">99h")
    }

    @Test("The bar shows count, percent, failures, rate and ETA, and fits the terminal width")
    func barText() {
        let line = ProgressBar.render(
            title: "enqueue b1", finished: 250, failed: 3, total: 1000, rate: 50,
            elapsed: .seconds(5), done: false, width: 100)
        #expect(line == "enqueue b1 [#######-----------------------] 250/1,000  25%  3 failed  50.0/s  ETA 0:15")
        let done = ProgressBar.render(
            title: "b", finished: 10, failed: 0, total: 10, rate: nil, elapsed: .seconds(65),
            done: true, width: 80)
        #expect(done.hasSuffix("] 10/10 100%  in 1:05"))
        let narrow = ProgressBar.render(
            title: "enqueue b1", finished: 250, failed: 0, total: 1000, rate: nil,
            elapsed: .zero, done: false, width: 30)
        #expect(narrow.count <= 29)
        #expect(!narrow.contains("["))
    }

    @Test("A bar draws only when enabled, always draws completion, and finish ends the line once")
    func barDrawing() {
        let written = Locked<[String]>([])
        let bar = ProgressBar(total: 4, title: "t", enabled: true, width: { 80 }, output: { text in written.withLock { $0.append(text) } })
        bar.update(finished: 1, failed: 0)
        bar.update(finished: 4, failed: 1)
        bar.finish()
        bar.finish()
        let output = written.withLock { $0 }
        #expect(output.first?.hasPrefix("\rt [") == true)
        #expect(output.contains { $0.contains("4/4 100%  1 failed") })
        #expect(output.last == "\n")
        #expect(output.filter { $0 == "\n" }.count == 1)

        let silent = Locked<[String]>([])
        let off = ProgressBar(total: 4, title: "t", enabled: false, width: { 80 }, output: { text in silent.withLock { $0.append(text) } })
        off.update(finished: 4, failed: 0)
        off.finish()
        #expect(silent.withLock { $0 }.isEmpty)
    }

    @Test("The wait summary counts outcomes, lists failures and says how to see the rest")
    func waitSummary() throws {
        let failures = (1...2).map { index in
            BatchFailure(
                .failed(
                    job: JobID(rawValue: "j\(index)")!, batch: "b1", worker: "w", attempt: 1,
                    error: JobError(code: "source.not-found", message: "no such file"), willRetry: false))!
        }
        let result = BatchWaitResult(
            batch: "b1", progress: BatchProgress(total: 10, succeeded: 6, failed: 3, dead: 1, cancelled: 0),
            timedOut: false, failures: failures, elapsed: .milliseconds(40), duration: .milliseconds(2500))
        let summary = WaitSummary(result)
        #expect(
            summary.lines == [
                "batch b1: 10 jobs — 6 succeeded, 3 failed, 1 dead, 0 cancelled (2.5 s)",
                "  failed job=j1 attempt=1 source.not-found: no such file",
                "  failed job=j2 attempt=1 source.not-found: no such file",
                "  … 2 more: darkroom events --batch b1 --type failed,dead",
            ])
        #expect(summary.exitCode.rawValue == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try summary.json().utf8)) as? [String: Any])
        #expect(json["total"] as? Int == 10)
        #expect(json["timedOut"] as? Bool == false)
        #expect(json["seconds"] as? Double == 2.5)
        #expect(json["measured"] as? String == "batch")
        #expect((json["failures"] as? [[String: Any]])?.first?["code"] as? String == "source.not-found")

        let ok = WaitSummary(
            BatchWaitResult(
                batch: "b", progress: BatchProgress(total: 2, succeeded: 2), timedOut: false,
                failures: [], elapsed: .seconds(1)))
        #expect(ok.exitCode.rawValue == 0)
        // Without the batch's times (a record from before they were kept) it is the wait's own.
        #expect(ok.lines == ["batch b: 2 jobs — 2 succeeded, 0 failed, 0 dead, 0 cancelled (waited 1.0 s)"])
        #expect(ok.measured == "wait")
        let late = WaitSummary(
            BatchWaitResult(
                batch: "b", progress: BatchProgress(total: 2, succeeded: 1), timedOut: true,
                failures: [], elapsed: .seconds(3)))
        #expect(late.exitCode.rawValue == 124)
        #expect(late.lines[0] == "batch b: timed out after 3.0 s with 1 of 2 jobs unfinished; so far 1 succeeded, 0 failed, 0 dead, 0 cancelled")
    }
}
