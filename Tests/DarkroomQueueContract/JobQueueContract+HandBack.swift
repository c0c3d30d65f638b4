import DarkroomQueue
import Foundation
import Testing

/// The contract for handing a job back with an added requirement (`RequirementAmendingQueue`): a
/// worker that finds a HEIC source and has no HEIC module releases the job requiring
/// `decode:heic`, and only a worker offering that gets it, as the same attempt.
extension JobQueueContract {
    public static func releaseAddsRequirements(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([gated("photo", ["output-name"], at: harness.now())])
            let first = try #require(try await driver.reserve(consumer: "plain", max: 1, wait: .zero, offering: ["output-name"]).first)
            // Only the consumer holding the entry may hand it back.
            #expect(try await driver.release(first.withConsumer("other"), after: .zero, requiring: ["decode:heic"]) == false)
            #expect(try await driver.release(first, after: unit, requiring: ["decode:heic"]))
            #expect(try await driver.release(first, after: unit, requiring: ["decode:heic"]) == false)
            try await harness.advance(unit * 2)
            #expect(try await driver.reserve(consumer: "plain", max: 1, wait: .zero, offering: ["output-name"]).isEmpty)
            let second = try #require(
                try await driver.reserve(consumer: "heic", max: 1, wait: .zero, offering: ["decode:heic", "output-name"]).first)
            #expect(second.job.id == first.job.id)
            #expect(second.attempt == first.attempt)
            #expect(second.job.requires == ["decode:heic", "output-name"])
            #expect(try await driver.acknowledge(second, outcome: .succeeded(Kit.result)))
        }
    }
}

extension JobDelivery {
    /// The same delivery as if another consumer held it.
    fileprivate func withConsumer(_ consumer: String) -> JobDelivery {
        var copy = self
        copy.consumer = consumer
        return copy
    }
}
