import DarkroomQueue

extension QueueTestKit {
    /// How `run(_:on:failures:then:consumer:clock:)` ends a job.
    public enum Ending: Sendable {
        case succeeded, dead
    }

    /// A job the queue delivered instead of the one `run` works.
    public struct UnexpectedDelivery: Error, CustomStringConvertible {
        public var description: String
    }

    /// Enqueues `job` and works it as a worker would, one attempt after another: each of the first
    /// `failures` attempts starts and fails with `net.timeout` ("try N"), retried at once (the
    /// queue's `maxAttempts` must allow it); the next attempt succeeds, or is dead-lettered
    /// (`queue.test`, "buried by the test"). `clock`, when given, moves a second after each
    /// failure, so each error has its own time. No other job may be ready meanwhile.
    public static func run(
        _ job: Job, on queue: any JobQueueDriver, failures: Int, then ending: Ending, consumer: String = "w",
        clock: ManualQueueClock? = nil
    ) async throws {
        _ = try await queue.enqueue([job])
        for attempt in 1...(failures + 1) {
            guard let delivery = try await queue.reserve(consumer: consumer, max: 1, wait: .zero).first, delivery.job.id == job.id else {
                throw UnexpectedDelivery(description: "attempt \(attempt) of \(job.id.rawValue) was not delivered")
            }
            try await queue.publish([.started(job: job.id, batch: job.batch, worker: consumer, attempt: delivery.attempt)])
            if attempt <= failures {
                _ = try await queue.retry(delivery, after: .zero, error: JobError(code: "net.timeout", message: "try \(attempt)"))
                clock?.advance(by: .seconds(1))
            } else if ending == .succeeded {
                _ = try await queue.acknowledge(delivery, outcome: .succeeded(result()))
            } else {
                _ = try await queue.deadLetter(delivery, error: JobError(code: "queue.test", message: "buried by the test"))
            }
        }
    }
}
