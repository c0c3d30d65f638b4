import DarkroomQueue
import DarkroomSystem

/// Jobs, results and a hand-driven worker for tests of code that uses a queue: the test acts as
/// the fleet, so it decides when and how each job ends.
public enum QueueTestKit {
    public static func job(_ id: String, batch: String = "b1", source: String = "/data/a.jpg", chain: String = "blur(2)") -> Job {
        Job(id: JobID(rawValue: id)!, batch: batch, source: source, chain: chain)
    }

    public static func result(output: String? = "/cache/a", bytes: Int = 1234) -> JobResult {
        JobResult(
            output: output, format: "png", width: 40, height: 30, bytes: bytes, cache: .miss,
            ms: StageTimings(decode: 1.5, process: 2, encode: 3))
    }

    /// Acts as a worker: takes up to `count` jobs and ends each with `outcome(job)`:
    /// `.succeeded`, `.failed`, or nil to dead-letter it with `queue.test`.
    @discardableResult
    public static func finish(
        _ queue: any JobQueueDriver, count: Int = 1000, consumer: String = "test-worker",
        outcome: (Job) -> JobOutcome?
    ) async throws -> Int {
        let deliveries = try await queue.reserve(consumer: consumer, max: count, wait: .zero)
        for delivery in deliveries {
            try await queue.publish([
                .started(
                    job: delivery.job.id, batch: delivery.job.batch, worker: consumer,
                    attempt: delivery.attempt)
            ])
            if let outcome = outcome(delivery.job) {
                _ = try await queue.acknowledge(delivery, outcome: outcome)
            } else {
                _ = try await queue.deadLetter(delivery, error: JobError(code: "queue.test", message: "buried by the test"))
            }
        }
        return deliveries.count
    }
}
