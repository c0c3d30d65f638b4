import DarkroomQueue
import Testing

/// The contract of enqueueing a job again (a request retried after a timeout): the job is not run
/// again, it stays counted once where it was first enqueued, and the report says where it is.
extension JobQueueContract {
    /// Given a job that succeeded and one that failed in batch b1, when both are enqueued into b1
    /// again, then nothing is queued or announced, b1 still counts each once with its outcome, and
    /// the report says both are known in their own batch.
    public static func reenqueueIntoSameBatchReportsTheOutcome(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            let jobs = [Kit.job("ok", at: now), Kit.job("bad", at: now)]
            #expect(try await driver.enqueueReport(jobs, progress: nil) == EnqueueReport(added: 2))
            for delivery in try await driver.reserve(consumer: "w1", max: 10, wait: .zero) {
                let outcome: JobOutcome =
                    delivery.job.id == Kit.id("ok") ? .succeeded(Kit.result) : .failed(JobError(code: "image.corrupt", message: "corrupt"))
                #expect(try await driver.acknowledge(delivery, outcome: outcome))
            }
            let report = try await driver.enqueueReport(jobs + [Kit.job("ok", at: now)], progress: nil)
            #expect(report == EnqueueReport(added: 0, known: 3))
            #expect(report.knownInBatch == 3)
            #expect(try await driver.batchProgress("b1") == BatchProgress(total: 2, succeeded: 1, failed: 1))
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).isEmpty)
            #expect(try await Kit.allEvents(driver).filter { $0.type == .batchEnqueued }.map(\.count) == [2])
        }
    }

    /// Given jobs of batch b1 (one finished, one still queued), when they are enqueued into b2 with a
    /// new job, then only the new one is added and counted in b2; the known ones stay counted in b1
    /// only, and the report names b1 for them.
    public static func reenqueueIntoAnotherBatchNamesTheBatchThatHasIt(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([Kit.job("a", at: now), Kit.job("b", at: now)])
            let first = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            #expect(try await driver.acknowledge(first, outcome: .succeeded(Kit.result)))
            let report = try await driver.enqueueReport(
                [Kit.job("a", batch: "b2", at: now), Kit.job("b", batch: "b2", at: now), Kit.job("c", batch: "b2", at: now)],
                progress: nil)
            #expect(report == EnqueueReport(added: 1, known: 2, knownElsewhere: [.init(batch: "b1", count: 2)]))
            #expect(report.knownInBatch == 0)
            #expect(try await driver.batchProgress("b1") == BatchProgress(total: 2, succeeded: 1))
            #expect(try await driver.batchProgress("b2") == BatchProgress(total: 1))
            // Only known elsewhere: nothing is added, and b3 is not made.
            let elsewhere = try await driver.enqueueReport([Kit.job("a", batch: "b3", at: now)], progress: nil)
            #expect(elsewhere == EnqueueReport(added: 0, known: 1, knownElsewhere: [.init(batch: "b1", count: 1)]))
            #expect(try await driver.batchProgress("b3") == nil)
            let queued = try await driver.reserve(consumer: "w1", max: 10, wait: .zero).map(\.job)
            #expect(queued.map(\.id.rawValue) == ["b", "c"])
            #expect(queued.map(\.batch) == ["b1", "b2"])
        }
    }
}
