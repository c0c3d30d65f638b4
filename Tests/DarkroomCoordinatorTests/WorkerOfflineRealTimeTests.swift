import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCoordinator

/// `workerOffline` for a worker whose heartbeat lapsed: waits on Redis's own key expiry, so it
/// runs in the serial pass.
@Suite("Lapsed workers go offline, once", .realTime)
struct WorkerOfflineRealTimeTests {
    @Test("A worker that stops heartbeating without saying goodbye gets exactly one workerOffline; a live one gets none")
    func lapsedHeartbeat() async throws {
        let fleet = try ProjectionTests.Fleet()
        defer { fleet.close() }
        let info = { (name: String) in
            WorkerInfo(name: name, host: "h", pid: 1, concurrency: 1, processors: [:], version: "test", startedAt: .now())
        }
        try await fleet.queue.heartbeat(info("gone"), ttl: .milliseconds(300))
        try await fleet.queue.heartbeat(info("alive"), ttl: .seconds(600))
        try await fleet.queue.publish([.workerOnline(worker: "gone"), .workerOnline(worker: "alive")])

        // The queue's clock is a manual one: move it past the workers' latest events.
        fleet.clock.advance(by: .seconds(60))
        let coordinator = fleet.coordinator("c1", offlineGrace: .zero)
        try await fleet.run(coordinator) { $0.workersMarkedOffline >= 1 }
        // Another round of housekeeping finds nothing more to do.
        try await fleet.catchUp(fleet.coordinator("c1", offlineGrace: .zero))

        let offline = try await fleet.queue.readEvents(after: .start, limit: 100, wait: .zero).filter { $0.event.type == .workerOffline }
        #expect(offline.map(\.event.worker) == ["gone"])
        let states = try await fleet.store.workerProjections()
        #expect(states.map(\.name) == ["alive", "gone"])
        #expect(states.map(\.state) == [.online, .offline])
    }
}
