import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Testing

/// A worker that died holding jobs: `/status` and `darkroom status` list it with its abandoned
/// jobs until they are reclaimed, instead of dropping it with its heartbeat.
@Suite("Dead workers and their abandoned jobs in the fleet status")
struct DeadWorkerStatusTests {
    @Test("Given a worker gone with two started jobs, then it is listed with them until another worker takes both")
    func abandonedUntilReclaimed() async throws {
        let fleet = try ProjectionTests.Fleet()
        defer { fleet.close() }
        let reader = FleetStatusReader(queue: fleet.queue, store: fleet.store)
        _ = try await fleet.queue.enqueue((1...2).map { QueueTestKit.job("g\($0)", batch: "b") })
        let taken = try await fleet.queue.reserve(consumer: "gone", max: 2, wait: .zero)
        #expect(taken.count == 2)
        try await fleet.queue.publish(taken.map { .started(job: $0.job.id, batch: "b", worker: "gone", attempt: $0.attempt) })
        try await fleet.catchUp(fleet.coordinator("c1"))

        // "gone" never sent a heartbeat (or it lapsed): not a live worker, but its jobs are abandoned.
        var status = try await reader.read()
        #expect(status.workers.isEmpty)
        #expect(status.deadWorkers?.map(\.name) == ["gone"])
        #expect(status.deadWorkers?.first?.abandonedJobs == 2)
        #expect(status.deadWorkers?.first?.lastEventAt != nil)

        // A live worker restarts one of them: one left abandoned; the live worker is not dead.
        try await fleet.queue.heartbeat(
            WorkerInfo(name: "alive", host: "h", pid: 1, concurrency: 2, processors: [:], version: "test", startedAt: .now()),
            ttl: .seconds(600))
        try await fleet.queue.publish([.started(job: taken[0].job.id, batch: "b", worker: "alive", attempt: taken[0].attempt + 1)])
        try await fleet.catchUp(fleet.coordinator("c1"))
        status = try await reader.read()
        #expect(status.workers.map(\.name) == ["alive"])
        #expect(status.deadWorkers?.map(\.abandonedJobs) == [1])

        // Both reclaimed: the dead worker is no longer listed.
        try await fleet.queue.publish([.started(job: taken[1].job.id, batch: "b", worker: "alive", attempt: taken[1].attempt + 1)])
        try await fleet.catchUp(fleet.coordinator("c1"))
        #expect(try await reader.read().deadWorkers == [])
    }
}
