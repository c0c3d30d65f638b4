import DarkroomQueue
import DarkroomSystem
import Foundation
import Testing

/// A driver with every capability: the contract checks the core and each capability protocol.
public typealias ContractDriver = JobQueueDriver & CancellableJobQueue & DeadLetterQueue & ProgressReportingQueue & RequirementAmendingQueue
    & WorkerRegistry

/// What the contract suite needs from a driver under test. The memory driver moves a manual clock;
/// the Redis driver sleeps for real (with a short visibility timeout) and writes raw stream entries.
public struct QueueContractHarness: Sendable {
    /// The driver under test, fresh and empty.
    public var driver: any ContractDriver
    /// Lets `duration` pass as the driver sees time.
    public var advance: @Sendable (Duration) async throws -> Void
    /// The time the driver compares `notBefore` with.
    public var now: @Sendable () -> Timestamp
    /// Writes an entry as a foreign producer would (no validation, no id bookkeeping).
    public var injectRaw: @Sendable (Data, JobPriority) async throws -> Void
    /// Releases what the harness started (a Redis server, say).
    public var finish: @Sendable () async -> Void = {}

    /// Spelled out because the drivers' test targets build harnesses from another module.
    public init(
        driver: any ContractDriver, advance: @escaping @Sendable (Duration) async throws -> Void,
        now: @escaping @Sendable () -> Timestamp,
        injectRaw: @escaping @Sendable (Data, JobPriority) async throws -> Void,
        finish: @escaping @Sendable () async -> Void = {}
    ) {
        self.driver = driver
        self.advance = advance
        self.now = now
        self.injectRaw = injectRaw
        self.finish = finish
    }
}

/// Makes a harness around a fresh driver with (at least) the given `maxAttempts`; the factory
/// chooses the visibility timeout, and the suite measures every wait in multiples of it.
public typealias QueueContractFactory = @Sendable (JobQueueConfiguration) async throws -> QueueContractHarness

/// Helpers for the contract suite (namespaced to avoid clashing with other test helpers).
public enum QueueContractKit {
    public static func id(_ text: String) -> JobID {
        // Test ids are short literals, always acceptable.
        JobID(rawValue: text) ?? JobID.make()
    }

    public static func job(
        _ name: String, batch: String = "b1", priority: JobPriority = .normal,
        notBefore: Timestamp? = nil, at now: Timestamp
    ) -> Job {
        Job(
            id: id(name), batch: batch, source: "/images/\(name).jpg", chain: "resize(100x100, mode: fit)",
            format: "webp", quality: 80, priority: priority, enqueuedAt: now, notBefore: notBefore)
    }

    public static let result = JobResult(
        output: "/out/a.webp", format: "webp", width: 100, height: 75, bytes: 2048,
        cache: .miss, ms: StageTimings(fetch: 1.5, decode: 2, process: 3, encode: 4, store: 0.25))

    /// Every retained event, oldest first.
    public static func allEvents(_ driver: any JobQueueDriver) async throws -> [JobEvent] {
        var cursor = EventCursor.start
        var events: [JobEvent] = []
        while true {
            let page = try await driver.readEvents(after: cursor, limit: 500, wait: .zero)
            guard let last = page.last else { return events }
            events += page.map(\.event)
            cursor = last.cursor
        }
    }

    /// Terminal events grouped by job.
    public static func terminalEvents(_ driver: any JobQueueDriver) async throws -> [JobID: [JobEvent]] {
        var byJob: [JobID: [JobEvent]] = [:]
        for event in try await allEvents(driver) where event.isTerminal {
            if let job = event.job { byJob[job, default: []].append(event) }
        }
        return byJob
    }

    /// Runs `body` on a fresh harness and always finishes it.
    public static func with(
        _ make: QueueContractFactory, maxAttempts: Int = 5,
        _ body: (QueueContractHarness, Duration) async throws -> Void
    ) async throws {
        let harness = try await make(JobQueueConfiguration(maxAttempts: maxAttempts))
        do {
            try await body(harness, harness.driver.configuration.visibilityTimeout)
        } catch {
            await harness.finish()
            throw error
        }
        await harness.finish()
    }
}

/// A small seeded generator (SplitMix64) so the randomized contract run is reproducible.
public struct QueueContractRandom: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
