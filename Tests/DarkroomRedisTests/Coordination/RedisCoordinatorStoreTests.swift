import DarkroomFleetStatus
import DarkroomQueue
import DarkroomTestSupport
import Testing

@testable import DarkroomRedis

/// `RedisCoordinatorStore` is made from a queue and lives beside it: the queue's key prefix, its
/// event retention, the key layout `RedisQueueKeys` documents.
@Suite("RedisCoordinatorStore beside its queue")
struct RedisCoordinatorStoreTests {
    typealias Kit = StreamsTestKit

    @Test("Given a queue with a prefix, its store writes the lease and registration under that prefix, and the queue's own store reads them")
    func sharesThePrefix() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let prefix = Kit.prefix("store")
        let queue = RedisStreamsQueue(client: client, configuration: JobQueueConfiguration(eventRetention: 500), keyPrefix: prefix)
        let store = RedisCoordinatorStore(queue: queue)

        #expect(try await store.acquireCoordinatorLease(owner: "c1", ttl: .seconds(30)) == "c1")
        #expect(try await store.acquireCoordinatorLease(owner: "c2", ttl: .seconds(30)) == "c1")
        // A cap under the queue's retention is raised to it.
        try await store.registerCoordinator(owner: "c1", streamCap: 10)
        #expect(try await client.command(["GET", "\(prefix):coordinator:lease"]).string == "c1")
        #expect(try await client.command(["HGET", "\(prefix):coordinator", "cap"]).string == "500")

        let provided = try #require((queue as any JobQueueDriver as? any CoordinatorStoreProviding)?.coordinatorStore)
        let registration = try #require(try await provided.coordinatorRegistration())
        #expect(registration.leaseHolder == "c1")
        #expect(registration.streamCap == 500)
        #expect(registration.checkpoint == nil)

        try await store.releaseCoordinatorLease(owner: "c2")
        #expect(try await provided.coordinatorRegistration()?.leaseHolder == "c1")
        try await store.releaseCoordinatorLease(owner: "c1")
        #expect(try await provided.coordinatorRegistration()?.leaseHolder == nil)
    }
}
