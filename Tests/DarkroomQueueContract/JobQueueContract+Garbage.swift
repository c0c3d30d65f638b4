import DarkroomQueue
import Foundation
import Testing

/// The contract for entries that are not jobs of this build: garbage and unknown versions.
extension JobQueueContract {
    /// Garbage is dead-lettered at once with its reason and no event; a record of an unknown
    /// version is left pending for newer workers and dead-lettered only after maxAttempts
    /// deliveries, with that reason and one `dead` event.
    public static func garbageAndUnknownVersionsAreDeadLettered(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 2) { harness, unit in
            let driver = harness.driver
            try await harness.injectRaw(Data("this is not json".utf8), .normal)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).isEmpty)
            var letters = try await driver.deadLetters(limit: 10)
            #expect(letters.count == 1)
            #expect(letters.first?.error.code == JobError.garbageCode)
            #expect(letters.first?.payload == Data("this is not json".utf8))
            #expect(try await Kit.allEvents(driver).isEmpty)

            let future = #"{"version":2,"id":"v2job","batch":"b9","spec":"something new"}"#
            try await harness.injectRaw(Data(future.utf8), .high)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).isEmpty)
            #expect(try await driver.counts().pending == 1)
            try await harness.advance(unit * 2)
            let second = try await driver.reclaimStale(consumer: "w2", max: 10)
            #expect(second.deliveries.isEmpty)
            #expect(second.deadLettered == 0)
            try await harness.advance(unit * 2)
            #expect(try await driver.reclaimStale(consumer: "w3", max: 10).deadLettered == 1)
            letters = try await driver.deadLetters(limit: 10)
            #expect(letters.map(\.error.code) == [JobError.garbageCode, JobError.unknownVersionCode])
            let dead = try await Kit.allEvents(driver).filter { $0.type == .dead }
            #expect(dead.map(\.job?.rawValue) == ["v2job"])
            #expect(dead.first?.batch == "b9")
            #expect(try await driver.counts().pending == 0)
        }
    }
}
