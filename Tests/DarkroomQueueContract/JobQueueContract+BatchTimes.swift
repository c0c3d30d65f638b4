import DarkroomQueue
import Testing

/// The contract for a batch's times: when its first jobs were enqueued and when its latest job
/// ended, kept beside its counts (what `darkroom wait` reports a batch's duration from).
extension JobQueueContract {
    /// `enqueuedAt` is set once, by the first enqueue that adds a job; `endedAt` follows every
    /// terminal outcome (a single or a group acknowledgement, a dead letter, a cancellation) and
    /// never goes back; an unknown batch has no times.
    public static func batchTimesSpanFirstEnqueueToLatestEnd(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 1) { harness, unit in
            let driver = harness.driver
            #expect(try await driver.batchTimes("b1") == nil)
            _ = try await driver.enqueue(["a", "b", "c", "d"].map { Kit.job($0, at: harness.now()) })
            let enqueued = try #require(try await driver.batchTimes("b1"))
            #expect(enqueued.endedAt == nil)
            #expect(enqueued.duration == nil)
            try await harness.advance(unit)
            _ = try await driver.enqueue([Kit.job("a", at: harness.now()), Kit.job("e", at: harness.now())])
            #expect(try await driver.batchTimes("b1")?.enqueuedAt == enqueued.enqueuedAt)

            let deliveries = try await driver.reserve(consumer: "w1", max: 3, wait: .zero)
            guard deliveries.count == 3 else { return }
            var latest = enqueued.enqueuedAt
            /// The times after one more ending: the same start, an end no earlier than before.
            func expectEnded() async throws {
                let times = try #require(try await driver.batchTimes("b1"))
                #expect(times.enqueuedAt == enqueued.enqueuedAt)
                let ended = try #require(times.endedAt)
                #expect(ended >= latest)
                #expect(times.duration == ended.duration(since: times.enqueuedAt))
                latest = ended
            }
            try await harness.advance(unit)
            #expect(try await driver.acknowledge(deliveries[0], outcome: .succeeded(Kit.result)))
            try await expectEnded()
            #expect(try await driver.acknowledge([(delivery: deliveries[1], outcome: .failed(JobError(code: "image.corrupt", message: "x")))]) == [true])
            try await expectEnded()
            #expect(try await driver.retry(deliveries[2], after: .zero, error: JobError(code: "source.timeout", message: "y")) == .deadLettered)
            try await expectEnded()
            #expect(try await driver.cancel(jobs: [Kit.id("d"), Kit.id("e")]) == 2)
            try await expectEnded()
            #expect(try await driver.batchProgress("b1")?.isComplete == true)
        }
    }
}
