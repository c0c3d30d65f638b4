import DarkroomQueue
import Foundation
import Testing

/// The contract of a worker's combined call, `acknowledge(_:publishing:reserving:)`: events, then
/// acknowledgements, then a reservation, each as its own call would do it.
extension JobQueueContract {
    /// Given four jobs (one high, one requiring a capability) and one reserved by w1, when w1
    /// acknowledges it, publishing its `started`, and asks for two more, then the `started`
    /// precedes the terminal event, the job is finished once, and the two handed out are the high
    /// job and then the oldest normal one; asking again offering the capability hands out the
    /// gated job; a later combined call for the same finished delivery answers false and
    /// publishes nothing more; with nothing ready the reservation comes back empty at once.
    public static func acknowledgeAndReserveInOneCall(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([Kit.job("a", at: now), Kit.job("b", at: now)])
            let first = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            #expect(first.job.id == Kit.id("a"))
            var gated = Kit.job("g", at: now)
            gated.requires = ["x"]
            _ = try await driver.enqueue([Kit.job("h", priority: .high, at: now), gated])

            let started = JobEvent.started(job: first.job.id, batch: "b1", worker: "w1", attempt: 1, at: now)
            let answer = try await driver.acknowledge(
                [(delivery: first, outcome: .succeeded(Kit.result))], publishing: [started],
                reserving: NextReservation(consumer: "w1", max: 2))
            #expect(answer.acknowledged == [true])
            #expect(answer.reserved.map(\.job.id.rawValue) == ["h", "b"])
            #expect(answer.reserved.allSatisfy { $0.consumer == "w1" && $0.deliveryCount == 1 })

            let offered = try await driver.acknowledge([], publishing: [], reserving: NextReservation(consumer: "w1", max: 5, offering: ["x"]))
            #expect(offered.acknowledged.isEmpty)
            #expect(offered.reserved.map(\.job.id.rawValue) == ["g"])

            let again = try await driver.acknowledge(
                [(delivery: first, outcome: .succeeded(Kit.result))], publishing: [], reserving: NextReservation(consumer: "w1", max: 3))
            #expect(again.acknowledged == [false])
            #expect(again.reserved.isEmpty)

            let ofA = try await Kit.allEvents(driver).filter { $0.job == Kit.id("a") }.map(\.type)
            #expect(ofA == [.started, .succeeded])
            let held = answer.reserved + offered.reserved
            let rest = try await driver.acknowledge(held.map { (delivery: $0, outcome: .succeeded(Kit.result)) }, publishing: [], reserving: nil)
            #expect(rest.acknowledged == [true, true, true])
            #expect(try await driver.batchProgress("b1")?.succeeded == 4)
            #expect(try await driver.counts().pending == 0)
        }
    }

    /// A terminal event cannot be slipped in as a published event: the combined call refuses it
    /// (`invalidArgument`) and finishes nothing.
    public static func acknowledgeAndReserveRefusesTerminalEvents(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([Kit.job("a", at: now)])
            let delivery = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            let forged = JobEvent.succeeded(job: delivery.job.id, batch: "b1", worker: "w1", attempt: 1, result: Kit.result, at: now)
            await #expect(throws: JobQueueError.self) {
                _ = try await driver.acknowledge(
                    [(delivery: delivery, outcome: .succeeded(Kit.result))], publishing: [forged], reserving: nil)
            }
            #expect(try await driver.counts().pending == 1)
        }
    }
}
