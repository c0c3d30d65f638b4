import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Logging
import Testing

@testable import DarkroomCoordinator

/// The coordinator's projections, lease, trimming and housekeeping over a real redis-server, with
/// the queue's own operations producing the events (as workers would).
@Suite("Coordinator projections in Redis")
struct ProjectionTests {
    /// A fresh server, a queue on a manual clock, and a way to run coordinators against it.
    struct Fleet {
        let server: RedisTestServer
        let client: RedisClient
        let clock = ManualQueueClock(start: .now())
        let queue: RedisStreamsQueue
        /// The coordinator's state beside the queue.
        var store: RedisCoordinatorStore { RedisCoordinatorStore(queue: queue) }

        init(retention: Int = 100_000, maxAttempts: Int = 5) throws {
            server = try RedisTestServer()
            client = RedisClient(url: try RedisURL(server.url))
            queue = RedisStreamsQueue(
                client: client, configuration: JobQueueConfiguration(maxAttempts: maxAttempts, eventRetention: retention), clock: clock)
        }

        func coordinator(
            _ name: String, streamCap: Int = 1_000_000, log: EventLogConfiguration? = nil, offlineGrace: Duration = .seconds(3600),
            trimFloor: EventCursor? = nil
        ) -> Coordinator {
            var configuration = Coordinator.Configuration(
                eventLog: log, batchSize: 7, pollWait: .milliseconds(20), name: name, leaseTTL: .seconds(3),
                streamCap: streamCap, housekeepingInterval: .milliseconds(20), workerOfflineGrace: offlineGrace)
            if let trimFloor { configuration.trimFloor = { trimFloor } }
            return Coordinator(
                queue: queue, store: store, configuration: configuration,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        }

        /// Runs `coordinator` until `done` holds for its progress, then stops it gracefully.
        func run(_ coordinator: Coordinator, until done: @escaping (CoordinatorProgress) async throws -> Bool) async throws {
            let running = Task { try await coordinator.run() }
            // A bound on the polling only, not a timing: a coordinator that never gets there fails.
            var polls = 0
            while try await !done(coordinator.snapshot), polls < 1500 {
                try await Task.sleep(for: .milliseconds(20))
                polls += 1
            }
            coordinator.shutdownGracefully()
            try await running.value
            #expect(try await done(coordinator.snapshot), "the coordinator did not get there")
        }

        /// Runs a coordinator until its projections hold every event published so far.
        func catchUp(_ coordinator: Coordinator) async throws {
            let latest = try await queue.latestEventCursor()
            try await run(coordinator) { progress in
                guard let target = StreamPosition(latest), latest != .start else {
                    return try await store.coordinatorRegistration() != nil
                }
                return progress.projectionCheckpoint.flatMap(StreamPosition.init).map { $0 >= target } ?? false
            }
        }

        func close() { client.close() }
    }

    static func outcome(_ job: Job) -> JobOutcome? {
        switch job.id.rawValue.last {
        case "1", "2", "3": .succeeded(QueueTestKit.result())
        case "4": .failed(JobError(code: "image.corrupt", message: "bad bytes"))
        default: nil
        }
    }

    @Test("Jobs, batches and workers are projected exactly from what the queue published")
    func projectsExactly() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        try await fleet.queue.publish([.workerOnline(worker: "w")])
        _ = try await fleet.queue.enqueue((1...6).map { QueueTestKit.job("j\($0)", batch: "b") })
        // j1–j3 succeed, j4 fails for good, j5 is dead-lettered; j6 starts and is still running.
        try await QueueTestKit.finish(fleet.queue, count: 5, consumer: "w", outcome: Self.outcome)
        let running = try await fleet.queue.reserve(consumer: "w", max: 1, wait: .zero)
        try await fleet.queue.publish([.started(job: running[0].job.id, batch: "b", worker: "w", attempt: 1)])

        try await fleet.catchUp(fleet.coordinator("c1"))

        let succeeded = try #require(try await fleet.store.jobProjection(JobID(rawValue: "j1")!))
        #expect(succeeded.latest.type == .succeeded)
        #expect(succeeded.starts == 1)
        #expect(succeeded.durationMilliseconds != nil)
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "j4")!)?.latest.error?.code == "image.corrupt")
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "j5")!)?.latest.type == .dead)
        // What each ended job was, for `status --job`: on its terminal event, not on a start.
        #expect((succeeded.latest.source, succeeded.latest.chain) == ("/data/a.jpg", "blur(2)"))
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "j5")!)?.latest.chain == "blur(2)")
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "j6")!)?.latest.source == nil)
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "j6")!)?.latest.type == .started)
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "nope")!) == nil)

        let batch = try #require(try await fleet.store.batchProjection("b"))
        #expect(batch.running == 1)
        #expect(batch.queued == 0)
        #expect(batch.p50Milliseconds != nil)
        #expect(batch.p95Milliseconds != nil)
        let counters = try #require(try await fleet.queue.batchProgress("b"))
        #expect((counters.total, counters.succeeded, counters.failed, counters.dead) == (6, 3, 1, 1))

        let workers = try await fleet.store.workerProjections()
        #expect(workers == [WorkerProjection(name: "w", state: .online, jobsDone: 5, errors: 2, currentJobs: 1, lastEventAt: workers.first?.lastEventAt)])
    }

    @Test("Stopped and restarted between pages, the coordinator counts every event once")
    func restartCountsOnce() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        _ = try await fleet.queue.enqueue((1...20).map { QueueTestKit.job("a\($0)", batch: "b") })
        try await QueueTestKit.finish(fleet.queue, count: 10, consumer: "w") { _ in .succeeded(QueueTestKit.result()) }
        try await fleet.catchUp(fleet.coordinator("c1"))
        try await QueueTestKit.finish(fleet.queue, count: 10, consumer: "w") { _ in .succeeded(QueueTestKit.result()) }
        // A second run (a restart) from the stored checkpoint: earlier events are not folded again.
        try await fleet.catchUp(fleet.coordinator("c1"))

        #expect(try await fleet.store.workerProjections().first?.jobsDone == 20)
        let batch = try #require(try await fleet.store.batchProjection("b"))
        #expect((batch.running, batch.queued) == (0, 0))
        #expect(try await fleet.store.coordinatorRegistration()?.checkpoint == fleet.queue.latestEventCursor())
    }

    @Test("A second coordinator waits for the lease and takes over where the first stopped")
    func leaseElectsOne() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        _ = try await fleet.queue.enqueue((1...5).map { QueueTestKit.job("l\($0)", batch: "b") })
        let first = fleet.coordinator("c1")
        let second = fleet.coordinator("c2")
        let running = Task { try await first.run() }
        var polls = 0
        while !first.snapshot.isLeader, polls < 1500 {
            try await Task.sleep(for: .milliseconds(20))
            polls += 1
        }
        // While c1 leads, c2 only waits: it never folds an event.
        let waiting = Task { try await second.run() }
        polls = 0
        while second.snapshot.waitingFor == nil, polls < 1500 {
            try await Task.sleep(for: .milliseconds(20))
            polls += 1
        }
        #expect(second.snapshot.waitingFor == "c1")
        #expect(second.snapshot.eventsProjected == 0)
        first.shutdownGracefully()
        try await running.value

        try await QueueTestKit.finish(fleet.queue, count: 5, consumer: "w") { _ in .succeeded(QueueTestKit.result()) }
        let latest = try await fleet.queue.latestEventCursor()
        polls = 0
        while second.snapshot.projectionCheckpoint != latest, polls < 1500 {
            try await Task.sleep(for: .milliseconds(20))
            polls += 1
        }
        second.shutdownGracefully()
        try await waiting.value
        #expect(second.snapshot.projectionCheckpoint == latest)
        #expect(try await fleet.store.workerProjections().first?.jobsDone == 5)
    }

    @Test("While registered, publishers keep unread events up to the cap and the coordinator trims behind what it read")
    func trimsBehindCheckpoint() async throws {
        let fleet = try Fleet(retention: 10)
        defer { fleet.close() }
        try await fleet.catchUp(fleet.coordinator("c1", streamCap: 5000))
        // Registered but not running: 600 events stay, although the retention is 10.
        for start in stride(from: 0, to: 600, by: 100) {
            try await fleet.queue.publish((start..<start + 100).map { JobEvent.workerOnline(worker: "w\($0)") })
        }
        #expect(try await fleet.queue.readEvents(after: .start, limit: 1000, wait: .zero).count == 600)

        // Running, it reads them all and trims: the stream keeps at least `retention` read events.
        let coordinator = fleet.coordinator("c1", streamCap: 5000)
        try await fleet.run(coordinator) { _ in
            try await fleet.queue.readEvents(after: .start, limit: 1000, wait: .zero).count < 600
        }
        let left = try await fleet.queue.readEvents(after: .start, limit: 1000, wait: .zero)
        #expect(left.count >= 10)
        #expect(left.last?.event.worker == "w599")
        #expect(coordinator.snapshot.gaps == 0)
    }

    @Test("Trimming never passes another reader's floor (the webhook notifier's checkpoint)")
    func trimsNoFurtherThanTheFloor() async throws {
        let fleet = try Fleet(retention: 10)
        defer { fleet.close() }
        // Registered, so publishers keep the events for it.
        try await fleet.catchUp(fleet.coordinator("c1", streamCap: 5000))
        for start in stride(from: 0, to: 600, by: 100) {
            try await fleet.queue.publish((start..<start + 100).map { JobEvent.workerOnline(worker: "w\($0)") })
        }
        let all = try await fleet.queue.readEvents(after: .start, limit: 1000, wait: .zero)
        try #require(all.count == 600)
        let floor = all[299].cursor
        let coordinator = fleet.coordinator("c1", streamCap: 5000, trimFloor: floor)
        try await fleet.run(coordinator) { _ in
            try await fleet.queue.readEvents(after: .start, limit: 1000, wait: .zero).count < 600
        }
        let left = try await fleet.queue.readEvents(after: .start, limit: 1000, wait: .zero)
        // Everything from the floor on is kept, though the retention is 10.
        #expect(left.count >= 301)
        #expect(left.contains { $0.cursor == floor })
        #expect(left.last?.event.worker == "w599")
    }

    @Test("Due delayed jobs are moved into their streams with no worker reserving")
    func promotesDueDelayedJobs() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        let due = fleet.clock.now().adding(.seconds(60))
        _ = try await fleet.queue.enqueue([
            Job(id: JobID(rawValue: "d1")!, batch: "b", source: "/a.jpg", chain: "blur(2)", notBefore: due)
        ])
        #expect(try await fleet.queue.counts().delayed == 1)
        fleet.clock.advance(by: .seconds(120))
        try await fleet.run(fleet.coordinator("c1")) { $0.delayedJobsPromoted == 1 }
        let counts = try await fleet.queue.counts()
        #expect((counts.delayed, counts.ready[.normal]) == (0, 1))
    }
}
