import DarkroomSystem
import Testing

@Suite("Memory leases: one holder per key, in one process")
struct MemoryWorkLeasesTests {
    @Test("Memory leases follow the same rules")
    func memoryLeaseSemantics() async throws {
        let leases = MemoryWorkLeases()
        let lease = try #require(try await leases.acquire("k", ttl: .seconds(10)))
        #expect(try await leases.acquire("k", ttl: .seconds(10)) == nil)
        #expect(try await !leases.renew(WorkLease(key: "k", token: "other"), ttl: .seconds(1)))
        try await leases.release(WorkLease(key: "k", token: "other"))
        #expect(try await leases.isHeld("k"))
        try await leases.release(lease)
        #expect(try await !leases.isHeld("k"))
        // The leases expire on the continuous clock, which a sleep of at least the ttl moves past it.
        _ = try await leases.acquire("e", ttl: .milliseconds(40))
        try await Task.sleep(for: .milliseconds(60))
        #expect(try await !leases.isHeld("e"))
    }
}
