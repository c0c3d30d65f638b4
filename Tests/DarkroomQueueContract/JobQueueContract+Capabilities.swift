import DarkroomQueue
import Foundation
import Testing

/// The contract for jobs that require capabilities (`Job.requires`): a consumer is handed only the
/// jobs whose requirements it offers, in priority order, and the others wait for one that offers
/// them — through delays, retries, releases, reclaims and dead letters alike.
extension JobQueueContract {
    static func gated(
        _ name: String, _ requires: [String]?, priority: JobPriority = .normal, notBefore: Timestamp? = nil, at now: Timestamp
    ) -> Job {
        var job = Kit.job(name, priority: priority, notBefore: notBefore, at: now)
        job.requires = requires
        return job
    }

    /// Given jobs requiring nothing, `x`, `x`+`y` and (high) `y`, then a consumer offering nothing
    /// gets only the first, one offering `x` only the second, and one offering both the high job
    /// first; counts and cancel see every lane.
    public static func consumersGetOnlyWhatTheyOffer(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([
                gated("plain", nil, at: now), gated("x", ["x"], at: now), gated("xy", ["x", "y"], at: now),
                gated("y-high", ["y"], priority: .high, at: now), gated("x-low", ["x"], priority: .low, at: now),
            ])
            let counts = try await driver.counts()
            #expect(counts.ready == [.high: 1, .normal: 3, .low: 1])
            #expect(try await driver.reserve(consumer: "none", max: 10, wait: .zero).map(\.job.id.rawValue) == ["plain"])
            #expect(try await driver.reserve(consumer: "x", max: 1, wait: .zero, offering: ["x"]).map(\.job.id.rawValue) == ["x"])
            #expect(try await driver.reserve(consumer: "none", max: 10, wait: .zero).isEmpty)
            let both = try await driver.reserve(consumer: "xy", max: 2, wait: .zero, offering: ["x", "y", "z"])
            #expect(both.map(\.job.id.rawValue) == ["y-high", "xy"])
            #expect(both.first?.job.requires == ["y"])
            #expect(try await driver.cancel(batch: "b1") == 1)
            #expect(try await driver.counts().readyTotal == 0)
        }
    }

    /// A job requiring `x` keeps its requirement when it is delayed, retried, released or
    /// dead-lettered and queued again: a consumer offering nothing never gets it.
    public static func requirementsSurviveEveryRequeue(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([gated("a", ["x"], notBefore: now.adding(unit), at: now)])
            try await harness.advance(unit * 2)
            #expect(try await driver.reserve(consumer: "none", max: 1, wait: .zero).isEmpty)
            let first = try #require(try await driver.reserve(consumer: "x", max: 1, wait: .zero, offering: ["x"]).first)
            #expect(
                try await driver.retry(first, after: unit, error: JobError(code: "source.timeout", message: "t")) == .scheduled(at: harness.now().adding(unit)))
            try await harness.advance(unit * 2)
            #expect(try await driver.reserve(consumer: "none", max: 1, wait: .zero).isEmpty)
            let second = try #require(try await driver.reserve(consumer: "x", max: 1, wait: .zero, offering: ["x"]).first)
            #expect(second.attempt == 2)
            #expect(try await driver.release(second, after: .zero))
            #expect(try await driver.reserve(consumer: "none", max: 1, wait: .zero).isEmpty)
            let third = try #require(try await driver.reserve(consumer: "x", max: 1, wait: .zero, offering: ["x"]).first)
            #expect(try await driver.deadLetter(third, error: JobError(code: "image.corrupt", message: "c")))
            #expect(try await driver.retryDeadLetters(ids: nil) == 1)
            #expect(try await driver.reserve(consumer: "none", max: 1, wait: .zero).isEmpty)
            let fourth = try #require(try await driver.reserve(consumer: "x", max: 1, wait: .zero, offering: ["x"]).first)
            #expect(fourth.job.requires == ["x"])
            #expect(try await driver.acknowledge(fourth, outcome: .succeeded(Kit.result)))
        }
    }

    /// A stale job requiring `x` is reclaimed only by a consumer offering `x`; one offering
    /// nothing neither takes it nor buries it.
    public static func staleJobsAreReclaimedOnlyByCapableConsumers(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 2) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([gated("a", ["x"], at: harness.now())])
            _ = try #require(try await driver.reserve(consumer: "A", max: 1, wait: .zero, offering: ["x"]).first)
            try await harness.advance(unit * 2)
            let blind = try await driver.reclaimStale(consumer: "B", max: 10)
            #expect(blind.deliveries.isEmpty && blind.deadLettered == 0)
            let able = try await driver.reclaimStale(consumer: "C", max: 10, offering: ["x"])
            #expect(able.deliveries.map(\.job.id.rawValue) == ["a"])
            #expect(able.deliveries.first?.deliveryCount == 2)
        }
    }
}
