import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Testing

/// The contract tests that wait on Redis's own time, run against `RedisStreamsQueue` on a real
/// `redis-server`: a lease goes stale by `XAUTOCLAIM`'s idle time, stream ids carry Redis's
/// milliseconds, heartbeat records expire by `PX`. No clock can be injected there, so the suite
/// sleeps for real with a short visibility timeout (`StreamsTestKit.visibilityTimeout`) and runs
/// in the serial pass of `scripts/test`, where its margins hold.
@Suite("RedisStreamsQueue meets the job queue contract in real time", .realTime)
struct RedisStreamsQueueContractRealTimeTests {
    static let factory = StreamsTestKit.realTimeFactory

    @Test("A stale reservation is reclaimed by another consumer with its delivery count incremented, and only one ack publishes")
    func staleReclaim() async throws { try await JobQueueContract.staleReservationIsReclaimedOnce(Self.factory) }

    @Test("A stale job that requires a capability is reclaimed only by a consumer that offers it")
    func capabilitiesOnReclaim() async throws { try await JobQueueContract.staleJobsAreReclaimedOnlyByCapableConsumers(Self.factory) }

    @Test("A job delivered more than maxAttempts times without an outcome is dead-lettered with one dead event")
    func stalledToDeadLetter() async throws { try await JobQueueContract.stalledJobIsDeadLetteredAfterMaxAttempts(Self.factory) }

    @Test("Extending a lease keeps a long job from being reclaimed")
    func extendLease() async throws { try await JobQueueContract.extendLeasePreventsReclaim(Self.factory) }

    @Test("Garbage is dead-lettered at once; unknown versions only after maxAttempts deliveries")
    func garbage() async throws { try await JobQueueContract.garbageAndUnknownVersionsAreDeadLettered(Self.factory) }

    @Test("An event cursor made for a time skips older events")
    func eventCursorAtTime() async throws { try await JobQueueContract.eventCursorAtTimeSkipsOlderEvents(Self.factory) }

    @Test("Worker heartbeats expire after their ttl and removal is immediate")
    func workerRegistry() async throws { try await JobQueueContract.workerRegistryExpiresHeartbeats(Self.factory) }

    @Test("A group commit answers per entry and still publishes one terminal event per job")
    func groupCommit() async throws { try await JobQueueContract.groupCommitAnswersPerEntryAndPublishesOnce(Self.factory) }
}
