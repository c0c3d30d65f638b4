import DarkroomQueue
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Glibc
import ServiceLifecycle
import Synchronization
import Testing

@Suite("Worker lifecycle: registration, graceful shutdown, abandoned jobs")
struct WorkerLifecycleTests {
    /// A source server that holds each response until `release` is signalled (or 20 s pass), so a
    /// job is reliably in hand while the test shuts the worker down.
    final class Gate: Sendable {
        private let open = Atomic<Bool>(false)
        func release() { open.store(true, ordering: .sequentiallyConsistent) }
        func wait() {
            for _ in 0..<2000 where !open.load(ordering: .sequentiallyConsistent) { usleep(10_000) }
        }
    }

    @Test("Under a ServiceGroup, a graceful shutdown during a job lets it finish, then the worker goes offline")
    func gracefulShutdownFinishesJobInHand() async throws {
        let jpeg = try WorkerTestKit.image()
        let gate = Gate()
        let source = try TestHTTPServer { _ in
            gate.wait()
            return .ok(jpeg)
        }
        defer { source.stop() }
        let queue = MemoryQueue()
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
            configuration: WorkerTestKit.configuration(name: "graceful"), logger: WorkerTestKit.silent)
        let group = ServiceGroup(services: [worker], logger: WorkerTestKit.silent)
        let running = Task { try await group.run() }

        #expect(await WorkerTestKit.eventually { try await queue.liveWorkers().map(\.name) == ["graceful"] })
        _ = try await queue.enqueue([WorkerTestKit.job(source.url("/slow.jpg"))])
        // In hand (its download held by the gate; `started` comes when its CPU work starts).
        #expect(await WorkerTestKit.eventually { try await queue.counts().pending == 1 })
        await group.triggerGracefulShutdown()
        // The job is still in hand: let its download finish now.
        gate.release()
        try await running.value

        let events = try await WorkerTestKit.events(on: queue)
        #expect(events.map(\.type) == [.workerOnline, .batchEnqueued, .started, .succeeded, .workerOffline])
        #expect(try await queue.liveWorkers().isEmpty)
        #expect(try await queue.counts().pending == 0)
        #expect(worker.jobsDone == 1)
    }

    @Test("A job still running after the grace period is left pending, unacknowledged, for another worker")
    func jobPastGracePeriodIsAbandoned() async throws {
        let jpeg = try WorkerTestKit.image()
        let gate = Gate()
        defer { gate.release() }
        let source = try TestHTTPServer { _ in
            gate.wait()
            return .ok(jpeg)
        }
        defer { source.stop() }
        // The queue and the workers share a clock the test moves: the 200 ms grace period and
        // the 600 ms visibility timeout pass when the test says so, however loaded the machine.
        let clock = ManualQueueClock()
        let queue = MemoryQueue(configuration: JobQueueConfiguration(visibilityTimeout: .milliseconds(600)), clock: clock)
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
            configuration: WorkerTestKit.configuration(gracePeriod: .milliseconds(200)),
            logger: WorkerTestKit.silent, clock: clock)
        let running = WorkerTestKit.Running(worker)
        _ = try await queue.enqueue([WorkerTestKit.job(source.url("/stuck.jpg"))])
        // In hand (its download held by the gate; `started` comes when its CPU work starts).
        #expect(await WorkerTestKit.eventually { try await queue.counts().pending == 1 })
        try await WorkerTestKit.advancing(clock) { try await running.stop() }

        // `run` returned while the download was still held: no terminal event, the entry pending
        // (not yet stale: nobody else is running to reclaim it anyway).
        let events = try await WorkerTestKit.events(on: queue)
        #expect(!events.contains { $0.isTerminal })
        #expect(events.last?.type == .workerOffline)
        #expect(try await queue.counts().pending == 1)

        // Another worker reclaims it once it is stale, and finishes it: one terminal event in all.
        gate.release()
        clock.advance(by: .seconds(1))
        let rescuer = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
                configuration: WorkerTestKit.configuration(name: "rescuer"),
                logger: WorkerTestKit.silent, clock: clock))
        let finished = try await WorkerTestKit.finish("b", on: queue)
        try await rescuer.stop()
        #expect(finished.filter(\.isTerminal).map(\.type) == [.succeeded])
        #expect(finished.last?.worker == "rescuer")
    }

    @Test("A draining worker keeps its heartbeat while it finishes the jobs in hand, and leaves the live set after")
    func drainingWorkerStaysLive() async throws {
        let jpeg = try WorkerTestKit.image()
        let gate = Gate()
        defer { gate.release() }
        let source = try TestHTTPServer { _ in
            gate.wait()
            return .ok(jpeg)
        }
        defer { source.stop() }
        let clock = ManualQueueClock()
        let queue = MemoryQueue(clock: clock)
        // Heartbeats every 200 ms with a 600 ms time to live, a 10 s grace period.
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
            configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent, clock: clock)
        let running = WorkerTestKit.Running(worker)
        _ = try await queue.enqueue([WorkerTestKit.job(source.url("/slow.jpg"))])
        // In hand (its download held by the gate; `started` comes when its CPU work starts).
        #expect(await WorkerTestKit.eventually { try await queue.counts().pending == 1 })
        worker.shutdownGracefully()
        // Each step outlives every earlier heartbeat's time to live (but not the grace period):
        // the worker is listed again only if it beats while draining. The heartbeat loop may take
        // its next sleep's deadline after a step, so the clock is nudged on until it beats.
        for _ in 0..<3 {
            clock.advance(by: .seconds(1))
            #expect(
                await WorkerTestKit.eventually {
                    if try await queue.liveWorkers().map(\.name) == ["test-worker"] { return true }
                    clock.advance(by: .milliseconds(50))
                    return false
                })
        }
        gate.release()
        try await running.stop()
        #expect(try await queue.liveWorkers().isEmpty)
        #expect(try await WorkerTestKit.events(on: queue).filter(\.isTerminal).map(\.type) == [.succeeded])
    }

    @Test("A stale job of a dead worker is reclaimed and finished by a live worker on its own")
    func staleJobsAreReclaimed() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
        let clock = ManualQueueClock()
        let queue = MemoryQueue(configuration: JobQueueConfiguration(visibilityTimeout: .milliseconds(300)), clock: clock)
        _ = try await queue.enqueue([WorkerTestKit.job(source)])
        // A worker that took the job and died: it never acknowledges nor renews.
        let taken = try await queue.reserve(consumer: "dead-worker", max: 1, wait: .zero)
        #expect(taken.count == 1)
        clock.advance(by: .seconds(1))

        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
                configuration: WorkerTestKit.configuration(name: "alive"),
                logger: WorkerTestKit.silent, clock: clock))
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()
        let success = try #require(events.last)
        #expect(success.type == .succeeded && success.worker == "alive" && success.attempt == 2)
    }

    @Test("Heartbeats advertise host, pid, concurrency, jobs done and the processors with versions and schemas")
    func heartbeatsDescribeTheWorker() async throws {
        let queue = MemoryQueue()
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(),
            configuration: WorkerTestKit.configuration(name: "hb", concurrency: 3), logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        #expect(await WorkerTestKit.eventually { try await !queue.liveWorkers().isEmpty })
        let info = try #require(try await queue.liveWorkers().first)
        try await running.stop()
        #expect(info.name == "hb" && info.concurrency == 3 && info.version == "test")
        #expect(info.pid == getpid() && !info.host.isEmpty)
        #expect(info.processors["downsample"] == 1 && info.processors["blur"] != nil)
        #expect(info.schemas.map(\.name).sorted() == info.processors.keys.sorted())
        #expect(info.schemas.allSatisfy { info.processors[$0.name] == $0.version })
        #expect(info.schemas.first { $0.name == "resize" }?.parameters.map(\.defaultText) == [nil, "fit", "center", nil])
        #expect(try await queue.liveWorkers().isEmpty)
    }

    @Test("Cancelling the worker's task stops it at once and still says goodbye")
    func cancellationIsAHardStop() async throws {
        let queue = MemoryQueue()
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(),
            configuration: WorkerTestKit.configuration(name: "cancelled"), logger: WorkerTestKit.silent)
        let task = Task { try await worker.run() }
        #expect(await WorkerTestKit.eventually { try await !queue.liveWorkers().isEmpty })
        task.cancel()
        try await task.value
        #expect(try await queue.liveWorkers().isEmpty)
        #expect(try await WorkerTestKit.events(on: queue).last?.type == .workerOffline)
    }
}
