import DarkroomQueue
import Testing

/// The contract of `extendLease`: a renewed lease is not reclaimed.
extension JobQueueContract {
    /// A consumer that keeps extending its lease keeps the job past the visibility timeout; once it
    /// stops, the job is reclaimed.
    public static func extendLeasePreventsReclaim(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("long", at: harness.now())])
            let delivery = try #require(try await driver.reserve(consumer: "A", max: 1, wait: .zero).first)
            try await harness.advance(unit * 6 / 10)
            #expect(try await driver.extendLease(delivery))
            try await harness.advance(unit * 6 / 10)
            #expect(try await driver.reclaimStale(consumer: "B", max: 10).deliveries.isEmpty)
            #expect(try await driver.extendLease(delivery))
            try await harness.advance(unit * 2)
            let reclaimed = try await driver.reclaimStale(consumer: "B", max: 10).deliveries
            #expect(reclaimed.map(\.deliveryCount) == [2])
        }
    }
}
