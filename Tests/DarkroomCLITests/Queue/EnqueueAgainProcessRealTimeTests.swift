import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

/// Enqueueing the same work again, as a web request retried after a timeout does: the built
/// `darkroom` binary against a real `redis-server`, this test process finishing the jobs.
@Suite("enqueue again: the batch reports the job's outcome, and the summary says where known jobs are", .serialized, .realTime)
struct EnqueueAgainProcessRealTimeTests {
    typealias Kit = QueueCLITestKit
    typealias Setup = QueueCommandProcessRealTimeTests.Setup

    @Test("enqueue && wait twice: the second enqueue adds nothing, and wait exits 0 reporting the job that succeeded")
    func enqueueAndWaitAgain() async throws {
        let setup = try Setup()
        let command = ["enqueue", "/data/a.jpg", "-p", "blur(1)", "--id-from-source", "--batch", "upload-7"]
        let first = try setup.run(command)
        #expect(first.output == "batch upload-7: 1 job enqueued\n", "\(first.error)")
        try await Kit.finish(setup.queue) { _ in .succeeded(Kit.result()) }
        #expect(try setup.run(["wait", "upload-7"]).status == 0)

        let again = try setup.run(command)
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output == "batch upload-7: 0 jobs enqueued (1 already known: 1 in this batch)\n")
        let wait = try setup.run(["wait", "upload-7", "--timeout", "10"])
        #expect(wait.status == 0, "\(wait.error)")
        #expect(wait.output.hasPrefix("batch upload-7: 1 job — 1 succeeded, 0 failed"), "\(wait.output)")
        #expect(try await setup.queue.counts().readyTotal == 0)

        // Another size of the same upload is other work: a new job, in the same batch.
        let bigger = try setup.run(["enqueue", "/data/a.jpg", "-p", "blur(2)", "--id-from-source", "--batch", "upload-7"])
        #expect(bigger.output == "batch upload-7: 1 job enqueued\n", "\(bigger.error)")
        #expect(try await setup.queue.batchProgress("upload-7") == BatchProgress(total: 2, succeeded: 1))
    }

    @Test("Without --batch, the same request with given ids lands in the same batch, so wait finds it")
    func derivedBatch() async throws {
        let setup = try Setup()
        let command = ["enqueue", "/data/a.jpg", "/data/b.jpg", "-p", "blur(1)", "--id-from-source", "--json"]
        let first = try Self.summary(try setup.run(command))
        let batch = try #require(first["batch"] as? String)
        #expect(batch.hasPrefix("ids-"))
        try await Kit.finish(setup.queue) { _ in .succeeded(Kit.result()) }
        let again = try Self.summary(try setup.run(command))
        #expect(again["batch"] as? String == batch)
        #expect(again["enqueued"] as? Int == 0)
        #expect(again["knownInBatch"] as? Int == 2)
        let wait = try setup.run(["wait", batch])
        #expect(wait.status == 0, "\(wait.error)")
        #expect(wait.output.hasPrefix("batch \(batch): 2 jobs — 2 succeeded"), "\(wait.output)")
    }

    @Test("A job known in another batch is skipped and the summary names that batch")
    func knownElsewhere() async throws {
        let setup = try Setup()
        _ = try setup.run(["enqueue", "--from", "-", "-p", "blur(1)", "--batch", "first"], input: "{\"source\": \"/data/a.jpg\", \"id\": \"a\"}\n")
        let other = try setup.run(
            ["enqueue", "--from", "-", "-p", "blur(1)", "--batch", "second"],
            input: "{\"source\": \"/data/a.jpg\", \"id\": \"a\"}\n{\"source\": \"/data/b.jpg\", \"id\": \"b\"}\n")
        #expect(other.status == 0, "\(other.error)")
        #expect(other.output == "batch second: 1 job enqueued (1 already known: 1 in batch first)\n")
        let only = try setup.run(
            ["enqueue", "--from", "-", "-p", "blur(1)", "--batch", "third", "--json"], input: "{\"source\": \"/data/a.jpg\", \"id\": \"a\"}\n")
        #expect(only.error.contains("batch third holds none of these jobs"), "\(only.error)")
        #expect(only.error.contains("darkroom wait first"))
        let summary = try Self.summary(only)
        #expect((summary["knownElsewhere"] as? [[String: Any]])?.first?["batch"] as? String == "first")
        #expect(try await setup.queue.batchProgress("first") == BatchProgress(total: 1))
        #expect(try await setup.queue.batchProgress("second") == BatchProgress(total: 1))
        #expect(try await setup.queue.batchProgress("third") == nil)
    }

    static func summary(_ run: Kit.Run) throws -> [String: Any] {
        guard run.status == 0 else { throw Kit.Failure("enqueue failed: \(run.error)") }
        return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }
}
