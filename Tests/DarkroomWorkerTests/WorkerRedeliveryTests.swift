import DarkroomQueue
import DarkroomWorker
import Testing

/// A redelivered job (its worker vanished, maybe killed by it) runs alone on the worker that takes
/// it. The source holds fetches for as long as the test says, so the jobs that could overlap are
/// in flight together; the queue's clock moves only by hand.
@Suite("Worker redeliveries: a job whose worker vanished runs alone")
struct WorkerRedeliveryTests {
    static let visibility = Duration.seconds(600)

    @Test("A redelivered job waits for the jobs in hand, then runs alone: no job starts beside it until it is acknowledged")
    func redeliveredJobRunsAlone() async throws {
        let source = try OverlapSource(holding: ["/f1.jpg", "/f2.jpg", "/s.jpg"])
        defer { source.stop() }
        let clock = ManualQueueClock()
        let queue = MemoryQueue(configuration: JobQueueConfiguration(visibilityTimeout: Self.visibility), clock: clock)
        let redelivered = WorkerTestKit.job(source.url("/s.jpg"))
        _ = try await queue.enqueue([redelivered])
        // A worker took it and vanished.
        #expect(try await queue.reserve(consumer: "vanished", max: 1, wait: .zero).count == 1)
        clock.advance(by: Self.visibility / 2)
        let first = ["/f1.jpg", "/f2.jpg"].map { WorkerTestKit.job(source.url($0)) }
        _ = try await queue.enqueue(first)
        let worker = Self.worker(queue, source: source, concurrency: 3, clock: clock)
        let running = WorkerTestKit.Running(worker)
        #expect(await WorkerTestKit.eventually { source.inFlight == ["/f1.jpg", "/f2.jpg"] })

        // Its lease goes stale (not those of the two in hand, taken half a timeout later), and the
        // worker reclaims it into its free slot — to wait there while the other two run.
        clock.advance(by: Self.visibility / 2 + .milliseconds(1))
        #expect(await WorkerTestKit.advancing(clock) { await WorkerTestKit.eventually { worker.jobsWaiting == 1 } })
        #expect(source.fetches("/s.jpg") == 0)
        let later = ["/g1.jpg", "/g2.jpg"].map { WorkerTestKit.job(source.url($0)) }
        _ = try await queue.enqueue(later)
        source.release(["/f1.jpg", "/f2.jpg"])
        #expect(await WorkerTestKit.eventually { source.inFlight == ["/s.jpg"] })
        // It runs alone: the jobs enqueued meanwhile stay in the queue.
        #expect(worker.jobsWaiting == 0 && worker.jobsRunning == 1)
        #expect(try await queue.counts().ready[.normal] == 2)
        source.release(["/s.jpg"])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let endings = Self.endings(of: first + [redelivered] + later, in: events)
        #expect(endings.values.allSatisfy { $0.type == .succeeded })
        #expect(endings[redelivered.id]?.attempt == 2)
        #expect(source.overlaps(of: "/s.jpg").isEmpty)
        #expect(source.overlaps(of: "/f1.jpg").contains("/f2.jpg"))
        // Started once the two before it were acknowledged; the later ones once it was.
        for job in first { Self.expectOrder(.succeeded, of: job, before: .started, of: redelivered, in: events) }
        for job in later { Self.expectOrder(.succeeded, of: redelivered, before: .started, of: job, in: events) }
    }

    @Test("First deliveries still run together, as many at once as the worker's concurrency")
    func firstDeliveriesRunTogether() async throws {
        let paths = ["/1.jpg", "/2.jpg", "/3.jpg", "/4.jpg"]
        let source = try OverlapSource(holding: Set(paths))
        defer { source.stop() }
        let queue = MemoryQueue()
        let jobs = paths.map { WorkerTestKit.job(source.url($0)) }
        _ = try await queue.enqueue(jobs)
        let running = WorkerTestKit.Running(Self.worker(queue, source: source, concurrency: 2))
        #expect(await WorkerTestKit.eventually { source.inFlight == ["/1.jpg", "/2.jpg"] })
        source.release(Set(paths))
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        #expect(Self.endings(of: jobs, in: events).values.allSatisfy { $0.type == .succeeded && $0.attempt == 1 })
        #expect(source.maxInFlight == 2)
    }

    @Test("Redelivered jobs handed out together each run alone, one after another, their leases renewed while they wait")
    func redeliveredJobsTogetherRunOneByOne() async throws {
        let paths = ["/r1.jpg", "/r2.jpg", "/r3.jpg"]
        let source = try OverlapSource(holding: ["/r1.jpg"])
        defer { source.stop() }
        let clock = ManualQueueClock()
        let memory = MemoryQueue(configuration: JobQueueConfiguration(visibilityTimeout: Self.visibility), clock: clock)
        let jobs = paths.map { WorkerTestKit.job(source.url($0)) }
        _ = try await memory.enqueue(jobs)
        #expect(try await memory.reserve(consumer: "vanished", max: 3, wait: .zero).count == 3)
        clock.advance(by: Self.visibility)
        // A driver whose `reserve` hands the three stale entries out at once.
        let queue = FlakyQueue(memory, reservesStale: true)
        let worker = Self.worker(queue, source: source, concurrency: 3, clock: clock)
        let running = WorkerTestKit.Running(worker)
        #expect(await WorkerTestKit.eventually { worker.jobsWaiting == 2 && source.inFlight == ["/r1.jpg"] })

        // The two waiting keep their leases: a whole visibility timeout on, nothing is stale.
        clock.advance(by: Self.visibility / 2)
        #expect(
            await WorkerTestKit.eventually {
                if queue.leasesExtended >= 3 { return true }
                // The lease loop may have taken its sleep's deadline after the step: nudge it on.
                clock.advance(by: .seconds(1))
                return false
            })
        clock.advance(by: Self.visibility / 2 + .milliseconds(1))
        #expect(try await memory.reclaimStale(consumer: "another-worker", max: 3).deliveries.isEmpty)
        source.release(["/r1.jpg"])
        let events = try await WorkerTestKit.finish("b", on: memory)
        try await running.stop()

        #expect(Self.endings(of: jobs, in: events).values.allSatisfy { $0.type == .succeeded && $0.attempt == 2 })
        for path in paths { #expect(source.overlaps(of: path).isEmpty) }
        for (job, next) in zip(jobs, jobs.dropFirst()) {
            Self.expectOrder(.succeeded, of: job, before: .started, of: next, in: events)
        }
    }

    @Test("A poison job that kills each worker running it is dead with queue.stalled after max-attempts deliveries; its neighbours succeed")
    func poisonJobDiesAloneAndItsNeighboursSucceed() async throws {
        let source = try OverlapSource(holding: ["/poison.jpg", "/a.jpg", "/b.jpg"])
        defer { source.stop() }
        let clock = ManualQueueClock()
        let queue = MemoryQueue(
            configuration: JobQueueConfiguration(visibilityTimeout: Self.visibility, maxAttempts: 3), clock: clock)
        // The poison job first: the oldest stale entry is reclaimed first.
        let poison = WorkerTestKit.job(source.url("/poison.jpg"))
        let neighbours = ["/a.jpg", "/b.jpg"].map { WorkerTestKit.job(source.url($0)) }
        _ = try await queue.enqueue([poison] + neighbours)

        // Delivered together to a first worker, which the poison job kills with the other two in hand.
        let first = WorkerTestKit.Running(Self.worker(queue, source: source, name: "w1", concurrency: 3, clock: clock))
        #expect(await WorkerTestKit.eventually { source.inFlight == ["/poison.jpg", "/a.jpg", "/b.jpg"] })
        await first.kill()
        source.release(["/a.jpg", "/b.jpg"])
        // Each next worker reclaims the poison job, runs it alone and dies of it: the neighbours
        // stay pending, untouched.
        for delivery in 2...3 {
            clock.advance(by: Self.visibility + .seconds(1))
            let next = WorkerTestKit.Running(Self.worker(queue, source: source, name: "w\(delivery)", concurrency: 3, clock: clock))
            #expect(await WorkerTestKit.eventually { source.fetches("/poison.jpg") == delivery })
            #expect(source.fetches("/a.jpg") == 1 && source.fetches("/b.jpg") == 1)
            await next.kill()
        }
        // Its deliveries used up, the next reclaim dead-letters it; the neighbours come back one at
        // a time, each alone, and succeed.
        clock.advance(by: Self.visibility + .seconds(1))
        let last = WorkerTestKit.Running(Self.worker(queue, source: source, name: "w4", concurrency: 3, clock: clock))
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await last.stop()

        let endings = Self.endings(of: [poison] + neighbours, in: events)
        let dead = try #require(endings[poison.id])
        #expect(dead.type == .dead && dead.error?.code == JobError.stalledCode && dead.attempt == 3)
        #expect(source.fetches("/poison.jpg") == 3)
        for job in neighbours {
            let ending = try #require(endings[job.id])
            #expect(ending.type == .succeeded && ending.worker == "w4" && ending.attempt == 2)
        }
        #expect(try await queue.deadLetters(limit: 10).map(\.error.code) == [JobError.stalledCode])
    }

    // MARK: Helpers

    static func worker(
        _ queue: any JobQueueDriver & WorkerRegistry, source: OverlapSource, name: String = "test-worker",
        concurrency: Int, clock: any QueueClock = SystemQueueClock()
    ) -> Worker {
        Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
            configuration: WorkerTestKit.configuration(name: name, concurrency: concurrency),
            logger: WorkerTestKit.silent, clock: clock)
    }

    /// Each job's terminal event, after checking that every one of `jobs` has exactly one: none
    /// lost, none ended twice.
    static func endings(of jobs: [Job], in events: [JobEvent]) -> [JobID: JobEvent] {
        var endings: [JobID: [JobEvent]] = [:]
        for event in events where event.isTerminal {
            if let job = event.job { endings[job, default: []].append(event) }
        }
        #expect(Set(endings.keys) == Set(jobs.map(\.id)))
        for (job, ends) in endings { #expect(ends.count == 1, "job \(job) ended \(ends.count) times") }
        return endings.compactMapValues(\.first)
    }

    /// Checks that the first `type` event of `job` comes before the first `laterType` event of `later`.
    static func expectOrder(
        _ type: JobEventType, of job: Job, before laterType: JobEventType, of later: Job, in events: [JobEvent],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let first = events.firstIndex { $0.type == type && $0.job == job.id }
        let then = events.firstIndex { $0.type == laterType && $0.job == later.id }
        #expect(
            (first ?? .max) < (then ?? .min),
            "\(type) of \(job.id) at \(first.map(String.init) ?? "-"), \(laterType) of \(later.id) at \(then.map(String.init) ?? "-")",
            sourceLocation: sourceLocation)
    }
}
